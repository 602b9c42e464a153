import { expect, test, type Locator, type Page } from '@playwright/test';
import { addDays, type PublicSettings } from '@lm/shared';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createCourse, createLicense, createUser, uid, uniqueAmount } from './fixtures/data.ts';
import { shown } from './fixtures/dates.ts';
import { row } from './fixtures/ui.ts';

/**
 * Issue 27 "one date language" (docs/decisions.md "One date language"): every screen writes dates in the office's
 * format, times in the office's zone, and counts days from the office's today. The suite's server runs in New York
 * (e2e/playwright.config.ts); the browser here is in California at 9:30 p.m., when New York is already on the next day.
 */
test.use({ timezoneId: 'America/Los_Angeles' });
test.describe.configure({ timeout: 60_000 });

/** Dates written otherwise than the office's MM/DD/YYYY: 2026-12-03, "Dec 3, 2026", 12/3/2026. */
const OTHER_DATE_FORMS =
  /\b\d{4}-\d{2}-\d{2}\b|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2}, \d{4}\b|\b\d{1,2}\/\d\/\d{4}\b|\b\d\/\d{1,2}\/\d{4}\b/;

async function expectOnlyOfficeDates(region: Locator) {
  const text = await region.innerText();
  expect(text, 'dates in the office format only').not.toMatch(OTHER_DATE_FORMS);
  expect(text).toMatch(/\b\d{2}\/\d{2}\/\d{4}\b/);
}

/**
 * The browser's clock at 9:30 p.m. in California on the day before the office's `today` (12:30 a.m. in New York, or
 * 1:30 in summer), running on from there (timers keep their real pace).
 */
async function lateEveningInCalifornia(page: Page, officeToday: string) {
  await page.clock.setSystemTime(new Date(`${officeToday}T05:30:00Z`));
}

test("a license expiring tomorrow in New York shows New York's count of days late in the evening in California, and every screen writes dates one way", async ({
  page,
  request,
  browser,
}) => {
  const office = (await (await request.get('/api/settings/public')).json()) as PublicSettings;
  expect(office.time_zone).toBe('America/New_York');
  expect(office.date_format).toBe('MM/DD/YYYY');
  const today = office.today;
  const tomorrow = addDays(today, 1);

  // An Agent of its own with a license expiring tomorrow (New York), a payment and an approved completion (a notification).
  const admin = await apiAs(request, 'admin');
  const person = await createUser(admin, 'Agent', { first_name: 'Dora' });
  const number = `DTS-${uid()}`;
  await createLicense(admin, { user_id: person.user_id, license_number: number, issue_date: '2024-12-01', expiration_date: tomorrow });
  const paid = uniqueAmount(31);
  const description = `Dates ${uid()}`;
  await admin.post('/api/payments', { user_id: person.user_id, amount: paid.amount, description });
  const course = await createCourse(admin, { course_name: `Dates Ethics ${uid()}`, provider: 'Office', ce_hours: 2 });
  const completion = await admin.post<{ completion_id: number }>('/api/completions', {
    user_id: person.user_id,
    course_id: course.course_id,
    completion_date: addDays(today, -3),
  });
  await admin.post(`/api/completions/${completion.completion_id}/review`, { status: 'Approved' });

  // The browser's own calendar is a day behind New York's.
  await lateEveningInCalifornia(page, today);
  await signIn(page, person);
  const browserDay = await page.evaluate(() => ({ date: new Date().toLocaleDateString('en-CA'), hour: new Date().getHours() }));
  expect(browserDay.date).toBe(addDays(today, -1));
  expect(browserDay.hour).toBeGreaterThanOrEqual(21);

  // Dashboard: the expiring license counts 1 day (New York's), not 2 (the browser's), and its date is the office's.
  const expiring = page.getByTestId('expiring-item').filter({ hasText: number });
  await expect(expiring).toContainText('1 day');
  await expect(expiring).not.toContainText('2 days');
  await expect(expiring).toContainText(shown(tomorrow));
  await expectOnlyOfficeDates(page.getByRole('main'));

  // The Agent's licenses: the badge says 1 day too; the transcript drawer writes the dates the same way.
  await page.goto(`/licenses?search=${number}`);
  const license = row(page, number);
  await expect(license.getByTestId('expiry-badge')).toHaveText('1 day');
  await expect(license).toContainText(shown(tomorrow));
  await expectOnlyOfficeDates(page.getByRole('main'));
  await license.getByRole('cell').first().click();
  const transcript = page.getByRole('dialog', { name: 'CE Transcript' });
  await expect(transcript).toContainText(`Expires ${shown(tomorrow)}`);
  await expectOnlyOfficeDates(transcript);
  await page.keyboard.press('Escape');
  await expect(transcript).toBeHidden();

  // Notification cards: the office's date, the time in the office's zone, said as such to a reader in California.
  await page.goto('/notifications');
  const card = page.getByTestId('notification').filter({ hasText: `Completion approved: ${course.course_name}` });
  await expect(card).toContainText(new RegExp(`${shown(today).replaceAll('/', '\\/')} \\d{1,2}:\\d{2} [AP]M E[SD]T`));
  await expectOnlyOfficeDates(page.getByRole('main'));

  // An Admin in California: the payments list and drawer, and a new payment's date is New York's today.
  const adminPage = await browser.newPage({ timezoneId: 'America/Los_Angeles' });
  await lateEveningInCalifornia(adminPage, today);
  await signIn(adminPage, 'admin', `/payments?search=${encodeURIComponent(description)}`);
  const payment = row(adminPage, description);
  await expect(payment).toContainText(shown(today));
  await expectOnlyOfficeDates(adminPage.getByRole('main'));
  await payment.getByRole('cell').first().click();
  const drawer = adminPage.getByRole('dialog', { name: 'Payment Details' });
  await expect(drawer.getByTestId('payment-detail')).toContainText(paid.text);
  await expectOnlyOfficeDates(drawer);
  await drawer.getByRole('button', { name: 'Close payment details' }).click();
  await expect(drawer).toBeHidden();
  await adminPage.getByRole('button', { name: 'Record Payment' }).click();
  const form = adminPage.getByRole('dialog', { name: 'Record New Payment' });
  await expect(form.getByLabel('Payment Date')).toHaveValue(shown(today));
  await adminPage.close();
});
