import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createLicense, myId, uid } from './fixtures/data.ts';

// docs/architecture.md "Client": a failed screen download, a stopped server and a crashing screen each end in a
// message with a way to recover, never a blank page; the header and sidebar stay.
test.describe.configure({ timeout: 90_000 });

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

/** A license of the seeded Agent's with a number of this test's own, so the list has a row to bring back. */
async function seedLicense(request: APIRequestContext): Promise<string> {
  const agentId = await myId(await apiAs(request, 'agent'));
  const license = await createLicense(await apiAs(request, 'admin'), { user_id: agentId, license_number: `RES-${uid()}` });
  return license.license_number;
}

test('a screen whose code fails to download offers a reload, which recovers', async ({ page }) => {
  await signIn(page, 'admin');
  // The server blips (or a redeploy removed the old file) just as the Licenses screen is opened from the app.
  await page.route('**/assets/licenses-page-*.js', (r) => r.abort());
  await sidebar(page).getByRole('link', { name: 'Licenses' }).click();

  const fallback = page.getByTestId('error-fallback');
  await expect(fallback).toContainText('A new version of License Manager is available or the connection dropped');
  await expect(sidebar(page)).toBeVisible();
  const reload = fallback.getByRole('button', { name: 'Reload page' });
  await expect(reload).toBeVisible();

  await page.unroute('**/assets/licenses-page-*.js');
  await reload.click();
  await expect(page.getByRole('heading', { name: 'License Management' })).toBeVisible({ timeout: 20_000 });
  await expect(fallback).toHaveCount(0);
});

test('a stopped server shows the error with Retry and no empty state; Retry brings the rows', async ({ page, request }) => {
  const number = await seedLicense(request);
  await signIn(page, 'admin');
  await page.route('**/trpc/**', (r) => r.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' }));
  await sidebar(page).getByRole('link', { name: 'Licenses' }).click();

  const alert = page.getByRole('alert').filter({ hasText: 'Error loading licenses' });
  await expect(alert).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('No licenses found')).toHaveCount(0);
  await expect(sidebar(page)).toBeVisible();

  await page.unroute('**/trpc/**');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(alert).toHaveCount(0);
  // Other specs add licenses too: narrow the list to this test's one.
  await page.getByLabel('Search').fill(number);
  await expect(page.getByRole('row').filter({ hasText: number })).toHaveCount(1);
});

test('a screen that crashes on what the server sent is contained; another page still works', async ({ page }) => {
  await signIn(page, 'admin');
  // An answer the screen cannot render (not the shape it expects): the render throws.
  await page.route(/\/trpc\/[^?]*licenses\.page/, async (r) => {
    const procs = new URL(r.request().url()).pathname.replace('/trpc/', '').split(',');
    await r.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(procs.map(() => ({ result: { data: { licenses: [null], pagination: null } } }))),
    });
  });
  await sidebar(page).getByRole('link', { name: 'Licenses' }).click();

  const fallback = page.getByTestId('error-fallback');
  await expect(fallback).toContainText('Something went wrong');
  await expect(fallback.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(sidebar(page)).toBeVisible();

  // Moving to another page clears the error.
  await sidebar(page).getByRole('link', { name: 'Courses' }).click();
  await expect(fallback).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Course Management' })).toBeVisible();
});
