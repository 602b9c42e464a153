import { expect, test, type Locator, type Page } from '@playwright/test';
import { uid } from './fixtures/data.ts';
import { E2E_PASSWORD, E2E_USERS } from './fixtures/users.ts';
import { shown } from './fixtures/dates.ts';

/** Keyboard alone: sign-in, then a license created, edited and deleted, with the focus where a person expects it. */

test.describe.configure({ timeout: 120_000 });

const focused = (page: Page) => page.locator(':focus');

/** Presses Tab (or Shift+Tab) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}

/** Presses ArrowDown in an open menu until the item named `name` has the focus, then Enter. */
/**
 * Chooses `option` of the open Select with ArrowDown and Enter, as a person does once the option is highlighted. An
 * Enter that reaches Mantine's Select while it is still settling its highlight (seen on a busy 2-core machine: the
 * option shows as highlighted, the Enter submits the form instead) is pressed again, as the person would on seeing
 * the field still empty; the list is opened again with ArrowDown if it closed.
 */
async function chooseOption(page: Page, option: Locator, field: Locator, value: string) {
  await expect(option).toBeVisible();
  await expect(async () => {
    if (!(await option.isVisible())) await page.keyboard.press('ArrowDown');
    if ((await option.getAttribute('data-combobox-selected')) !== 'true') await page.keyboard.press('ArrowDown');
    await expect(option).toHaveAttribute('data-combobox-selected', 'true', { timeout: 2_000 });
    await page.keyboard.press('Enter');
    await expect(field).toHaveValue(value, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await expect(option).toBeHidden();
}

async function chooseMenuItem(page: Page, name: string) {
  const item = page.getByRole('menuitem', { name });
  await expect(item).toBeVisible();
  for (let i = 0; i < 6 && !(await item.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');
}

test('sign-in, then a license created, edited and deleted with the keyboard alone', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/^Sign in · /);

  // Sign in: Tab to Email, type, Tab to Password, type, Enter.
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(E2E_USERS.admin.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel(/^Password/)).toBeFocused();
  await page.keyboard.type(E2E_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Welcome back, ${E2E_USERS.admin.first_name}!`)).toBeVisible();
  await expect(page).toHaveTitle(/^Dashboard · /);
  // Signed in, the focus is on the page's heading (not lost to <body>).
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();

  // The skip link is the page's first stop and moves the focus to the page.
  await tabTo(page, page.getByRole('link', { name: 'Skip to main content' }), { back: true });
  await expect(focused(page)).toHaveText('Skip to main content');
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  // To Licenses through the sidebar.
  // (The dashboard's stat cards link to the list too: the sidebar's entry is the one named exactly so.)
  const navLink = page.getByRole('link', { name: 'Licenses', exact: true });
  await tabTo(page, navLink, { back: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'License Management' })).toBeVisible({ timeout: 20_000 });
  // A move to another page puts the focus on its heading.
  await expect(page.getByRole('heading', { level: 1, name: 'License Management' })).toBeFocused();
  await expect(navLink).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveTitle(/^Licenses · /);

  // Create: the dialog opens on its first field.
  const add = page.getByRole('button', { name: 'Add License' });
  await tabTo(page, add);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add New License' });
  await expect(dialog.getByRole('combobox', { name: /^License Holder/ })).toBeFocused();
  await page.keyboard.type('Alice');
  // The holders load with the dialog: choose once the option is listed (a slow machine may still be loading them).
  const alice = page.getByRole('option', { name: 'Alice Agent (Agent)' });
  await chooseOption(page, alice, dialog.getByRole('combobox', { name: /^License Holder/ }), 'Alice Agent (Agent)');
  const number = `KB-${uid()}`;
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel(/^License Number/)).toBeFocused();
  await page.keyboard.type(number);
  await page.keyboard.press('Tab');
  await page.keyboard.type('TX');
  // Choose once the option is listed: an Enter before the list opens submits the form instead (and the field's
  // text 'TX' would then be only what was typed, emptied when the field loses the focus).
  const tx = page.getByRole('option', { name: 'TX', exact: true });
  const stateField = dialog.getByRole('combobox', { name: /^State/ });
  await chooseOption(page, tx, stateField, 'TX');
  await tabTo(page, dialog.getByLabel(/^Issue Date/));
  // Still TX once it has lost the focus: it was chosen, not only typed.
  await expect(stateField).toHaveValue('TX');
  // A date is typed in the office's format (Settings › General).
  await page.keyboard.type(shown('2025-01-10'));
  await expect(dialog.getByLabel(/^Issue Date/)).toHaveValue(shown('2025-01-10'));
  await tabTo(page, dialog.getByLabel(/^Expiration Date/));
  await page.keyboard.type(shown('2028-01-10'));
  await expect(dialog.getByLabel(/^Expiration Date/)).toHaveValue(shown('2028-01-10'));
  await tabTo(page, dialog.getByRole('button', { name: 'Create License' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('License created successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();
  // Back on the button that opened it.
  await expect(add).toBeFocused();

  // Find it.
  await tabTo(page, page.getByLabel('Search'), { back: true });
  await page.keyboard.type(number);
  const row = page.getByRole('row').filter({ hasText: number });
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('row')).toHaveCount(2);
  const actions = row.getByRole('button', { name: `Actions for license ${number}` });

  // Edit from the row menu: the dialog opens on a field; after Update the focus is back on the row's button.
  await tabTo(page, actions);
  await page.keyboard.press('Enter');
  await chooseMenuItem(page, 'Edit');
  const edit = page.getByRole('dialog', { name: 'Edit License' });
  await expect(edit).toBeVisible();
  await expect(edit.getByRole('combobox', { name: /^License Holder/ })).toBeFocused();
  await tabTo(page, edit.getByLabel('CE Hours Completed'));
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('3');
  await tabTo(page, edit.getByRole('button', { name: 'Update License' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('License updated successfully!')).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(row.getByTestId('ce-progress')).toHaveText('3 / 0 hrs');
  await expect(actions).toBeFocused();

  // Delete: the confirm opens on Cancel; Escape keeps the row and the focus on its button.
  await page.keyboard.press('Enter');
  await chooseMenuItem(page, 'Delete');
  const confirm = page.getByRole('dialog').filter({ hasText: 'Are you sure you want to delete this license?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(actions).toBeFocused();

  // Delete for real: the row is gone and the focus is on the (now empty) table, not lost to <body>.
  await page.keyboard.press('Enter');
  await chooseMenuItem(page, 'Delete');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('License deleted successfully!')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(page.locator('table')).toBeFocused();
});
