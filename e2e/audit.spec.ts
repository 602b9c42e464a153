import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createLicense, createUser, uid } from './fixtures/data.ts';
import { atPhoneWidth, card, cards, expectInView, phoneShot } from './fixtures/phone.ts';
import { rows as bodyRows } from './fixtures/ui.ts';

/**
 * A fresh Admin whose own audit trail is exactly: 1 login, 1 license create, 26 license updates,
 * so the User ID filter gives exact counts even with other spec files writing at the same time.
 */
async function actorWithHistory(request: APIRequestContext) {
  const admin = await apiAs(request, 'admin');
  const actor = await createUser(admin, 'Admin', { first_name: 'Audrey' });
  const holder = await createUser(admin, 'Agent', { first_name: 'Hal' });
  const mine = await apiAs(request, actor);
  const license = await createLicense(mine, { user_id: holder.user_id, license_number: `AUD-${uid()}`, state: 'NY' });
  for (let i = 1; i <= 26; i++) await mine.put(`/api/licenses/${license.license_id}`, { ce_hours_required: i });
  return { userId: actor.user_id, lastName: actor.last_name, number: license.license_number };
}

/** The list's "Showing X to Y of Z entries" (components/list-table.tsx). */
const showing = (page: Page) => page.locator('.mantine-datatable-pagination-text');

async function setUserId(page: Page, id: number | string) {
  await page.getByLabel('User ID').fill(String(id));
  await expect(page).toHaveURL(new RegExp(`user_id=${id}`));
}

