import fs from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { addDays, addYears, localDateString } from '@lm/shared';
import { apiAs, type Api } from './fixtures/api.ts';
import { signIn, type Who } from './fixtures/auth.ts';
import { createCourse, createLicense, ensureCeRule, myId, uid } from './fixtures/data.ts';
import { row } from './fixtures/ui.ts';
import { shown } from './fixtures/dates.ts';

// CE rules, renewals with their confirmation, the transcript drawer and course topics. The states used here
// (WA, OR, NV, AZ) are left to this file: a rule changes what licenses of its state require.

const TODAY = localDateString();

// Several steps per test on a shared 2-core machine: allow more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

/** A license of the seeded Agent's (the Agent's own dashboard shows it in the transcript test). */
async function agentLicense(request: APIRequestContext, admin: Api, fields: Record<string, unknown>) {
  const agentId = await myId(await apiAs(request, 'agent'));
  return createLicense(admin, { user_id: agentId, issue_date: addDays(TODAY, -400), ...fields });
}

/** Signs in straight onto the licenses list narrowed to the license. */
async function openLicenses(page: Page, who: Who, number: string) {
  await signIn(page, who, `/licenses?search=${number}`);
  await expect(row(page, number)).toHaveCount(1, { timeout: 20_000 });
}

async function openRenew(page: Page, number: string) {
  await row(page, number)
    .getByRole('button', { name: `Actions for license ${number}` })
    .click();
  await page.getByRole('menuitem', { name: 'Renew' }).click();
  const dialog = page.getByRole('dialog', { name: `Renew License ${number}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('Renew asks first: with CE complete it shows the new date and renews; the drawer then lists the closed cycle', async ({
  page,
  request,
}) => {
  const admin = await apiAs(request, 'admin');
  const number = `RNW-${uid()}`;
  const expiration = addDays(TODAY, 20);
  await agentLicense(request, admin, {
    license_number: number,
    state: 'OR',
    expiration_date: expiration,
    ce_hours_required: 4,
    ce_hours_completed: 4,
  });
  await openLicenses(page, 'admin', number);

  // Cancel changes nothing.
  let dialog = await openRenew(page, number);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, number)).toContainText(shown(expiration));

  dialog = await openRenew(page, number);
  await expect(dialog.getByTestId('renew-current-expiration')).toHaveText(shown(expiration));
  await expect(dialog.getByTestId('renew-new-expiration')).toHaveText(shown(addYears(expiration, 2)));
  await expect(dialog.getByText('4 of 4 hours')).toBeVisible();
  await expect(dialog.getByText('CE for this cycle is complete.')).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: 'Renew with CE outstanding' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Renew', exact: true }).click();
  await expect(page.getByText('License renewed successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row(page, number)).toContainText(shown(addYears(expiration, 2)));
  await expect(row(page, number)).toContainText('Active');

  await row(page, number).getByRole('cell').first().click();
  const drawer = page.getByRole('dialog', { name: 'CE Transcript' });
  await expect(drawer.getByText(`${number} · OR · Sales`)).toBeVisible();
  const closed = drawer.getByTestId('closed-cycle');
  await expect(closed).toHaveCount(1);
  await expect(closed).toContainText(`to ${shown(expiration)}`);
  await expect(closed).toContainText('4 of 4 hours');
  await expect(closed.getByText('Renewed with CE outstanding')).toHaveCount(0);
});

test('Renew with CE outstanding needs the explicit second choice and is marked on the closed cycle', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  const number = `OUT-${uid()}`;
  const expiration = addDays(TODAY, 15);
  const license = await agentLicense(request, admin, {
    license_number: number,
    state: 'AZ',
    expiration_date: expiration,
    ce_hours_required: 10,
    ce_hours_completed: 6,
  });
  // The API refuses the same renewal without allow_incomplete, with a message.
  const refused = await admin.raw('post', `/api/licenses/${license.license_id}/renew`, { data: {} });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { error: string }).error).toMatch(/incomplete/i);

  await openLicenses(page, 'broker', number);
  const dialog = await openRenew(page, number);
  await expect(dialog.getByText('6 of 10 hours')).toBeVisible();
  await expect(dialog.getByRole('alert').filter({ hasText: 'CE outstanding' })).toContainText('4 hours of the 10 required are not done.');
  const renew = dialog.getByRole('button', { name: 'Renew anyway' });
  await expect(renew).toBeDisabled();
  const second = dialog.getByRole('checkbox', { name: 'Renew with CE outstanding' });
  await second.check();
  await expect(renew).toBeEnabled();
  await second.uncheck();
  await expect(renew).toBeDisabled();
  await second.check();
  await renew.click();
  await expect(page.getByText('License renewed successfully!')).toBeVisible();
  await expect(row(page, number)).toContainText(shown(addYears(expiration, 2)));

  // Enter on a focused row opens the transcript too.
  await row(page, number).focus();
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'CE Transcript' });
  const closed = drawer.getByTestId('closed-cycle');
  await expect(closed).toHaveCount(1);
  await expect(closed.getByText('Renewed with CE outstanding')).toBeVisible();
  await closed.getByRole('button').first().click();
  await expect(closed.getByText('6 of 10 hours').first()).toBeVisible();
});

test('the transcript drawer shows the cycle, its topics, completions and adjustments, and downloads its CSV', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  await ensureCeRule(admin, { state: 'WA', hours_required: 10, cycle_years: 2, topics: [{ topic: 'Ethics', hours: 3 }] });
  const course = await createCourse(admin, {
    course_name: `Ethics for WA ${uid()}`,
    description: 'Ethics, as the WA rule requires',
    ce_hours: 3,
    topic: 'Ethics',
  });
  const number = `TRN-${uid()}`;
  const license = await agentLicense(request, admin, {
    license_number: number,
    state: 'WA',
    expiration_date: addDays(TODAY, 300),
    ce_hours_required: 10,
  });
  const completion = await admin.post<{ completion_id: number }>('/api/completions', {
    course_id: course.course_id,
    license_id: license.license_id,
    user_id: await myId(await apiAs(request, 'agent')),
    completion_date: addDays(TODAY, -10),
  });
  await admin.post(`/api/completions/${completion.completion_id}/review`, { status: 'Approved' });

  await openLicenses(page, 'admin', number);
  // The row's action menu does not open the drawer.
  await row(page, number)
    .getByRole('button', { name: `Actions for license ${number}` })
    .click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'CE Transcript' })).toHaveCount(0);

  await row(page, number).getByRole('cell').first().click();
  const drawer = page.getByRole('dialog', { name: 'CE Transcript' });
  const current = drawer.getByRole('region', { name: 'Current cycle' });
  await expect(current.getByTestId('figure-required')).toHaveText('10');
  await expect(current.getByTestId('figure-completed')).toHaveText('3');
  await expect(current.getByTestId('figure-remaining')).toHaveText('7');
  await expect(current.getByTestId('ce-hours-label')).toHaveText('3 of 10 hours');
  await expect(current.getByRole('progressbar', { name: 'CE hours: 3 of 10 hours' })).toBeVisible();
  await expect(current.getByRole('table', { name: 'Required topics' }).getByRole('row', { name: /Ethics/ })).toContainText('3');
  await expect(current.getByRole('table', { name: 'Completions' })).toContainText(course.course_name);
  await expect(current.getByText('No adjustments in this cycle.')).toBeVisible();
  await expect(drawer.getByText(/No closed cycles yet/)).toBeVisible();

  // An Admin adds an adjustment; the shared schema's messages guard the form.
  const form = current.getByRole('form', { name: 'Adjust CE Hours' });
  await form.getByRole('button', { name: 'Add Adjustment' }).click();
  await expect(form.getByText('Hours must be a number other than 0')).toBeVisible();
  await expect(form.getByText('Reason is required')).toBeVisible();
  await form.getByLabel('Hours').fill('2');
  await form.getByLabel('Reason').fill('Out-of-state course credited');
  await form.getByRole('button', { name: 'Add Adjustment' }).click();
  await expect(page.getByText('CE hours adjusted successfully!')).toBeVisible();
  await expect(current.getByTestId('figure-completed')).toHaveText('5');
  await expect(current.getByTestId('ce-hours-label')).toHaveText('5 of 10 hours');
  await expect(current.getByRole('table', { name: 'Adjustments' })).toContainText('Out-of-state course credited');
  await expect(current.getByRole('table', { name: 'Adjustments' })).toContainText('+2');

  const downloading = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^transcript_${number}_\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv).toContain(course.course_name);
  expect(csv).toContain('Out-of-state course credited');

  await drawer.getByRole('button', { name: 'Close transcript' }).click();
  await expect(drawer).toBeHidden();
  await expect(row(page, number).getByTestId('ce-progress')).toHaveText('5 / 10 hrs');

  // The Agent reaches the same drawer from its dashboard, read-only.
  const agentPage = await page.context().browser()!.newPage();
  await signIn(agentPage, 'agent');
  const card = agentPage.getByTestId('ce-progress');
  await card.getByRole('button', { name: `View transcript of license ${number}` }).click();
  const agentDrawer = agentPage.getByRole('dialog', { name: 'CE Transcript' });
  await expect(agentDrawer.getByTestId('ce-hours-label').first()).toHaveText('5 of 10 hours');
  await expect(agentDrawer.getByRole('form', { name: 'Adjust CE Hours' })).toHaveCount(0);
  await agentPage.close();
});

test('an Admin creates, edits and deletes a state CE rule; others read the rules', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  // NV is this test's alone: start clean if an earlier run (--repeat-each) left its rule.
  for (const r of await admin.get<Array<{ rule_id: number; state: string }>>('/api/ce-rules')) {
    if (r.state === 'NV') await admin.delete(`/api/ce-rules/${r.rule_id}`);
  }

  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'CE Rules' }).click();
  await expect(page.getByRole('heading', { name: 'State CE Rules' })).toBeVisible();
  await expect(page.getByText("Seeded from the state's published requirements")).toBeVisible();

  await page.getByRole('button', { name: 'Add CE Rule' }).click();
  const modal = page.getByRole('dialog', { name: 'Add CE Rule' });
  await modal.getByRole('combobox', { name: 'State' }).fill('NV');
  await page.getByRole('option', { name: 'NV', exact: true }).click();
  await modal.getByLabel(/^Hours per cycle/).fill('24');
  await modal.getByLabel(/^Cycle length/).fill('4');
  await modal.getByRole('button', { name: 'Add topic' }).click();
  await modal.getByRole('button', { name: 'Create Rule' }).click();
  await expect(modal.getByText('Choose a topic')).toBeVisible();
  await modal.getByRole('combobox', { name: 'Topic 1' }).click();
  await page.getByRole('option', { name: 'Ethics', exact: true }).click();
  await modal.getByLabel('Hours of topic 1').fill('30');
  await modal.getByRole('button', { name: 'Create Rule' }).click();
  await expect(modal.getByText("The topics' hours cannot exceed the hours required per cycle")).toBeVisible();
  await modal.getByLabel('Hours of topic 1').fill('3');
  await modal.getByRole('button', { name: 'Add topic' }).click();
  await modal.getByRole('combobox', { name: 'Topic 2' }).click();
  // A topic already chosen is not offered twice.
  await expect(page.getByRole('option', { name: 'Ethics', exact: true })).toHaveCount(0);
  await page.getByRole('option', { name: 'Fair Housing', exact: true }).click();
  await modal.getByLabel('Hours of topic 2').fill('2');
  await modal.getByRole('button', { name: 'Create Rule' }).click();
  await expect(page.getByText('CE rule created successfully!')).toBeVisible();
  await expect(modal).toBeHidden();

  const r = row(page, 'NV');
  await expect(r).toContainText('Sales');
  await expect(r).toContainText('24');
  await expect(r).toContainText('4 years');
  await expect(r).toContainText('Ethics: 3 h');
  await expect(r).toContainText('Fair Housing: 2 h');

  await r.getByRole('button', { name: 'Actions for the NV Sales rule' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit CE Rule' });
  await expect(edit.getByRole('combobox', { name: 'Topic 2' })).toHaveValue('Fair Housing');
  await edit.getByRole('button', { name: 'Remove topic 2 (Fair Housing)' }).click();
  await edit.getByRole('button', { name: 'Update Rule' }).click();
  await expect(page.getByText('CE rule updated successfully!')).toBeVisible();
  await expect(r).not.toContainText('Fair Housing');

  // Everyone signed in may read the rules; only the Admin changes them.
  const agentPage = await page.context().browser()!.newPage();
  await signIn(agentPage, 'agent');
  await expect(agentPage.getByRole('link', { name: 'CE Rules' })).toHaveCount(0);
  await agentPage.goto('/ce-rules');
  await expect(row(agentPage, 'NV')).toContainText('Ethics: 3 h');
  await expect(agentPage.getByRole('button', { name: 'Add CE Rule' })).toHaveCount(0);
  await expect(agentPage.getByRole('button', { name: /Actions for the/ })).toHaveCount(0);
  await agentPage.close();

  await r.getByRole('button', { name: 'Actions for the NV Sales rule' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page
    .getByRole('dialog')
    .filter({ hasText: 'Are you sure you want to delete this CE rule?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('CE rule deleted successfully!')).toBeVisible();
  await expect(row(page, 'NV')).toHaveCount(0);
});

test('a course carries an optional CE topic, shown in the courses table', async ({ page }) => {
  const name = `Fair Housing Now ${uid()}`;
  await signIn(page, 'admin', '/courses');
  await page.getByRole('button', { name: 'Add New Course' }).click();
  const modal = page.getByRole('dialog', { name: 'Add New Course' });
  await modal.getByLabel(/^Course Name/).fill(name);
  await modal.getByLabel(/^Description/).fill('The fair housing rules');
  await modal.getByLabel(/^Provider/).fill('E2E Academy');
  await modal.getByLabel(/^CE Hours/).fill('3');
  await modal.getByRole('combobox', { name: 'CE Topic' }).click();
  await page.getByRole('option', { name: 'Fair Housing', exact: true }).click();
  await modal.getByRole('button', { name: 'Create Course' }).click();
  await expect(page.getByText('Course created successfully!')).toBeVisible();

  await page.goto(`/courses?search=${encodeURIComponent(name)}`);
  const r = row(page, name);
  await expect(r).toContainText('Fair Housing');

  // The topic is optional: clearing it makes the course count as general hours.
  await r.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Course' });
  await expect(edit.getByRole('combobox', { name: 'CE Topic' })).toHaveValue('Fair Housing');
  // Choosing the selected topic again clears it (the clear button is for the mouse only).
  await edit.getByRole('combobox', { name: 'CE Topic' }).click();
  await page.getByRole('option', { name: 'Fair Housing', exact: true }).click();
  await expect(edit.getByRole('combobox', { name: 'CE Topic' })).toHaveValue('');
  await edit.getByRole('button', { name: 'Update Course' }).click();
  await expect(page.getByText('Course updated successfully!')).toBeVisible();
  await expect(r).toContainText('General');
});
