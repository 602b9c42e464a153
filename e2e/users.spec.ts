import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { RoleName } from '@lm/shared';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createLicense, createUser, e2eBrokerageId, uid } from './fixtures/data.ts';
import { atPhoneWidth, cards, expectInView, phoneShot } from './fixtures/phone.ts';
import { E2E_BROKERAGE } from './fixtures/users.ts';
import { rows, searchList } from './fixtures/ui.ts';

const search = (page: Page, text: string) => searchList(page, 'Search users', text);

// The machines running this suite are shared and busy: give server answers more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

/** `count` users named Bulk <tag><i> (e-mail <tag>.<i>@e2e.test), Agents unless told; returns their ids. */
async function createUsers(
  request: APIRequestContext,
  tag: string,
  count: number,
  fields: Record<string, unknown> = {},
  role: RoleName = 'Agent',
) {
  const admin = await apiAs(request, 'admin');
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const user = await createUser(admin, role, {
      email: `${tag.toLowerCase()}.${i}@e2e.test`,
      password: 'Str0ngPassword',
      first_name: 'Bulk',
      last_name: `${tag}${i}`,
      ...fields,
    });
    ids.push(user.user_id);
  }
  return ids;
}

test('Admin adds a user: form messages, success toast, then edits and deletes it', async ({ page }) => {
  test.slow();
  const tag = `Add${uid()}`;
  await signIn(page, 'admin', '/users');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible({ timeout: 20_000 });

  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await expect(dialog.getByLabel('Role')).toHaveValue('Broker');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  for (const message of ['Email is required', 'First name is required', 'Last name is required', 'Password is required']) {
    await expect(dialog.getByText(message)).toBeVisible();
  }
  // Editing a field clears its error.
  await dialog.getByLabel(/^First Name/).fill('Quinn');
  await expect(dialog.getByText('First name is required')).toBeHidden();
  await dialog.getByLabel(/^Last Name/).fill(tag);
  await dialog.getByLabel(/^Email/).fill(`${tag.toLowerCase()}@e2e.test`);
  await dialog.getByLabel(/^Password/).fill('weakpassword');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(page.getByText('Password must contain uppercase, lowercase and numbers').first()).toBeVisible();
  await dialog.getByLabel(/^Password/).fill('Str0ngPassword');
  await dialog.getByLabel('Role').click();
  await page.getByRole('option', { name: 'Agent', exact: true }).click();
  await dialog.getByLabel('Brokerage').fill(E2E_BROKERAGE);
  await page.getByRole('option', { name: E2E_BROKERAGE }).click();
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(page.getByText('User created successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();

  await search(page, tag);
  await expect(rows(page)).toHaveCount(1);
  const row = rows(page).first();
  await expect(row).toContainText(`Quinn ${tag}`);
  await expect(row).toContainText(E2E_BROKERAGE);
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Never');
  await expect(row.locator('[data-role="Agent"]')).toHaveText('Agent');

  // Edit with a blank password: the current one is kept.
  await row.getByRole('button', { name: `Edit Quinn ${tag}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await expect(edit.getByLabel(/^Email/)).toHaveValue(`${tag.toLowerCase()}@e2e.test`);
  await expect(edit.getByLabel(/^Password/)).toHaveValue('');
  await edit.getByLabel(/^First Name/).fill('Quincy');
  await edit.getByRole('button', { name: 'Update User' }).click();
  await expect(page.getByText('User updated successfully!')).toBeVisible();
  await expect(rows(page).first()).toContainText(`Quincy ${tag}`);

  await rows(page)
    .first()
    .getByRole('button', { name: `Delete Quincy ${tag}` })
    .click();
  const confirmDialog = page.getByRole('dialog');
  await expect(confirmDialog.getByText('Are you sure you want to delete this user?')).toBeVisible();
  await confirmDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('User deleted successfully!')).toBeVisible();
  await expect(page.getByText('No users found')).toBeVisible();
});

test('a duplicate email shows the server text in a toast and keeps the modal open', async ({ page, request }) => {
  const tag = `Dup${uid()}`;
  await createUsers(request, tag, 1);
  await signIn(page, 'admin', '/users');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await dialog.getByLabel(/^First Name/).fill('Dee');
  await dialog.getByLabel(/^Last Name/).fill('Duplicate');
  await dialog.getByLabel(/^Email/).fill(`${tag.toLowerCase()}.0@E2E.test`);
  await dialog.getByLabel(/^Password/).fill('Str0ngPassword');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(page.getByText('A user with this email already exists')).toBeVisible();
  await expect(dialog).toBeVisible();
});

test('search, filters, sort and page live in the URL and survive a reload', async ({ page, request }) => {
  test.slow();
  const tag = `Url${uid()}`;
  await createUsers(request, tag, 3);
  await createUsers(request, `${tag}B`, 1, {}, 'Broker');
  await signIn(page, 'admin', '/users');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible({ timeout: 20_000 });
  await search(page, tag);
  await expect(rows(page)).toHaveCount(4);

  await page.getByRole('combobox', { name: 'Filter by role' }).click();
  await page.getByRole('option', { name: 'Broker' }).click();
  await expect(page).toHaveURL(/role=Broker/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(`${tag}B0`);
  await expect(rows(page).first().locator('[data-role="Broker"]')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Search users')).toHaveValue(tag);
  await expect(rows(page)).toHaveCount(1);
  await page.getByRole('combobox', { name: 'Filter by role' }).click();
  await page.getByRole('option', { name: 'Agent' }).click();
  await expect(rows(page)).toHaveCount(3);

  // Sort by name, descending, through the column header.
  await page.getByRole('button', { name: /^Name Sorted/ }).click();
  await expect(page).toHaveURL(/order=desc/);
  await expect(rows(page).first()).toContainText(`${tag}2`);
  await page.reload();
  await expect(rows(page).first()).toContainText(`${tag}2`);

  await page.getByRole('combobox', { name: 'Filter by status' }).click();
  await page.getByRole('option', { name: 'Inactive' }).click();
  await expect(page.getByText('No users found')).toBeVisible();
});

test('bulk menu: select first, deactivate, change role, change brokerage to none, delete', async ({ page, request }) => {
  test.slow();
  const tag = `Bulk${uid()}`;
  await createUsers(request, tag, 3);
  await signIn(page, 'admin', '/users');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible({ timeout: 20_000 });
  await search(page, tag);
  await expect(rows(page)).toHaveCount(3);

  await page.getByRole('button', { name: /^Bulk Actions/ }).click();
  await page.getByRole('menuitem', { name: 'Deactivate' }).click();
  await expect(page.getByText('Please select users first')).toBeVisible();

  await page.getByLabel('Select all users').check();
  await expect(page.getByRole('button', { name: 'Bulk Actions (3)' })).toBeVisible();
  await page.getByRole('button', { name: 'Bulk Actions (3)' }).click();
  await page.getByRole('menuitem', { name: 'Deactivate' }).click();
  await expect(page.getByText('Bulk operation completed successfully!')).toBeVisible();
  await expect(rows(page).filter({ hasText: 'Inactive' })).toHaveCount(3);
  // The selection clears after success.
  await expect(page.getByRole('button', { name: 'Bulk Actions', exact: true })).toBeVisible();

  await page.getByLabel(`Select Bulk ${tag}0`).check();
  await page.getByLabel(`Select Bulk ${tag}1`).check();
  await page.getByRole('button', { name: 'Bulk Actions (2)' }).click();
  await page.getByRole('menuitem', { name: 'Change Role' }).click();
  const roleDialog = page.getByRole('dialog', { name: /Change role/ });
  await roleDialog.getByLabel('New role').click();
  await page.getByRole('option', { name: 'School', exact: true }).click();
  await roleDialog.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Bulk operation completed successfully!').first()).toBeVisible();
  await expect(rows(page).locator('[data-role="School"]')).toHaveCount(2);

  await page.getByLabel('Select all users').check();
  await page.getByRole('button', { name: 'Bulk Actions (3)' }).click();
  await page.getByRole('menuitem', { name: 'Change Brokerage' }).click();
  const brokerageDialog = page.getByRole('dialog', { name: /Change brokerage/ });
  await brokerageDialog.getByLabel('New brokerage').fill(E2E_BROKERAGE);
  await page.getByRole('option', { name: E2E_BROKERAGE }).click();
  await brokerageDialog.getByRole('button', { name: 'Apply' }).click();
  await expect(rows(page).filter({ hasText: E2E_BROKERAGE })).toHaveCount(3);
  await page.getByLabel('Select all users').check();
  await page.getByRole('button', { name: 'Bulk Actions (3)' }).click();
  await page.getByRole('menuitem', { name: 'Change Brokerage' }).click();
  await brokerageDialog.getByLabel('New brokerage').click();
  await page.getByRole('option', { name: 'None (unassigned)' }).click();
  await brokerageDialog.getByRole('button', { name: 'Apply' }).click();
  await expect(rows(page).filter({ hasText: E2E_BROKERAGE })).toHaveCount(0);

  await page.getByLabel('Select all users').check();
  await page.getByRole('button', { name: 'Bulk Actions (3)' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const deleteDialog = page.getByRole('dialog', { name: /Delete 3 user/ });
  await expect(deleteDialog.getByTestId('bulk-delete-warning')).toHaveText(
    'This action cannot be undone. All selected users will be permanently deactivated.',
  );
  await deleteDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No users found')).toBeVisible();
});

test('role badges use the spec colours', async ({ page }) => {
  await signIn(page, 'admin');
  const expected = { Admin: 'red', Broker: 'blue', Agent: 'green', School: 'orange' };
  for (const [role, colour] of Object.entries(expected)) {
    await page.goto(`/users?role=${role}`);
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible({ timeout: 20_000 });
    const badge = page.locator(`[data-role="${role}"]`).first();
    await expect(badge).toBeVisible();
    expect(await badge.getAttribute('style')).toContain(colour);
  }
});

test('a Broker sees only its brokerage and adds Agents to it', async ({ page }) => {
  const tag = `Brk${uid()}`;
  await signIn(page, 'broker', '/users');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible({ timeout: 20_000 });
  await expect(rows(page).first()).toBeVisible();
  const brokerages = await rows(page).locator('td:nth-child(5)').allTextContents();
  expect(brokerages.length).toBeGreaterThan(0);
  expect(brokerages.every((b) => b === E2E_BROKERAGE)).toBe(true);
  await expect(page.getByText('admin@e2e.test')).toBeHidden();
  await expect(page.getByRole('combobox', { name: 'Filter by brokerage' })).toBeHidden();

  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await expect(dialog.getByLabel('Role')).toHaveValue('Agent');
  await expect(dialog.getByLabel('Role')).toBeDisabled();
  await expect(dialog.getByLabel('Brokerage')).toHaveValue(E2E_BROKERAGE);
  await dialog.getByLabel(/^First Name/).fill('Ari');
  await dialog.getByLabel(/^Last Name/).fill(tag);
  await dialog.getByLabel(/^Email/).fill(`${tag.toLowerCase()}@e2e.test`);
  await dialog.getByLabel(/^Password/).fill('Str0ngPassword');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(page.getByText('User created successfully!')).toBeVisible();
  await search(page, tag);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(E2E_BROKERAGE);
  await page.getByRole('button', { name: /^Bulk Actions/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Change Role' })).toBeHidden();
});

test('at phone width an Admin finds a user and opens its detail: fields, brokerage and licenses', async ({ page, request }, testInfo) => {
  const tag = `Phone${uid()}`;
  const admin = await apiAs(request, 'admin');
  const [id] = await createUsers(request, tag, 1, {
    brokerage_id: await e2eBrokerageId(admin),
    phone_number: '(555) 010-2000',
    city: 'Tampa',
  });
  await createLicense(admin, {
    user_id: id!,
    license_number: `${tag}-L`,
    state: 'FL',
    issue_date: '2025-01-01',
    expiration_date: '2027-01-01',
  });

  await atPhoneWidth(page);
  await signIn(page, 'admin', '/users');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible({ timeout: 20_000 });
  // Below 600 px the list's rows are cards.
  await expect(cards(page).first()).toBeVisible();
  await phoneShot(page, testInfo, 'users-list');

  await search(page, tag);
  await expect(cards(page)).toHaveCount(1);
  await expect(page.getByText('Showing 1 to 1 of 1 users')).toBeVisible();
  // The card's actions are reachable without swiping.
  await expectInView(
    cards(page)
      .first()
      .getByRole('button', { name: `Edit Bulk ${tag}0` }),
  );

  await cards(page).first().getByText(`Bulk ${tag}0`).click();
  const drawer = page.getByRole('dialog', { name: `Bulk ${tag}0` });
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText(`${tag.toLowerCase()}.0@e2e.test`);
  await expect(drawer).toContainText(E2E_BROKERAGE);
  await expect(drawer).toContainText('(555) 010-2000');
  await expect(drawer).toContainText('Tampa');
  await expect(drawer.locator('[data-role="Agent"]')).toBeVisible();
  await expect(drawer.getByTestId('user-licenses')).toContainText(`${tag}-L`);
  await phoneShot(page, testInfo, 'user-detail');
  await drawer.getByRole('button', { name: 'Close user details' }).click();
  await expect(drawer).toBeHidden();
});
