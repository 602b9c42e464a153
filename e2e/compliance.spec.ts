import { expect, test, type APIRequestContext } from '@playwright/test';
import { addDays, localDateString } from '@lm/shared';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createBrokerage, createLicense, createUser, ensureCeRule, uid } from './fixtures/data.ts';
import { shown } from './fixtures/dates.ts';
import { rows as bodyRows } from './fixtures/ui.ts';

// The one compliance judgement as people meet it (docs/decisions.md "Compliance"): a Broker's dashboard counts its
// team's licenses at risk and opens the list filtered to them; an Agent sees one CE card per license with the topics
// it still needs; the license form takes a state rule's hours. The state MT (its rule) is left to this file, ID too.

const TODAY = localDateString();
/** The MT Sales rule: 10 hours every 2 years, Ethics 3 h. */
const MONTANA = { state: 'MT', hours_required: 10, cycle_years: 2, topics: [{ topic: 'Ethics', hours: 3 }] };

// Several steps per test on a shared 2-core machine: allow more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

/**
 * A brokerage of its own with a Broker and one Agent, who holds an MT license with 0 of 10 hours expiring in 40 days
 * (at risk, Ethics missing) and an ID license with its 4 hours done (complete).
 */
async function seedTeam(request: APIRequestContext) {
  const admin = await apiAs(request, 'admin');
  await ensureCeRule(admin, MONTANA);
  const tag = uid();
  const brokerage = await createBrokerage(admin, `Compliance Realty ${tag}`);
  const team = { last_name: `Comply${tag}`, brokerage_id: brokerage.brokerage_id };
  const broker = await createUser(admin, 'Broker', { first_name: 'Bea', ...team });
  const agent = await createUser(admin, 'Agent', { first_name: 'Cody', ...team });
  const atRisk = `RISK-${tag}`;
  const complete = `DONE-${tag}`;
  await createLicense(admin, {
    user_id: agent.user_id,
    license_number: atRisk,
    state: 'MT',
    issue_date: addDays(TODAY, -690),
    expiration_date: addDays(TODAY, 40),
    ce_hours_required: 10,
    ce_hours_completed: 0,
  });
  await createLicense(admin, {
    user_id: agent.user_id,
    license_number: complete,
    state: 'ID',
    issue_date: addDays(TODAY, -400),
    expiration_date: addDays(TODAY, 300),
    ce_hours_required: 4,
    ce_hours_completed: 4,
  });
  return { broker, agent, atRisk, complete };
}

