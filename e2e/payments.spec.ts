import fs from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { localDateString } from '@lm/shared';
import { parseCsv } from '../server/test/csv.ts';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { myId, uid, uniqueAmount } from './fixtures/data.ts';
import { atPhoneWidth, card, expectInView, phoneShot } from './fixtures/phone.ts';
import { pick, row, searchPick } from './fixtures/ui.ts';
import { shown } from './fixtures/dates.ts';

/** A seeded user's id. */
async function userId(request: APIRequestContext, who: 'agent' | 'broker'): Promise<number> {
  return myId(await apiAs(request, who));
}

/** A record made by the Admin through the API. */
async function post(request: APIRequestContext, path: string, data: Record<string, unknown>) {
  return (await apiAs(request, 'admin')).post(path, data);
}

// Several steps per test on a shared 2-core machine: allow more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

test('Admin records, edits and deletes a payment, with the cards, defaults, messages and toasts', async ({ page, request }) => {
  const agentId = await userId(request, 'agent');
  const licenseNumber = `PAYLIC-${uid()}`;
  await post(request, '/api/licenses', {
    user_id: agentId,
    license_number: licenseNumber,
    state: 'CA',
    issue_date: '2025-01-01',
    expiration_date: '2027-01-01',
  });

  await signIn(page, 'admin', '/payments');
  await expect(page.getByRole('heading', { name: 'Payment Management' })).toBeVisible({ timeout: 20_000 });
  for (const card of ['Total Revenue', 'Completed', 'Pending', 'Total Payments']) {
    await expect(page.getByTestId(`stat-${card}`)).toBeVisible();
  }
  await expect(page.getByTestId('stat-Total Revenue')).toHaveText(/^\$[\d,]+\.\d{2}$/);
  const totalBefore = Number(await page.getByTestId('stat-Total Payments').textContent());

  await page.getByRole('button', { name: 'Record Payment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record New Payment' });
  await expect(dialog).toBeVisible();
  // Defaults: License Fee, Credit Card, Completed, today.
  await expect(dialog.getByRole('combobox', { name: /^Payment Type/ })).toHaveValue('License Fee');
  await expect(dialog.getByRole('combobox', { name: 'Payment Method' })).toHaveValue('Credit Card');
  await expect(dialog.getByRole('combobox', { name: 'Status' })).toHaveValue('Completed');
  await expect(dialog.getByLabel('Payment Date')).toHaveValue(shown(localDateString()));

  await dialog.getByRole('button', { name: 'Record Payment' }).click();
  await expect(dialog.getByText('User is required')).toBeVisible();
  await expect(dialog.getByText('Amount must be greater than 0')).toBeVisible();
  await dialog.getByLabel(/^Amount/).fill('0');
  await dialog.getByRole('button', { name: 'Record Payment' }).click();
  await expect(dialog.getByText('Amount must be greater than 0')).toBeVisible();

  await searchPick(page, /^User/, 'Alice', 'Alice Agent (Agent)');
  await dialog.getByLabel(/^Amount/).fill('123.45');
  // The license select lists the chosen user's licenses.
  await dialog.getByRole('combobox', { name: 'License' }).click();
  await page.getByRole('option', { name: new RegExp(licenseNumber) }).click();
  const description = `E2E payment ${uid()}`;
  await dialog.getByLabel('Description').fill(description);
  await dialog.getByRole('button', { name: 'Record Payment' }).click();
  await expect(page.getByText('Payment recorded successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('stat-Total Payments')).not.toHaveText(String(totalBefore));

  await page.getByLabel('Search').fill(description);
  const r = row(page, description);
  await expect(r).toHaveCount(1);
  for (const text of [shown(localDateString()), 'Alice Agent', 'License Fee', '$123.45', 'Credit Card', 'Completed']) {
    await expect(r).toContainText(text);
  }

  // Edit: 'Edit Payment', keeps the values, saves the change.
  await r.getByRole('button', { name: /Actions for payment/ }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Payment' });
  await expect(edit.getByLabel(/^Amount/)).toHaveValue('$123.45');
  await expect(edit.getByRole('combobox', { name: 'License' })).toHaveValue(new RegExp(licenseNumber));
  await pick(page, /^Status/, 'Pending');
  await pick(page, /^Payment Method/, 'Check');
  await edit.getByRole('button', { name: 'Update Payment' }).click();
  await expect(page.getByText('Payment updated successfully!')).toBeVisible();
  await expect(r).toContainText('Pending');
  await expect(r).toContainText('Check');

  // Delete, with its confirm.
  await r.getByRole('button', { name: /Actions for payment/ }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page
    .getByRole('dialog')
    .filter({ hasText: 'Are you sure you want to delete this payment?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('Payment deleted successfully!')).toBeVisible();
  await expect(row(page, description)).toHaveCount(0);
});

test("a payment without a description shows '-'; filters live in the URL", async ({ page, request }) => {
  const brokerId = await userId(request, 'broker');
  const refund = uniqueAmount(900);
  await post(request, '/api/payments', {
    user_id: brokerId,
    amount: refund.amount,
    payment_type: 'Penalty',
    payment_method: 'Cash',
    status: 'Refunded',
  });
  await signIn(page, 'broker', '/payments?type=Penalty&method=Cash&status=Refunded&search=Bruno');
  const r = row(page, refund.text);
  await expect(r).toContainText('Bruno Broker', { timeout: 20_000 });
  await expect(r).toContainText('Penalty');
  await expect(r).toContainText('Refunded');
  await expect(r.getByRole('cell').nth(6)).toHaveText('-');
  await expect(page.getByRole('combobox', { name: 'Type' })).toHaveValue('Penalty');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Method' })).toHaveValue('Cash');
});

test('an Agent sees its own payments read-only; a School is told it has no access', async ({ page, request, browser }) => {
  const agentId = await userId(request, 'agent');
  const description = `Agent fee ${uid()}`;
  await post(request, '/api/payments', { user_id: agentId, amount: 45.5, payment_type: 'Course Fee', description });
  await signIn(page, 'agent', '/payments');
  await page.getByLabel('Search').fill(description);
  const r = row(page, description);
  await expect(r).toContainText('$45.50');
  await expect(r).toContainText('Course Fee');
  await expect(page.getByRole('button', { name: 'Record Payment' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Actions for payment/ })).toHaveCount(0);
  await expect(page.getByTestId('stat-Total Payments')).toHaveText(/^\d+$/);

  const school = await browser.newPage();
  await signIn(school, 'school', '/payments');
  await expect(school.getByText('Access denied. Payments are available to Admins, Brokers and Agents.')).toBeVisible();
  await school.close();
});

test('at phone width an Admin records a payment, opens its details and exports the list', async ({ page, request }, testInfo) => {
  const agentId = await userId(request, 'agent');
  const licenseNumber = `PHPAY-${uid()}`;
  await post(request, '/api/licenses', {
    user_id: agentId,
    license_number: licenseNumber,
    state: 'CA',
    issue_date: '2025-01-01',
    expiration_date: '2027-01-01',
  });
  // One payment in the list whatever ran before (the list's first page is asserted before this test records one).
  await post(request, '/api/payments', { user_id: agentId, amount: uniqueAmount(12).amount });
  await atPhoneWidth(page);
  await signIn(page, 'admin', '/payments');
  await expect(page.getByTestId('stat-Total Revenue')).toHaveText(/^\$[\d,]+\.\d{2}$/, { timeout: 20_000 });
  await expect(page.getByText(/^Showing 1 to \d+ of \d+ payments$/)).toBeVisible();
  await phoneShot(page, testInfo, 'payments-list');

  // Record a payment linked to the license.
  await page.getByRole('button', { name: 'Record Payment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record New Payment' });
  await searchPick(page, /^User/, 'Alice', 'Alice Agent (Agent)');
  await dialog.getByLabel(/^Amount/).fill('76.40');
  await dialog.getByRole('combobox', { name: 'License' }).click();
  await page.getByRole('option', { name: new RegExp(licenseNumber) }).click();
  const description = `Phone payment ${uid()}`;
  await dialog.getByLabel('Description').fill(description);
  const submit = dialog.getByRole('button', { name: 'Record Payment' });
  await expectInView(submit);
  await phoneShot(page, testInfo, 'payments-record');
  await submit.click();
  await expect(page.getByText('Payment recorded successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.getByLabel('Search').fill(description);
  // Below 600 px the list's rows are cards.
  const r = card(page, description);
  await expect(r).toHaveCount(1);
  await expect(r).toContainText('$76.40');
  await expectInView(r.getByRole('button', { name: /Actions for payment/ }));

  // The card opens the payment with its payer and license.
  await r.getByText(description).click();
  const drawer = page.getByRole('dialog', { name: 'Payment Details' });
  const detail = drawer.getByTestId('payment-detail');
  await expect(detail).toContainText('$76.40');
  await expect(detail).toContainText(description);
  await expect(detail.getByRole('region', { name: 'Payer' })).toContainText('Alice Agent');
  await expect(detail.getByRole('region', { name: 'License' })).toContainText(licenseNumber);
  await phoneShot(page, testInfo, 'payments-detail');
  await drawer.getByRole('button', { name: 'Close payment details' }).click();
  await expect(drawer).toBeHidden();

  // The export holds the filtered view.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^payments_\d{4}-\d{2}-\d{2}\.csv$/);
  const text = fs.readFileSync((await file.path())!, 'utf8');
  expect(parseCsv(text)).toHaveLength(2); // the header and the one payment
  expect(text).toContain(description);
  expect(text).toContain(licenseNumber);
});
