import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, signIn } from './fixtures/auth.ts';

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

async function call(request: APIRequestContext, token: string, method: 'get' | 'post', path: string, data?: Record<string, unknown>) {
  const res = await request[method](path, { headers: { authorization: `Bearer ${token}` }, ...(data ? { data } : {}) });
  expect(res.status(), `${method} ${path}`).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

test.describe.configure({ timeout: 60_000 });

test('an Agent sees its unread notifications in the bell and the notification centre, reads them, saves preferences and gets a calendar link', async ({
  page,
  request,
}) => {
  // Seed through the API: the Agent starts with nothing unread, then the Admin approves a completion and
  // records a payment for it (two notifications).
  const agent = await apiToken(request, 'agent');
  const admin = await apiToken(request, 'admin');
  await call(request, agent, 'post', '/api/notifications/read-all');
  const me = await call(request, agent, 'get', '/api/auth/me');
  const courseName = `Inbox Ethics ${unique()}`;
  const course = await call(request, admin, 'post', '/api/courses', {
    course_name: courseName,
    description: 'E2E',
    provider: 'Office',
    ce_hours: 2,
  });
  const completion = await call(request, admin, 'post', '/api/completions', {
    user_id: me.user_id,
    course_id: course.course_id,
    completion_date: '2026-01-15',
  });
  await call(request, admin, 'post', `/api/completions/${completion.completion_id}/review`, { status: 'Approved' });
  await call(request, admin, 'post', '/api/payments', { user_id: me.user_id, amount: 42 });

  await signIn(page, 'agent');
  const bell = page.getByRole('link', { name: 'Notifications, 2 unread' });
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const approved = page.getByTestId('notification').filter({ hasText: `Completion approved: ${courseName}` });
  await expect(approved).toHaveAttribute('data-unread', 'true');
  await expect(page.getByTestId('notification').filter({ hasText: 'Payment recorded: $42.00' })).toBeVisible();

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
  const email = page.getByRole('switch', { name: 'Email for Completion approved' });
  await email.uncheck({ force: true });
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByText('Preferences saved')).toBeVisible();
  const prefs = await call(request, agent, 'get', '/api/notifications/preferences');
  expect((prefs.events as { event: string; email: boolean }[]).find((e) => e.event === 'completion_approved')!.email).toBe(false);
  await email.check({ force: true });
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByText('Preferences saved')).toHaveCount(2);

  // Calendar: create the link, shown once, and the feed answers.
  await page.getByRole('tab', { name: 'Calendar' }).click();
  await page.getByRole('button', { name: /Create calendar link|Rotate link/ }).click();
  const link = page.getByLabel('Your calendar link (shown once)');
  await expect(link).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  const feed = await request.get(new URL(await link.inputValue()).pathname);
  expect(feed.status()).toBe(200);
  expect(await feed.text()).toContain('BEGIN:VCALENDAR');
  await expect(page.getByTestId('calendar-status')).toHaveText(/Feed active since/);
});