test('Admin sees the summary cards, filters, table and the detail modal with formatted JSON', async ({ page, request }) => {
  test.setTimeout(60_000); // the actor's history is 28 API calls before the screen opens
  const actor = await actorWithHistory(request);
  await signIn(page, 'admin', '/audit');
  await expect(page.getByRole('heading', { name: 'Audit Logs' })).toBeVisible();
  for (const label of ['Total Logs', 'Active Users', 'Action Types', 'Tables Modified']) {
    await expect(page.getByTestId(`stat-${label}`)).toContainText(/\d/);
  }
  for (const label of ['User ID', 'Action', 'Start Date', 'End Date']) await expect(page.getByLabel(label, { exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Table' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Clear Filters' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeVisible();
  // Each column sorts on the server (its heading is a button); View opens the entry.
  for (const col of ['Timestamp', 'User', 'Action', 'Table', 'Target ID', 'IP Address']) {
    await expect(page.locator('thead').getByRole('button', { name: new RegExp(`^${col} `) })).toBeVisible();
  }
  await expect(page.getByRole('columnheader', { name: 'View' })).toBeAttached();

  await setUserId(page, actor.userId);
  await expect(showing(page)).toHaveText('Showing 1 to 28 of 28 entries');
  const rows = bodyRows(page);
  await expect(rows).toHaveCount(28);
  await expect(rows.first()).toContainText(`Audrey ${actor.lastName}`);

  // Badges by substring: update yellow, create green, login blue.
  await expect(rows.first().locator('[data-color]')).toHaveAttribute('data-color', 'yellow');
  const createRow = rows.filter({ has: page.locator('[data-color="green"]', { hasText: 'create' }) });
  await expect(createRow).toHaveCount(1);
  await expect(createRow).toContainText('licenses');
  await expect(rows.filter({ has: page.locator('[data-color="blue"]', { hasText: 'login' }) })).toHaveCount(1);

  // The column heading sorts on the server: oldest first puts the login (the first entry) on top.
  await page.getByRole('button', { name: /^Timestamp / }).click();
  await expect(page).toHaveURL(/order=asc/);
  await expect(rows.first().locator('[data-color]')).toHaveAttribute('data-color', 'blue');

  await createRow.getByRole('button', { name: /View log/ }).click();
  const modal = page.getByRole('dialog', { name: 'Audit Log Details' });
  await expect(modal).toBeVisible();
  await expect(modal.getByTestId('new-values')).toContainText(`"license_number": "${actor.number}"`);
  await expect(modal.getByTestId('old-values')).toHaveText('None');
  await expect(modal).toContainText('Target Table');
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();

  // Table select and action text narrow further.
  await page.getByLabel('Action', { exact: true }).fill('CREATE');
  await expect(showing(page)).toHaveText('Showing 1 to 1 of 1 entries');
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(page.getByLabel('User ID')).toHaveValue('');
  await expect(page.getByLabel('Action', { exact: true })).toHaveValue('');
});

test('pagination: sizes 25/50/100, previous and next, and a filter change returns to page 1', async ({ page, request }) => {
  test.setTimeout(60_000); // the actor's history is 28 API calls before the screen opens
  const actor = await actorWithHistory(request);
  await signIn(page, 'admin', '/audit');
  await setUserId(page, actor.userId);
  await expect(showing(page)).toHaveText('Showing 1 to 28 of 28 entries');

  const pager = page.locator('.mantine-datatable-pagination');
  await pager.getByRole('button', { name: '50' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['25', '50', '100']);
  await page.getByRole('menuitem', { name: '25' }).click();
  await expect(showing(page)).toHaveText('Showing 1 to 25 of 28 entries');
  await expect(pager.getByRole('button', { name: 'Previous page' })).toBeDisabled();
  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(showing(page)).toHaveText('Showing 26 to 28 of 28 entries');
  await expect(pager.getByRole('button', { name: '2', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(pager.getByRole('button', { name: 'Next page' })).toBeDisabled();

  await page.getByLabel('Action', { exact: true }).fill('update');
  await expect(showing(page)).toHaveText('Showing 1 to 25 of 26 entries');
  await expect(pager.getByRole('button', { name: '1', exact: true })).toHaveAttribute('aria-current', 'page');

  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(showing(page)).toHaveText(/^Showing 1 to 25 of [\d,]+ entries$/);
});

test('a date range in the future shows the empty table and zero entries', async ({ page }) => {
  await signIn(page, 'admin', '/audit');
  // Two quick edits in a row: the second must not undo the first.
  await page.getByLabel('Start Date').fill('2099-01-01');
  await page.getByLabel('End Date').fill('2099-01-31');
  await expect(page).toHaveURL(/start_date=2099-01-01.*end_date=2099-01-31|end_date=2099-01-31.*start_date=2099-01-01/);
  await expect(page.getByText('No audit logs found')).toBeVisible();
  await expect(page.getByTestId('stat-Total Logs')).toHaveText('0');
  await expect(page.getByTestId('stat-Active Users')).toHaveText('0');
});

test('other roles see the access-denied text and no audit data is requested', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('audit.')) calls.push(r.url());
  });
  await signIn(page, 'broker', '/audit');
  await expect(page.getByText('Access denied. Admin privileges required.')).toBeVisible();
  expect(calls).toEqual([]);
});

test('at phone width: the audit log, the delivery history, the templates, the backups and the dashboard, with row actions in view', async ({
  page,
  request,
}, testInfo) => {
  // Something in each list: a delivery (a test send) and a backup.
  const admin = await apiAs(request, 'admin');
  const template = await admin.post<{ id: number }>('/api/admin/notification-templates', {
    name: `Phone ${uid()}`,
    subject: 'Hello {{first_name}}',
    body: 'Body',
    trigger_event: 'license_expiring',
  });
  const recipient = `phone-${uid()}@e2e.test`;
  await admin.post(`/api/admin/notification-templates/${template.id}/test`, { test_email: recipient });
  await admin.post('/api/admin/backups', { description: `Phone ${uid()}`, include_files: false });

  await atPhoneWidth(page);
  await signIn(page, 'admin', '/audit');
  // Below 600 px the lists' rows are cards.
  const auditRows = cards(page);
  await expect(auditRows.first()).toBeVisible();
  await expectInView(auditRows.first().getByRole('button', { name: /View log/ }));
  await phoneShot(page, testInfo, 'audit-list');
  // The main task: a row opens its detail.
  await auditRows.first().click();
  const detail = page.getByRole('dialog', { name: 'Audit Log Details' });
  await expect(detail.getByTestId('new-values')).toBeVisible();
  await phoneShot(page, testInfo, 'audit-detail');
  await page.keyboard.press('Escape');

  await page.goto('/notification-management');
  const templateRows = cards(page);
  await expect(templateRows.first()).toBeVisible();
  await expectInView(templateRows.first().getByRole('button', { name: /^Actions for template/ }));
  await phoneShot(page, testInfo, 'notification-templates');
  await page.getByRole('tab', { name: 'Delivery History' }).click();
  const historyRow = card(page, recipient);
  await expect(historyRow).toBeVisible();
  await expectInView(historyRow.getByRole('button', { name: /^View notification/ }));
  await phoneShot(page, testInfo, 'notification-history');
  await historyRow.getByRole('button', { name: /^View notification/ }).click();
  await expect(page.getByRole('dialog', { name: 'Notification details' })).toContainText(recipient);
  await phoneShot(page, testInfo, 'notification-detail');
  await page.keyboard.press('Escape');

  await page.goto('/backup-restore');
  const backupRow = cards(page).first();
  await expect(backupRow).toBeVisible();
  await expectInView(backupRow.getByRole('button', { name: /^Delete / }));
  await phoneShot(page, testInfo, 'backups');

  await page.goto('/dashboard');
  const first = page.getByTestId('stat-total_users');
  const second = page.getByTestId('stat-total_licenses');
  await expect(first).toBeVisible();
  // Two cards side by side at phone width.
  const [a, b] = [await first.boundingBox(), await second.boundingBox()];
  expect(Math.abs(a!.y - b!.y)).toBeLessThan(4);
  await expectInView(second);
  await phoneShot(page, testInfo, 'dashboard');
});
