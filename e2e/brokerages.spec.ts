import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createBrokerage, uid } from './fixtures/data.ts';
import { atPhoneWidth, cards, expectInView, phoneShot } from './fixtures/phone.ts';
import { E2E_BROKERAGE } from './fixtures/users.ts';
import { rows, searchList } from './fixtures/ui.ts';

const search = (page: Page, text: string) => searchList(page, 'Search brokerages', text);

// The machines running this suite are shared and busy: give server answers more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

async function createBrokerages(request: APIRequestContext, tag: string, count: number) {
  const admin = await apiAs(request, 'admin');
  for (let i = 0; i < count; i++) await createBrokerage(admin, `${tag} Realty ${String(i).padStart(2, '0')}`);
}

test('Admin adds, finds, edits, views users of and deletes a brokerage', async ({ page }) => {
  test.slow();
  const name = `Harbor ${uid()}`;
  await signIn(page, 'admin', '/brokerages');
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
  await expect(page.getByText('Showing 1 to 1 of 1 brokerages')).toBeVisible();

  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Brokerage' });
  await expect(edit.getByLabel(/^Name/)).toHaveValue(name);
  await edit.getByLabel('Address').fill('1 Harbor Way, Miami, FL');
  await edit.getByRole('button', { name: 'Update Brokerage' }).click();
  await expect(page.getByText('Brokerage updated successfully!')).toBeVisible();
  await expect(rows(page).first()).toContainText('1 Harbor Way, Miami, FL');

  // The row opens the brokerage's detail: its fields and its people.
  await rows(page).first().getByText(name).click();
  const detail = page.getByRole('dialog', { name });
  await expect(detail).toContainText('(555) 010-4000');
  await expect(detail.getByRole('heading', { name: `Users in ${name}` })).toBeVisible();
  await expect(detail.getByText('No users found for this brokerage.')).toBeVisible();
  await detail.getByRole('button', { name: 'Close brokerage details' }).click();
  await expect(detail).toBeHidden();

  await page.getByRole('button', { name: `Delete ${name}` }).click();
  const confirmDialog = page.getByRole('dialog');
  await expect(confirmDialog.getByText('Are you sure you want to delete this brokerage? This action cannot be undone.')).toBeVisible();
  await confirmDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Brokerage deleted successfully!')).toBeVisible();
  await expect(page.getByText('No brokerages found')).toBeVisible();
});

test('Users in a brokerage lists its people, and agent_count shows', async ({ page }) => {
  await signIn(page, 'admin', '/brokerages');
  await expect(page.getByRole('heading', { name: 'Brokerage Management' })).toBeVisible({ timeout: 20_000 });
  await search(page, E2E_BROKERAGE);
  const row = rows(page).filter({ hasText: E2E_BROKERAGE });
  await expect(row).toHaveCount(1);
  // Agents column: at least the seeded agent@e2e.test.
  expect(Number(await row.locator('td').nth(5).textContent())).toBeGreaterThanOrEqual(1);
  await row.getByText(E2E_BROKERAGE).click();
  const users = page.getByRole('dialog', { name: E2E_BROKERAGE });
  await expect(users.getByText('broker@e2e.test')).toBeVisible();
  await expect(users.getByText('agent@e2e.test')).toBeVisible();
});

test('list bar: page size 10/20/50, pages, sort by a column; search and size return to page 1; the URL keeps it', async ({
  page,
  request,
}) => {
  test.slow();
  const tag = `Pg${uid()}`;
  await createBrokerages(request, tag, 25);
  await signIn(page, 'admin', '/brokerages');
  // Screens load on demand; on a busy machine the first load can take a while.
  await expect(page.getByRole('heading', { name: 'Brokerage Management' })).toBeVisible({ timeout: 20_000 });
  await search(page, tag);
  await expect(page.getByText('Showing 1 to 20 of 25 brokerages')).toBeVisible();
  await expect(rows(page)).toHaveCount(20);

  await page.getByRole('button', { name: '20', exact: true }).click();
  await page.getByRole('menuitem', { name: '10', exact: true }).click();
  await expect(page.getByText('Showing 1 to 10 of 25 brokerages')).toBeVisible();
  await expect(page).toHaveURL(/limit=10/);
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('Showing 11 to 20 of 25 brokerages')).toBeVisible();
  await expect(rows(page).first()).toContainText(`${tag} Realty 10`);

  // Sorted on the server by the column: name descending starts with the last one.
  await page.getByRole('button', { name: /^Name Sorted/ }).click();
  await expect(page).toHaveURL(/order=desc/);
  await expect(page.getByText('Showing 1 to 10 of 25 brokerages')).toBeVisible();
  await expect(rows(page).first()).toContainText(`${tag} Realty 24`);

  // The list state is in the URL: a reload shows the same view.
  await page.reload();
  await expect(rows(page).first()).toContainText(`${tag} Realty 24`);
  await expect(page.getByText('Showing 1 to 10 of 25 brokerages')).toBeVisible();

  // Changing the search returns to page 1.
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('Showing 11 to 20 of 25 brokerages')).toBeVisible();
  await search(page, `${tag} Realty 0`);
  await expect(page.getByText('Showing 1 to 10 of 10 brokerages')).toBeVisible();
  await search(page, "' OR 1=1 --");
  await expect(page.getByText('No brokerages found')).toBeVisible();
});

test('at phone width an Admin opens the list and edits a brokerage; its phone stays on one line', async ({ page }, testInfo) => {
  const name = `Pocket ${uid()}`;
  await atPhoneWidth(page);
  await signIn(page, 'admin', '/brokerages');
  await expect(page.getByRole('heading', { name: 'Brokerage Management' })).toBeVisible({ timeout: 20_000 });
  // Below 600 px the list's rows are cards.
  await expect(cards(page).first()).toBeVisible();
  await phoneShot(page, testInfo, 'brokerages-list');

  await page.getByRole('button', { name: 'Add Brokerage' }).click();
  const add = page.getByRole('dialog', { name: 'Add New Brokerage' });
  await add.getByLabel(/^Name/).fill(name);
  await add.getByRole('button', { name: 'Create Brokerage' }).click();
  await expect(add).toBeHidden();
  await search(page, name);
  await expect(cards(page)).toHaveCount(1);
  const edit = cards(page)
    .first()
    .getByRole('button', { name: `Edit ${name}` });
  await expectInView(edit);
  await edit.click();
  const dialog = page.getByRole('dialog', { name: 'Edit Brokerage' });
  await dialog.getByLabel('Phone').fill('+1 (555) 010-7788 ext. 1234');
  await dialog.getByRole('button', { name: 'Update Brokerage' }).click();
  await expect(page.getByText('Brokerage updated successfully!')).toBeVisible();
  const phone = cards(page).first().getByText('+1 (555) 010-7788 ext. 1234');
  await expect(phone).toBeVisible();
  // One line: the number's text lays out as a single line box.
  const lines = await phone.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines).toBe(1);
  await phoneShot(page, testInfo, 'brokerage-edited');
});

test('a Broker sees the access-denied text and no brokerage call is made', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (req) => {
    if (/\/trpc\/[^?]*brokerages\./.test(req.url())) calls.push(req.url());
  });
  await signIn(page, 'broker', '/brokerages');
  await expect(page.getByText('Access denied. Admin privileges required.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Brokerage Management' })).toBeHidden();
  expect(calls).toEqual([]);
});
