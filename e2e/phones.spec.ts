/**
 * Phones (issue #27, "what it must show" 2): at 390 × 844 the Licenses, Payments and Users lists are cards that show
 * what matters for each list, nothing scrolls sideways, the row actions work from a card and are large enough for a
 * thumb. Screenshots of each list, light and dark, are kept as artifacts (test-results/phone/).
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { addDays, localDateString } from '@lm/shared';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createCourse, createLicense, createUser, myId, uid, uniqueAmount } from './fixtures/data.ts';
import {
  atPhoneWidth,
  card,
  cardField,
  cards,
  expectInView,
  expectNoSideScroll,
  expectTouchTarget,
  inDarkScheme,
  phoneShot,
} from './fixtures/phone.ts';

// Several screens per test on a shared 2-core machine: allow more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

const TODAY = localDateString();

/** The page at phone width shows its list as cards, and no table. */
async function expectCards(page: Page) {
  await expect(cards(page).first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('table')).toHaveCount(0);
}

/** Every field is on screen inside the window, and the page does not scroll sideways. */
async function expectShown(page: Page, ...fields: Parameters<typeof expectInView>[0][]) {
  for (const f of fields) await expectInView(f);
  await expectNoSideScroll(page);
}

async function shots(page: Page, testInfo: TestInfo, name: string) {
  await phoneShot(page, testInfo, name);
}

test('Licenses at 390 px: each card shows holder, number, state, expiry badge and compliance; Renew works from a card', async ({
  page,
  request,
}, testInfo) => {
  const admin = await apiAs(request, 'admin');
  const number = `CARD-${uid()}`;
  const expiration = addDays(TODAY, 20);
  await createLicense(admin, {
    user_id: await myId(await apiAs(request, 'agent')),
    license_number: number,
    state: 'NV',
    issue_date: '2025-01-01',
    expiration_date: expiration,
  });

  await atPhoneWidth(page);
  await signIn(page, 'admin', `/licenses?search=${number}`);
  await expectCards(page);
  const c = card(page, number);
  await expect(c).toHaveCount(1);
  await expect(page.getByText('Showing 1 to 1 of 1 licenses')).toBeVisible();
  await expectShown(
    page,
    c.getByText('Alice Agent'),
    cardField(c, 'License Number').getByText(number),
    cardField(c, 'State').getByText('NV', { exact: true }),
    c.getByTestId('expiry-badge'),
    c.getByTestId('compliance-badge'),
  );
  await expect(c.getByTestId('expiry-badge')).not.toHaveAttribute('data-color', 'green');
  await shots(page, testInfo, 'cards-licenses');

  // The card's actions: a thumb-sized button in view, and Renew from its menu.
  const actions = c.getByRole('button', { name: `Actions for license ${number}` });
  await expectInView(actions);
  await expectTouchTarget(actions);
  await actions.click();
  await page.getByRole('menuitem', { name: 'Renew' }).click();
  const renew = page.getByRole('dialog', { name: `Renew License ${number}` });
  const confirm = renew.getByRole('button', { name: 'Renew', exact: true });
  await expectInView(confirm);
  await expectNoSideScroll(page);
  await confirm.click();
  await expect(page.getByText('License renewed successfully!')).toBeVisible();
  await expect(renew).toBeHidden();
  await expect(c.getByTestId('expiry-badge')).toHaveAttribute('data-color', 'green');

  // The card opens the license's detail, as a row does.
  await c.getByText('Alice Agent').click();
  await expect(page.getByRole('dialog').filter({ hasText: number })).toBeVisible();
  await expectNoSideScroll(page);
  await shots(page, testInfo, 'cards-license-detail');
});

