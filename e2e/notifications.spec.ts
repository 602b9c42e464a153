import { expect, test } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createCourse, createUser, uid, uniqueAmount } from './fixtures/data.ts';

test.describe.configure({ timeout: 60_000 });

test('an Agent sees its unread notifications in the bell and the notification centre, reads them, saves preferences and gets a calendar link', async ({
  page,
  request,
}) => {
  // Seed through the API: an Agent of its own (the seeded one gets notifications from other specs at any time),
  // then the Admin approves a completion and records a payment for it: two notifications, nothing else unread.
  const admin = await apiAs(request, 'admin');
  const person = await createUser(admin, 'Agent', { first_name: 'Nora' });
  const agent = await apiAs(request, person);
  await agent.post('/api/notifications/read-all');
  const course = await createCourse(admin, { course_name: `Centre Ethics ${uid()}`, provider: 'Office', ce_hours: 2 });
  const completion = await admin.post<{ completion_id: number }>('/api/completions', {
    user_id: person.user_id,
    course_id: course.course_id,
    completion_date: '2026-01-15',
  });
  await admin.post(`/api/completions/${completion.completion_id}/review`, { status: 'Approved' });
  const payment = uniqueAmount(40);
  await admin.post('/api/payments', { user_id: person.user_id, amount: payment.amount });

  await signIn(page, person);
  const bell = page.getByRole('link', { name: 'Notifications, 2 unread' });
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const approved = page.getByTestId('notification').filter({ hasText: `Completion approved: ${course.course_name}` });
  await expect(approved).toHaveAttribute('data-unread', 'true');
  await expect(page.getByTestId('notification').filter({ hasText: `Payment recorded: ${payment.text}` })).toBeVisible();

  // Clicking marks it read and opens its object; the count drops.
  await approved.click();
  await expect(page).toHaveURL(/\/courses\?tab=completions/);
  await expect(page.getByRole('link', { name: 'Notifications, 1 unread' })).toBeVisible();
  await page.getByRole('link', { name: 'Notifications, 1 unread' }).click();
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByRole('link', { name: 'Notifications', exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('notification-bell')).toHaveAccessibleName('Notifications');
  // The switch lives in the URL: its state changes once the route has updated, so click and then expect.
  const unreadOnly = page.getByRole('switch', { name: 'Unread only' });
  await unreadOnly.click();
  await expect(page).toHaveURL(/unread=1/);
  await expect(unreadOnly).toBeChecked();
  await expect(page.getByText('No unread notifications')).toBeVisible();

  // Preferences: SMS is not available (no gateway); switch e-mail off for completions and save.
  await page.getByRole('tab', { name: 'Preferences' }).click();
  await expect(page.getByRole('switch', { name: 'SMS for Completion approved' })).toBeDisabled();
  await expect(page.getByRole('switch', { name: 'Email for Password changed' })).toBeDisabled();
  // An off switch says why, on the page and to a screen reader; e-mail without a mail server says it is not sent.
  await expect(page.getByRole('switch', { name: 'SMS for Completion approved' })).toHaveAccessibleDescription(
    /SMS is off: No SMS gateway is configured/,
  );
  await expect(page.getByRole('switch', { name: 'Email for Password changed' })).toHaveAccessibleDescription(
    'Only in the notification centre',
  );
  await expect(page.getByTestId('pref-email-note')).toContainText('E-mail delivery is not set up on this server yet');
  const email = page.getByRole('switch', { name: 'Email for Completion approved' });
  await email.uncheck({ force: true });
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByText('Preferences saved')).toBeVisible();
  const emailOnApproval = async () =>
    (await agent.get<{ events: { event: string; email: boolean }[] }>('/api/notifications/preferences')).events.find(
      (e) => e.event === 'completion_approved',
    )!.email;
  expect(await emailOnApproval()).toBe(false);
  await email.check({ force: true });
  await page.getByRole('button', { name: 'Save preferences' }).click();
  // (The first toast may still be up or already gone: the saved preference is what tells.)
  await expect.poll(emailOnApproval).toBe(true);

  // Calendar: create the link, shown once, and the feed answers.
  await page.getByRole('tab', { name: 'Calendar' }).click();
  // Create once the tab shows the feed's state, as a person reads it before clicking (a click while it still loads
  // creates the feed but leaves the status at 'No calendar feed': see the report of issue #24).
  const status = page.getByTestId('calendar-status');
  await expect(status).toHaveText('No calendar feed');
  await page.getByRole('button', { name: 'Create calendar link' }).click();
  const link = page.getByLabel('Your calendar link (shown once)');
  await expect(link).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  const feed = await request.get(new URL(await link.inputValue()).pathname);
  expect(feed.status()).toBe(200);
  expect(await feed.text()).toContain('BEGIN:VCALENDAR');
  await expect(status).toHaveText(/Feed active since/);
});
