import { expect, test, type APIRequestContext } from '@playwright/test';
import { addDays, addYears, localDateString } from '@lm/shared';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createLicense, createUser, myId, uid } from './fixtures/data.ts';
import { atPhoneWidth, card, expectInView, phoneShot } from './fixtures/phone.ts';
import { pick, row, searchPick } from './fixtures/ui.ts';
import { shown } from './fixtures/dates.ts';

const TODAY = localDateString();

/** The seeded Agent's id, and a license for someone created by the Admin. */
async function agentId(request: APIRequestContext): Promise<number> {
  return myId(await apiAs(request, 'agent'));
}
async function createLicenseFor(request: APIRequestContext, fields: { user_id: number } & Record<string, unknown>) {
  return createLicense(await apiAs(request, 'admin'), fields);
}

// Several steps per test on a shared 2-core machine: allow more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

test('Admin adds, renews, edits and deletes a license, with the spec texts', async ({ page }) => {
  await signIn(page, 'admin', '/licenses');
  await expect(page.getByRole('heading', { name: 'License Management' })).toBeVisible({ timeout: 20_000 });

  await page.getByRole('button', { name: 'Add License' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New License' });
  await expect(dialog).toBeVisible();
  // Defaults: Sales, Active, CE hours 0.
  await expect(dialog.getByRole('combobox', { name: 'License Type' })).toHaveValue('Sales');
  await expect(dialog.getByRole('combobox', { name: 'Status' })).toHaveValue('Active');
  await expect(dialog.getByLabel('CE Hours Required')).toHaveValue('0');
  await expect(dialog.getByLabel('CE Hours Completed')).toHaveValue('0');

  await dialog.getByRole('button', { name: 'Create License' }).click();
  for (const message of [
    'User is required',
    'License number is required',
    'State is required',
    'Issue date is required',
    'Expiration date is required',
  ]) {
    await expect(dialog.getByText(message)).toBeVisible();
  }

  // The holder select searches the server as one types; it lists only Agents and Brokers, as 'first last (role)'.
  const holder = dialog.getByRole('combobox', { name: /^License Holder/ });
  await holder.click();
  await holder.fill('Bruno Bro');
  await expect(page.getByRole('option', { name: 'Bruno Broker (Broker)' })).toBeVisible();
  for (const other of ['Sam School', 'Ada Admin']) {
    await holder.fill(other);
    await expect(page.getByText('No Agents or Brokers found')).toBeVisible();
  }
  await holder.fill('Alice Ag');
  await page.getByRole('option', { name: 'Alice Agent (Agent)' }).click();

  const number = `E2E-${uid()}`;
  await dialog.getByLabel(/^License Number/).fill(number);
  await pick(page, /^State/, 'TX');
  await dialog.getByLabel(/^Issue Date/).fill('2025-01-10');
  const expiration = addDays(TODAY, 20);
  await dialog.getByLabel(/^Expiration Date/).fill(expiration);
  await dialog.getByRole('button', { name: 'Create License' }).click();
  await expect(page.getByText('License created successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.getByLabel('Search').fill(number);
  await expect(page).toHaveURL(new RegExp(`search=${number}`));
  const r = row(page, number);
  await expect(r).toHaveCount(1);
  await expect(r).toContainText('Alice Agent');
  await expect(r).toContainText('TX');
  await expect(r.getByTestId('expiry-badge')).toHaveText('20 days');
  await expect(r.getByTestId('expiry-badge')).toHaveAttribute('data-color', 'yellow');
  await expect(r.getByTestId('ce-progress')).toHaveText('0 / 0 hrs');

  // Renew asks first (e2e/ce.spec.ts covers the CE paths): Active, two years after the current expiration.
  await r.getByRole('button', { name: `Actions for license ${number}` }).click();
  await page.getByRole('menuitem', { name: 'Renew' }).click();
  const renew = page.getByRole('dialog', { name: `Renew License ${number}` });
  await expect(renew.getByTestId('renew-new-expiration')).toHaveText(shown(addYears(expiration, 2)));
  await renew.getByRole('button', { name: 'Renew', exact: true }).click();
  await expect(page.getByText('License renewed successfully!')).toBeVisible();
  await expect(r).toContainText(shown(addYears(expiration, 2)));
  await expect(r.getByTestId('expiry-badge')).toHaveAttribute('data-color', 'green');

  // Edit.
  await r.getByRole('button', { name: `Actions for license ${number}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit License' });
  await expect(edit.getByLabel(/^License Number/)).toHaveValue(number);
  await edit.getByLabel('CE Hours Required').fill('10');
  await edit.getByLabel('CE Hours Completed').fill('4.5');
  await pick(page, /^Status/, 'Suspended');
  await edit.getByRole('button', { name: 'Update License' }).click();
  await expect(page.getByText('License updated successfully!')).toBeVisible();
  await expect(r.getByTestId('ce-progress')).toHaveText('4.5 / 10 hrs');
  await expect(r).toContainText('Suspended');

  // Delete, with its confirm.
  await r.getByRole('button', { name: `Actions for license ${number}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirmDialog = page.getByRole('dialog').filter({ hasText: 'Are you sure you want to delete this license?' });
  await confirmDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('License deleted successfully!')).toBeVisible();
  await expect(row(page, number)).toHaveCount(0);
  await expect(page.getByText('No licenses found')).toBeVisible();
});

test('a duplicate number in the same state shows the server error; a bad date order shows its message', async ({ page, request }) => {
  const agentUserId = await agentId(request);
  const number = `DUP-${uid()}`;
  await createLicenseFor(request, {
    user_id: agentUserId,
    license_number: number,
    state: 'FL',
    issue_date: '2025-01-01',
    expiration_date: '2027-01-01',
  });
  await signIn(page, 'broker', '/licenses');
  await page.getByRole('button', { name: 'Add License' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New License' });
  await searchPick(page, /^License Holder/, 'Alice', 'Alice Agent (Agent)');
  await dialog.getByLabel(/^License Number/).fill(number.toLowerCase());
  await pick(page, /^State/, 'FL');
  await dialog.getByLabel(/^Issue Date/).fill('2027-05-01');
  await dialog.getByLabel(/^Expiration Date/).fill('2027-04-01');
  await dialog.getByRole('button', { name: 'Create License' }).click();
  await expect(dialog.getByText('Issue date cannot be after the expiration date')).toBeVisible();
  await dialog.getByLabel(/^Issue Date/).fill('2025-05-01');
  await dialog.getByRole('button', { name: 'Create License' }).click();
  await expect(page.getByText(`License number ${number.toLowerCase()} already exists in FL`)).toBeVisible();
  await expect(dialog).toBeVisible();
});

test('filters, sort and page live in the URL and survive a reload; badges show every band', async ({ page, request }) => {
  const agentUserId = await agentId(request);
  const tag = `BAND${uid()}`;
  const bands: Array<[string, number, string, string]> = [
    ['X', -3, 'Expired', 'red'],
    ['S', 12, '12 days', 'yellow'],
    ['M', 45, '45 days', 'blue'],
    ['L', 200, '6 months', 'green'],
  ];
  for (const [suffix, days] of bands) {
    await createLicenseFor(request, {
      user_id: agentUserId,
      license_number: `${tag}-${suffix}`,
      state: 'NY',
      issue_date: '2024-01-01',
      expiration_date: addDays(TODAY, days),
      status: days < 0 ? 'Expired' : 'Active',
    });
  }
  await signIn(page, 'admin', `/licenses?search=${tag}`);
  for (const [suffix, , label, color] of bands) {
    const badge = row(page, `${tag}-${suffix}`).getByTestId('expiry-badge');
    await expect(badge).toHaveText(label, { timeout: 20_000 });
    await expect(badge).toHaveAttribute('data-color', color);
  }

  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Expired', exact: true }).click();
  await expect(page).toHaveURL(/status=Expired/);
  await expect(page.getByRole('row').filter({ hasText: tag })).toHaveCount(1);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('Expired');
  await expect(page.getByRole('row').filter({ hasText: tag })).toHaveCount(1);
  await page.goto(`/licenses?search=${tag}&expiring=30`);
  await expect(page.getByRole('row').filter({ hasText: tag })).toHaveText([new RegExp(`${tag}-S`)]);
  await page.goto(`/licenses?search=${tag}&sort=license_number&order=desc&limit=10`);
  await expect(page.getByRole('row').filter({ hasText: tag }).first()).toContainText(`${tag}-X`);
  await page.getByRole('button', { name: 'License Number Sorted descending' }).click();
  await expect(page).toHaveURL(/sort=license_number/);
  await expect(page).not.toHaveURL(/order=desc/);
  await expect(page.getByRole('row').filter({ hasText: tag }).first()).toContainText(`${tag}-L`);
});

test('an Agent sees its own licenses read-only; a School is told it has no access', async ({ page, request, browser }) => {
  const agentUserId = await agentId(request);
  const number = `AGT-${uid()}`;
  await createLicenseFor(request, {
    user_id: agentUserId,
    license_number: number,
    state: 'CA',
    issue_date: '2025-01-01',
    expiration_date: addDays(TODAY, 100),
    ce_hours_required: 45,
    ce_hours_completed: 9,
  });
  // Narrowed to this license (the seeded Agent has many, other specs add more at any time).
  await signIn(page, 'agent', `/licenses?search=${number}`);
  const r = row(page, number);
  // The first load of the screen on a busy machine: as the other tests here allow.
  await expect(r).toContainText('Alice Agent', { timeout: 20_000 });
  await expect(r.getByTestId('ce-progress')).toHaveText('9 / 45 hrs');
  await expect(page.getByRole('button', { name: 'Add License' })).toHaveCount(0);
  await expect(r.getByRole('button', { name: /Actions for license/ })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);

  const school = await browser.newPage();
  await signIn(school, 'school', '/licenses');
  await expect(school.getByText('Access denied. Licenses are available to Admins, Brokers and Agents.')).toBeVisible();
  await school.close();
});

test('at phone width an Admin renews a license from the list, its actions in view', async ({ page, request }, testInfo) => {
  const number = `PHONE-${uid()}`;
  const expiration = addDays(TODAY, 20);
  await createLicenseFor(request, {
    user_id: await agentId(request),
    license_number: number,
    state: 'TX',
    issue_date: '2025-01-01',
    expiration_date: expiration,
  });
  await atPhoneWidth(page);
  await signIn(page, 'admin', `/licenses?search=${number}`);
  // Below 600 px the list's rows are cards.
  const r = card(page, number);
  await expect(r).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByText('Showing 1 to 1 of 1 licenses')).toBeVisible();
  await phoneShot(page, testInfo, 'licenses-list');

  const actions = r.getByRole('button', { name: `Actions for license ${number}` });
  await expectInView(actions);
  await actions.click();
  await page.getByRole('menuitem', { name: 'Renew' }).click();
  const renew = page.getByRole('dialog', { name: `Renew License ${number}` });
  await expect(renew.getByTestId('renew-new-expiration')).toHaveText(shown(addYears(expiration, 2)));
  const confirmRenew = renew.getByRole('button', { name: 'Renew', exact: true });
  await expectInView(confirmRenew);
  await phoneShot(page, testInfo, 'licenses-renew');
  await confirmRenew.click();
  await expect(page.getByText('License renewed successfully!')).toBeVisible();
  await expect(renew).toBeHidden();
  await expect(r).toContainText(shown(addYears(expiration, 2)));
  await expect(r.getByTestId('expiry-badge')).toHaveAttribute('data-color', 'green');
  await phoneShot(page, testInfo, 'licenses-renewed');
});

test('the holder picker finds by typing a holder beyond its first 20', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  const tag = uid();
  // Twenty holders whose names come first, so the one below is not on the picker's first page.
  for (let i = 0; i < 20; i++)
    await createUser(admin, 'Agent', { first_name: 'Early', last_name: `A0${tag}${String(i).padStart(2, '0')}` });
  const late = await createUser(admin, 'Agent', { first_name: 'Late', last_name: `Zz${tag}` });
  await signIn(page, 'admin', '/licenses');
  await page.getByRole('button', { name: 'Add License' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New License' });
  const holder = dialog.getByRole('combobox', { name: /^License Holder/ });
  await holder.click();
  await expect(page.getByRole('option')).toHaveCount(20);
  await expect(page.getByRole('option', { name: `Late ${late.last_name} (Agent)` })).toHaveCount(0);
  await holder.fill(`zz${tag}`);
  await page.getByRole('option', { name: `Late ${late.last_name} (Agent)` }).click();
  await expect(holder).toHaveValue(`Late ${late.last_name} (Agent)`);
});