test('Payments at 390 px: each card shows amount, status, date and payer', async ({ page, request }, testInfo) => {
  const admin = await apiAs(request, 'admin');
  const payer = await createUser(admin, 'Agent', { first_name: 'Paula', last_name: `Payer${uid()}` });
  const amount = uniqueAmount(40);
  const description = `Card payment ${uid()}`;
  await admin.post('/api/payments', { user_id: payer.user_id, amount: amount.amount, status: 'Pending', description });

  await atPhoneWidth(page);
  await signIn(page, 'admin', `/payments?search=${encodeURIComponent(description)}`);
  await expectCards(page);
  const c = card(page, description);
  await expect(c).toHaveCount(1);
  await expect(page.getByText('Showing 1 to 1 of 1 payments')).toBeVisible();
  await expectShown(
    page,
    cardField(c, 'Amount').getByText(amount.text),
    cardField(c, 'Status').getByText('Pending'),
    cardField(c, 'Date'),
    c.getByText(`Paula ${payer.last_name}`),
  );
  await expect(cardField(c, 'Date')).toHaveText(/\d/);
  await expectTouchTarget(c.getByRole('button', { name: /^Actions for payment/ }));
  await shots(page, testInfo, 'cards-payments');

  // Edit from the card's menu opens the payment's form.
  await c.getByRole('button', { name: /^Actions for payment/ }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: /Edit Payment/ });
  await expect(edit.getByLabel('Description')).toHaveValue(description);
  await expectNoSideScroll(page);
});

test('Users at 390 px: each card shows name, email, role and status; Edit works from a card', async ({ page, request }, testInfo) => {
  const admin = await apiAs(request, 'admin');
  const tag = `Card${uid()}`;
  const user = await createUser(admin, 'Broker', { first_name: 'Cora', last_name: tag, email: `${tag.toLowerCase()}@e2e.test` });

  await atPhoneWidth(page);
  await signIn(page, 'admin', `/users?search=${tag}`);
  await expectCards(page);
  const c = card(page, tag);
  await expect(c).toHaveCount(1);
  await expect(page.getByText('Showing 1 to 1 of 1 users')).toBeVisible();
  await expectShown(
    page,
    c.getByText(`Cora ${tag}`),
    cardField(c, 'Email').getByText(user.email),
    cardField(c, 'Role').locator('[data-role="Broker"]'),
    cardField(c, 'Status').getByText('Active'),
  );
  const edit = c.getByRole('button', { name: `Edit Cora ${tag}` });
  await expectTouchTarget(edit);
  await expectTouchTarget(c.getByRole('checkbox', { name: `Select Cora ${tag}` }).locator('xpath=ancestor::label[1]'));
  await shots(page, testInfo, 'cards-users');

  await edit.click();
  const dialog = page.getByRole('dialog', { name: 'Edit User' });
  await dialog.getByLabel(/^First Name/).fill('Corinne');
  await dialog.getByRole('button', { name: /^Update/ }).click();
  await expect(c.getByText(`Corinne ${tag}`)).toBeVisible();
  await expectNoSideScroll(page);
});

test('the lists at 390 px in the dark scheme: cards, no sideways scrolling', async ({ page, request }, testInfo) => {
  // Something in each list (the browser suite's database starts without courses or templates).
  const admin = await apiAs(request, 'admin');
  await createCourse(admin);
  await admin.post('/api/admin/notification-templates', {
    name: `Dark ${uid()}`,
    subject: 'Hello {{first_name}}',
    body: 'Body',
    trigger_event: 'license_expiring',
  });
  await inDarkScheme(page);
  await atPhoneWidth(page);
  await signIn(page, 'admin', '/licenses');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  for (const [path, name] of [
    ['/licenses', 'licenses'],
    ['/payments', 'payments'],
    ['/users', 'users'],
    ['/brokerages', 'brokerages'],
    ['/courses', 'courses'],
    ['/audit', 'audit'],
    ['/notification-management', 'notification-templates'],
  ] as const) {
    await page.goto(path);
    await expectCards(page);
    await expectNoSideScroll(page);
    await shots(page, testInfo, `dark-${name}`);
  }
});

test('the document drawer fits at 390 px: its Download button is whole', async ({ page, request }, testInfo) => {
  const name = `phone-license-copy-${uid()}.pdf`;
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]);
  await (
    await apiAs(request, 'agent')
  ).post('/api/documents', undefined, {
    status: 201,
    multipart: { category: 'license_copy', file: { name, mimeType: 'application/pdf', buffer: Buffer.from(await doc.save()) } },
  });

  await atPhoneWidth(page);
  await signIn(page, 'agent', '/documents');
  await expectCards(page);
  await card(page, name).getByText(name).first().click();
  const drawer = page.getByRole('dialog', { name: 'Document' });
  const download = drawer.getByRole('button', { name: `Download ${name} (version 1)` });
  await expectInView(download);
  await expect(download).toHaveText('Download');
  await expectNoSideScroll(page);
  await phoneShot(page, testInfo, 'document-drawer');
});
