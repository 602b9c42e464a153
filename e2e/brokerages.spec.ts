import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, signIn } from './fixtures/auth.ts';
import { E2E_BROKERAGE } from './fixtures/users.ts';

// The machines running this suite are shared and busy: give server answers more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;
const rows = (page: Page) => page.locator('table tbody tr');

async function createBrokerages(request: APIRequestContext, tag: string, count: number) {
  const token = await apiToken(request, 'admin');
  for (let i = 0; i < count; i++) {
    const res = await request.post('/api/brokerages', {
      headers: { authorization: `Bearer ${token}` },
      data: { name: `${tag} Realty ${String(i).padStart(2, '0')}` },
    });
    expect(res.status()).toBe(200);
  }
}

async function search(page: Page, text: string) {
  await page.getByLabel('Search brokerages').fill(text);
  // The search is debounced into the URL; wait until it is there.
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(text.trim());
}

test('Admin adds, finds, edits, views users of and deletes a brokerage', async ({ page }) => {
  test.slow();
  const name = `Harbor ${unique()}`;
  await signIn(page, 'admin');
  await page.goto('/brokerages');
  await expect(page.getByRole('heading', { name: 'Brokerage Management' })).toBeVisible({ timeout: 20_000 });

  await page.getByRole('button', { name: 'Add Brokerage' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Brokerage' });
  await dialog.getByLabel(/^Name/).fill('   ');
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByLabel('Website').fill('harbor.example');
  await dialog.getByRole('button', { name: 'Create Brokerage' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await expect(dialog.getByText('Invalid email address')).toBeVisible();
  await expect(dialog.getByText('Website must start with http:// or https://')).toBeVisible();
  await dialog.getByLabel(/^Name/).fill(name);
  await expect(dialog.getByText('Name is required')).toBeHidden();
  await dialog.getByLabel('Email').fill('office@harbor.example');
  await dialog.getByLabel('Website').fill('https://harbor.example');
  await dialog.getByLabel('Phone').fill('(555) 010-4000');
  await dialog.getByRole('button', { name: 'Create Brokerage' }).click();
  await expect(page.getByText('Brokerage created successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();

  await search(page, name);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('office@harbor.example');
  await expect(rows(page).first()).toContainText('harbor.example');
  await expect(page.getByText('Showing 1 to 1 of 1 entries')).toBeVisible();

  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Brokerage' });
  await expect(edit.getByLabel(/^Name/)).toHaveValue(name);
  await edit.getByLabel('Address').fill('1 Harbor Way, Miami, FL');
  await edit.getByRole('button', { name: 'Update Brokerage' }).click();
  await expect(page.getByText('Brokerage updated successfully!')).toBeVisible();
  await expect(rows(page).first()).toContainText('1 Harbor Way, Miami, FL');

  await page.getByRole('button', { name: `Users of ${name}` }).click();
  const users = page.getByRole('dialog', { name: `Users in ${name}` });
  await expect(users.getByText('No users found for this brokerage.')).toBeVisible();
  await users.getByRole('button').first().click();
  await expect(users).toBeHidden();

  await page.getByRole('button', { name: `Delete ${name}` }).click();
  const confirmDialog = page.getByRole('dialog');
  await expect(confirmDialog.getByText('Are you sure you want to delete this brokerage? This action cannot be undone.')).toBeVisible();
  await confirmDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Brokerage deleted successfully!')).toBeVisible();
  await expect(page.getByText('No brokerages found')).toBeVisible();
});

test('Users in a brokerage lists its people, and agent_count shows', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/brokerages');
  await expect(page.getByRole('heading', { name: 'Brokerage Management' })).toBeVisible({ timeout: 20_000 });
  await search(page, E2E_BROKERAGE);
  const row = rows(page).filter({ hasText: E2E_BROKERAGE });
  await expect(row).toHaveCount(1);
  // Agents column: at least the seeded agent@e2e.test.
  expect(Number(await row.locator('td').nth(5).textContent())).toBeGreaterThanOrEqual(1);
  await row.getByRole('button', { name: `Users of ${E2E_BROKERAGE}` }).click();
  const users = page.getByRole('dialog', { name: `Users in ${E2E_BROKERAGE}` });
  await expect(users.getByText('broker@e2e.test')).toBeVisible();
  await expect(users.getByText('agent@e2e.test')).toBeVisible();
});

test('pagination: page size 10/20/50, at most 5 page buttons, search and size return to page 1', async ({ page, request }) => {
  test.slow();
  const tag = `Pg${unique()}`;
  await createBrokerages(request, tag, 62);
  await signIn(page, 'admin');
  await page.goto('/brokerages');
  // Screens load on demand; on a busy machine the first load can take a while.
  await expect(page.getByRole('heading', { name: 'Brokerage Management' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('combobox', { name: 'Brokerages per page' })).toHaveValue('20');
  await search(page, tag);
  await expect(page.getByText('Showing 1 to 20 of 62 entries')).toBeVisible();
  await expect(rows(page)).toHaveCount(20);

  await page.getByRole('combobox', { name: 'Brokerages per page' }).click();
  await page.getByRole('option', { name: '10', exact: true }).click();
  await expect(page.getByText('Showing 1 to 10 of 62 entries')).toBeVisible();
  const pager = page.getByRole('navigation', { name: 'Pagination' });
  await expect(pager.getByRole('button', { name: /^Page \d+$/ })).toHaveCount(5);
  await expect(pager.getByRole('button', { name: /^Page \d+$/ })).toHaveText(['1', '2', '3', '4', '5']);

  await pager.getByRole('button', { name: 'Page 4' }).click();
  await expect(page.getByText('Showing 31 to 40 of 62 entries')).toBeVisible();
  await expect(pager.getByRole('button', { name: /^Page \d+$/ })).toHaveText(['2', '3', '4', '5', '6']);
  await expect(rows(page).first()).toContainText(`${tag} Realty 30`);
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Showing 41 to 50 of 62 entries')).toBeVisible();
  await pager.getByRole('button', { name: 'Page 7' }).click();
  await expect(page.getByText('Showing 61 to 62 of 62 entries')).toBeVisible();
  await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();

  // The list state is in the URL: a reload shows the same page.
  await page.reload();
  await expect(page.getByText('Showing 61 to 62 of 62 entries')).toBeVisible();

  // Changing the page size returns to page 1.
  await page.getByRole('combobox', { name: 'Brokerages per page' }).click();
  await page.getByRole('option', { name: '50', exact: true }).click();
  await expect(page.getByText('Showing 1 to 50 of 62 entries')).toBeVisible();
  await pager.getByRole('button', { name: 'Page 2' }).click();
  await expect(page.getByText('Showing 51 to 62 of 62 entries')).toBeVisible();

  // Changing the search returns to page 1.
  await search(page, `${tag} Realty 0`);
  await expect(page.getByText('Showing 1 to 10 of 10 entries')).toBeVisible();
  await search(page, "' OR 1=1 --");
  await expect(page.getByText('No brokerages found')).toBeVisible();
  await expect(page.getByText('Showing 0 to 0 of 0 entries')).toBeVisible();
});

test('a Broker sees the access-denied text and no brokerage call is made', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (req) => {
    if (/\/trpc\/[^?]*brokerages\./.test(req.url())) calls.push(req.url());
  });
  await signIn(page, 'broker');
  await page.goto('/brokerages');
  await expect(page.getByText('Access denied. Admin privileges required.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Brokerage Management' })).toBeHidden();
  expect(calls).toEqual([]);
});
