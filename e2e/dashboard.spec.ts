import { expect, test } from '@playwright/test';
import { addDays, localDateString } from '@lm/shared';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createLicense, createUser, uid } from './fixtures/data.ts';
import { E2E_USERS } from './fixtures/users.ts';
import { shown } from './fixtures/dates.ts';

/** The server's calendar: the specs run in its time zone (TZ, e2e/playwright.config.ts). */
const dayFromNow = (days: number) => addDays(localDateString(), days);

test('Admin sees the greeting, its eight stat cards (each a link), Recent Activity and Expiring Licenses (default 90 days)', async ({
  page,
  request,
}) => {
  const admin = await apiAs(request, 'admin');
  const agent = await createUser(admin, 'Agent', { first_name: 'Dana' });
  const number = `DSH-${uid()}`;
  await createLicense(admin, { user_id: agent.user_id, license_number: number, issue_date: '2024-01-01', expiration_date: dayFromNow(10) });

  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: `Welcome back, ${E2E_USERS.admin.first_name}!` })).toBeVisible();
  for (const label of [
    'Total Users',
    'Total Licenses',
    'At Risk',
    'Expired',
    'Expiring Licenses',
    'Total Courses',
    'Total Completions',
    'Pending Completions',
  ]) {
    await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
  }
  // Each card opens the list it counts.
  await expect(page.getByRole('link', { name: /^Pending Completions \d/ })).toHaveAttribute(
    'href',
    '/courses?tab=completions&completion_status=Pending',
  );
  await expect(page.getByRole('link', { name: /^Expired \d/ })).toHaveAttribute('href', '/licenses?compliance=expired');
  await expect(page.getByRole('heading', { name: 'Recent Activity' })).toBeVisible();
  const activity = page.getByTestId('recent-activity');
  await expect(activity.getByText(`License ${number} (CA) added for Dana`)).toBeVisible();
  expect(await activity.locator('li').count()).toBeLessThanOrEqual(10);

  const expiring = page.getByTestId('expiring-licenses');
  await expect(expiring.getByRole('heading', { name: 'Expiring Licenses' })).toBeVisible();
  await expect(expiring.getByRole('combobox', { name: 'Expiring within' })).toHaveValue('90 days');
  expect(await expiring.getByTestId('expiring-item').count()).toBeLessThanOrEqual(5);
});

test('an Agent sees its cards, a CE card per license, and expiring licenses by window with danger and warning badges', async ({
  page,
  request,
}) => {
  const admin = await apiAs(request, 'admin');
  const agent = await createUser(admin, 'Agent', { first_name: 'Carla' });
  const last = agent.last_name;
  const soon = `SOON-${uid()}`;
  const later = `LATER-${uid()}`;
  await createLicense(admin, {
    user_id: agent.user_id,
    license_number: soon,
    state: 'TX',
    issue_date: '2024-01-01',
    expiration_date: dayFromNow(10),
    ce_hours_required: 24,
    ce_hours_completed: 6,
  });
  await createLicense(admin, { user_id: agent.user_id, license_number: later, issue_date: '2024-01-01', expiration_date: dayFromNow(45) });

  await signIn(page, agent);
  for (const label of ['My Licenses', 'My Completions', 'My Payments']) await expect(page.getByText(label, { exact: true })).toBeVisible();
  await expect(page.getByTestId('stat-my_licenses')).toContainText('2');
  await expect(page.getByTestId('stat-my_payments')).toContainText('$0.00');

  const ce = page.getByTestId('ce-progress');
  await expect(ce.getByRole('heading', { name: 'Continuing Education Progress' })).toBeVisible();
  // One card per license, the one most in need first: the TX license with 18 hours to take in 10 days.
  const cards = ce.getByTestId('ce-license');
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toContainText(`TX Sales · ${soon}`);
  await expect(cards.first().getByText('6 of 24 hours completed')).toBeVisible();
  await expect(cards.first().getByTestId('compliance-badge')).toHaveText('At risk · 18 h');
  await expect(cards.first().getByTestId('ce-license-expiry')).toHaveText(`Expires ${shown(dayFromNow(10))} · 10 days left`);
  await expect(cards.nth(1)).toContainText(`CA Sales · ${later}`);

  const expiring = page.getByTestId('expiring-licenses');
  const items = expiring.getByTestId('expiring-item');
  await expect(items).toHaveCount(2);
  const first = items.filter({ hasText: soon });
  await expect(first).toContainText(`Carla ${last}`);
  await expect(first).toContainText('TX');
  await expect(first.locator('[data-color]')).toHaveText('10 days');
  await expect(first.locator('[data-color]')).toHaveAttribute('data-color', 'red');
  const second = items.filter({ hasText: later }).locator('[data-color]');
  await expect(second).toHaveText('45 days');
  await expect(second).toHaveAttribute('data-color', 'yellow');

  await expiring.getByRole('combobox', { name: 'Expiring within' }).click();
  await page.getByRole('option', { name: '30 days' }).click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(soon);
  await expiring.getByRole('combobox', { name: 'Expiring within' }).click();
  await page.getByRole('option', { name: '60 days' }).click();
  await expect(items).toHaveCount(2);

  const activity = page.getByTestId('recent-activity');
  await expect(activity.getByText(`License ${soon} (TX) added for Carla ${last}`)).toBeVisible();
});

test('a new School sees its cards, greeted by its name, and both empty states (no expiring licenses: it holds none)', async ({
  page,
  request,
}) => {
  const school = await createUser(await apiAs(request, 'admin'), 'School', { first_name: 'Sol' });
  await signIn(page, school);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome back, Sol ${school.last_name}!`);
  for (const label of ['Pending Completions', 'Completions This Month', 'Course Completions', 'My Courses']) {
    await expect(page.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByText('No recent activity')).toBeVisible();
  await expect(page.getByTestId('pending-approvals').getByText('No completions waiting for your approval')).toBeVisible();
  await expect(page.getByTestId('expiring-licenses')).toHaveCount(0);
  await expect(page.getByTestId('ce-progress')).toHaveCount(0);
});

test("a Broker sees its brokerage's cards", async ({ page }) => {
  await signIn(page, 'broker');
  for (const label of ['Total Agents', 'Agent Licenses', 'At Risk', 'Expired', 'Expiring Agent Licenses', 'Agent Completions']) {
    await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByRole('link', { name: /^Total Agents \d/ })).toHaveAttribute('href', '/users?role=Agent');
  await expect(page.getByRole('heading', { name: 'Recent Activity' })).toBeVisible();
});
