import { expect, test, type Page } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { signIn, submitLogin, accountOf } from './fixtures/auth.ts';
import { createLicense, myId, uid } from './fixtures/data.ts';

// Issue #27 "Nothing lost" and "Server trouble" (docs/decisions.md): unsaved work asks before it is thrown away, an
// ended session says so and comes back to the page, and a stopped server leaves the data on screen with a banner.
test.describe.configure({ timeout: 90_000 });

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
const discardDialog = (page: Page) => page.getByRole('dialog', { name: 'Discard unsaved changes?' });

test('leaving Settings with unsaved edits asks first; the draft survives a reload until discarded', async ({ page }) => {
  await signIn(page, 'admin', '/settings');
  const description = page.getByLabel(/^App Description/);
  const text = `Unsaved description ${uid()}`;
  await description.fill(text);

  // Another sidebar entry: the question, and Cancel keeps the page and what was typed.
  await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(discardDialog(page)).toBeVisible();
  await discardDialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(discardDialog(page)).toHaveCount(0);
  await expect(page).toHaveURL(/\/settings$/);
  await expect(description).toHaveValue(text);

  // Closing or reloading the tab gets the browser's own question; once reloaded, the draft is back.
  let asked = false;
  page.once('dialog', (dialog) => {
    asked = dialog.type() === 'beforeunload';
    void dialog.accept();
  });
  await page.reload();
  expect(asked).toBe(true);
  await expect(page.getByTestId('draft-restored')).toBeVisible({ timeout: 20_000 });
  await expect(description).toHaveValue(text);

  // Leaving and choosing to discard: the dashboard, and the draft is gone.
  await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
  await discardDialog(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByLabel(/^App Name/)).not.toHaveValue('');
  await expect(description).not.toHaveValue(text);
  await expect(page.getByTestId('draft-restored')).toHaveCount(0);

  // Nothing typed: leaving does not ask.
  await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(discardDialog(page)).toHaveCount(0);
});

test('Escape on a filled form asks before closing it; on an empty one it just closes', async ({ page }) => {
  await signIn(page, 'admin', '/brokerages');
  const add = page.getByRole('button', { name: 'Add Brokerage' });
  const form = page.getByRole('dialog', { name: 'Add New Brokerage' });

  await add.click();
  await expect(form).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
  await expect(discardDialog(page)).toHaveCount(0);

  await add.click();
  const name = form.getByLabel(/^Name/);
  await name.fill(`Half-typed ${uid()}`);
  await page.keyboard.press('Escape');
  await expect(discardDialog(page)).toBeVisible();
  await discardDialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(discardDialog(page)).toHaveCount(0);
  await expect(name).not.toHaveValue('');

  await name.focus();
  await page.keyboard.press('Escape');
  await discardDialog(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(form).toHaveCount(0);
});

test('an ended session says so on the sign-in page and comes back to the page after signing in', async ({ page, request }) => {
  const number = `NL-${uid()}`;
  await createLicense(await apiAs(request, 'admin'), { user_id: await myId(await apiAs(request, 'agent')), license_number: number });
  await signIn(page, 'admin', '/licenses');
  await page.getByLabel('Search').fill(number);
  await expect(page.getByText('Showing 1 to 1 of 1 licenses')).toBeVisible();

  // The session ends on the server (as after the idle timeout, or revoked elsewhere) while the list is open.
  const token = await page.evaluate(() => localStorage.getItem('lm.token'));
  const revoked = await page.request.post('/api/auth/logout', { headers: { authorization: `Bearer ${token}` } });
  expect(revoked.ok()).toBe(true);

  // The next call answers 401 (here: the list refreshing as the laptop comes back online): the sign-in page, with
  // the reason.
  await page.context().setOffline(true);
  await page.context().setOffline(false);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('session-expired')).toHaveText('Your session has expired. Please sign in again.');

  // Signing in again returns to the list as it was (its search in the address).
  const { email, password } = accountOf('admin');
  await submitLogin(page, email, password);
  await expect(page).toHaveURL(new RegExp(`/licenses\\?.*${number}`));
  await expect(page.getByRole('row').filter({ hasText: number })).toHaveCount(1);
  await expect(page.getByTestId('session-expired')).toHaveCount(0);
});

test('a stopped server keeps the list on screen with a banner, and it recovers by itself', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  const agentId = await myId(await apiAs(request, 'agent'));
  const prefix = `SRV-${uid()}`;
  await createLicense(admin, { user_id: agentId, license_number: `${prefix}-A` });
  await signIn(page, 'admin', '/licenses');
  await page.getByLabel('Search').fill(prefix);
  await expect(page.getByText('Showing 1 to 1 of 1 licenses')).toBeVisible();
  const rows = page.getByRole('row').filter({ hasText: prefix });
  await expect(rows).toHaveCount(1);

  // Away and back while the server cannot be reached: the list fetches again and fails.
  // Wait for the dashboard itself, not only its address: the router keeps the list mounted until the dashboard's
  // code has loaded, and going back before that would never leave the list (nothing to fetch again).
  await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome back/ })).toBeVisible();
  await expect(rows).toHaveCount(0);
  await page.route('**/trpc/**', (r) => r.abort('connectionrefused'));
  await page.goBack();

  const banner = page.getByTestId('server-trouble');
  await expect(banner).toContainText(/Can't reach the server — showing data from .+; retrying/, { timeout: 20_000 });
  await expect(rows).toHaveCount(1);
  await expect(page.getByText('Error loading licenses')).toHaveCount(0);

  // Meanwhile someone adds a license; once the server answers again the banner goes and the list refreshes itself.
  await createLicense(admin, { user_id: agentId, license_number: `${prefix}-B` });
  await page.unroute('**/trpc/**');
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  await expect(rows).toHaveCount(2);
});