test("a Broker's At Risk card opens the licenses at risk; the chips count each state and filter through the URL", async ({
  page,
  request,
}) => {
  const { broker, atRisk, complete } = await seedTeam(request);
  await signIn(page, broker);

  await expect(page.getByTestId('stat-at_risk')).toHaveText('1');
  await expect(page.getByTestId('stat-expired')).toHaveText('0');
  await page.getByRole('link', { name: /^At Risk 1 / }).click();
  await expect(page).toHaveURL(/\/licenses\?compliance=at_risk$/);
  await expect(page.getByRole('heading', { name: 'License Management' })).toBeVisible({ timeout: 20_000 });

  const rows = bodyRows(page);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(atRisk);
  const badge = rows.first().getByTestId('compliance-badge');
  await expect(badge).toHaveText('At risk · 10 h');
  await expect(rows.first().getByTestId('topics-missing')).toHaveText('Missing: Ethics 3 h');
  await expect(page.getByText('Showing 1 to 1 of 1 licenses')).toBeVisible();

  // The chips: every state counted with the screen's other filters, the chosen one checked.
  const chips = page.getByRole('radiogroup', { name: 'Compliance' });
  await expect(chips.getByRole('radio', { name: 'At risk 1' })).toBeChecked();
  // (The radios themselves are visually hidden under their chips.)
  await expect(chips.getByRole('radio', { name: 'CE complete 1' })).not.toBeChecked();
  await expect(chips.getByRole('radio', { name: 'Expired 0' })).not.toBeChecked();
  await expect(chips.getByRole('radio', { name: 'On track 0' })).not.toBeChecked();
  await expect(chips.getByRole('radio', { name: 'All 2' })).not.toBeChecked();

  await chips.getByText('CE complete').click();
  await expect(page).toHaveURL(/compliance=complete/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(complete);
  await expect(rows.first().getByTestId('compliance-badge')).toHaveText('CE complete');

  await chips.getByText('All 2', { exact: true }).click();
  await expect(page).not.toHaveURL(/compliance=/);
  await expect(rows).toHaveCount(2);
  // Sorted by compliance: at risk first.
  await page.getByRole('button', { name: /^Compliance/ }).click();
  await expect(page).toHaveURL(/sort=compliance/);
  await expect(rows.first()).toContainText(atRisk);

  // The expiring card opens the list within the dashboard's window.
  await page.goto('/dashboard');
  await page.getByRole('link', { name: /^Expiring Agent Licenses/ }).click();
  await expect(page).toHaveURL(/\/licenses\?expiring_within=\d+$/);
  await expect(page.getByRole('combobox', { name: 'Expiring Within' })).not.toHaveValue('');
});

test('an Agent sees one CE card per license, the one most in need first, with the topic it still needs', async ({ page, request }) => {
  const { agent, atRisk, complete } = await seedTeam(request);
  await signIn(page, agent);

  const section = page.getByTestId('ce-progress');
  await expect(section.getByRole('heading', { name: 'Continuing Education Progress' })).toBeVisible();
  const cards = section.getByTestId('ce-license');
  await expect(cards).toHaveCount(2);

  const first = cards.first();
  await expect(first.getByRole('heading', { name: `MT Sales · ${atRisk}` })).toBeVisible();
  await expect(first.getByTestId('compliance-badge')).toHaveText('At risk · 10 h');
  await expect(first.getByTestId('ce-license-expiry')).toHaveText(`Expires ${shown(addDays(TODAY, 40))} · 40 days left`);
  await expect(first.getByText('0 of 10 hours completed')).toBeVisible();
  await expect(first.getByTestId('topics-missing').getByRole('listitem')).toHaveText(['Ethics — 3 h']);
  // 10 hours over two months (40 days, a month counted as 30 days, the last one whole).
  await expect(first.getByTestId('ce-pace')).toHaveText(`About 5 h a month to finish by ${shown(addDays(TODAY, 40))}`);

  const second = cards.nth(1);
  await expect(second.getByRole('heading', { name: `ID Sales · ${complete}` })).toBeVisible();
  await expect(second.getByTestId('compliance-badge')).toHaveText('CE complete');
  await expect(second.getByTestId('topics-missing')).toHaveCount(0);
  await expect(second.getByTestId('ce-pace')).toHaveCount(0);

  // Each card opens its license's transcript.
  await first.getByRole('button', { name: `View transcript of license ${atRisk}` }).click();
  await expect(page.getByRole('dialog', { name: 'CE Transcript' })).toBeVisible();
});

test("the license form takes the state rule's CE hours, says where they come from, and keeps what was typed", async ({ page, request }) => {
  await ensureCeRule(await apiAs(request, 'admin'), MONTANA);
  await signIn(page, 'admin', '/licenses');
  await page.getByRole('button', { name: 'Add License' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New License' });
  const hours = dialog.getByLabel('CE Hours Required');
  await expect(hours).toHaveValue('0');
  await expect(dialog.getByText('Office default (System Settings)')).toBeVisible();

  await dialog.getByRole('combobox', { name: /^State/ }).click();
  await page.getByRole('option', { name: 'MT', exact: true }).click();
  await expect(hours).toHaveValue('10');
  await expect(dialog.getByText('From the MT Sales CE rule: 10 hours every 2 years, including Ethics 3 h')).toBeVisible();

  // Another state without a rule: the office default again.
  await dialog.getByRole('combobox', { name: /^State/ }).click();
  await page.getByRole('option', { name: 'ID', exact: true }).click();
  await expect(hours).toHaveValue('0');
  await expect(dialog.getByText('Office default (System Settings)')).toBeVisible();

  // Typed in: a later choice leaves it alone.
  await hours.fill('7');
  await dialog.getByRole('combobox', { name: /^State/ }).click();
  await page.getByRole('option', { name: 'MT', exact: true }).click();
  await expect(dialog.getByText(/^From the MT Sales CE rule/)).toBeVisible();
  await expect(hours).toHaveValue('7');
});
