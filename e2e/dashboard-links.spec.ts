import { expect, test, type Page } from '@playwright/test';
import { addDays, localDateString } from '@lm/shared';
import { apiAs } from './fixtures/api.ts';
import { signIn, type Who } from './fixtures/auth.ts';
import { createCourse, createLicense, createUser, uid, uniqueAmount } from './fixtures/data.ts';
import { atPhoneWidth } from './fixtures/phone.ts';
import { shown } from './fixtures/dates.ts';

/** The server's calendar: the specs run in its time zone (TZ, e2e/playwright.config.ts). */
const dayFromNow = (days: number) => addDays(localDateString(), days);

/** A stat card's figure as a number ('1,234' -> 1234; '$120.75' -> 120.75). */
async function figureOf(page: Page, key: string): Promise<number> {
  const value = page.getByTestId(`stat-${key}`);
  await expect(value).toHaveText(/\d/, { timeout: 20_000 });
  return Number((await value.innerText()).replace(/[^\d.]/g, ''));
}

/** The total a list says it holds: 'Showing 1 to 20 of 57 licenses', or 0 when it says 'No licenses found'. */
async function listTotal(page: Page): Promise<number> {
  const showing = page.getByText(/^Showing \d+ to \d+ of [\d,]+ /).first();
  // The table keeps its empty text in the page, hidden, while it has rows: only a visible one counts.
  const none = page.getByText(/^No \w+ found$/);
  const said = async () => ((await showing.isVisible()) ? 'rows' : (await none.isVisible()) ? 'none' : '');
  await expect.poll(said, { timeout: 20_000 }).not.toBe('');
  if (!(await showing.isVisible())) return 0;
  return Number(/of ([\d,]+) /.exec(await showing.innerText())![1]!.replace(/,/g, ''));
}

/** Back to the dashboard as a person goes, by the sidebar (no reload of the whole app). */
async function toDashboard(page: Page) {
  if (new URL(page.url()).pathname !== '/dashboard') {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard' }).click();
  }
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * Each of the role's cards opens a list (the card is a link carrying the list's filter in its URL) whose total is
 * the card's figure. Other specs change the data beside this one, so one reading of a card and its list is retried
 * until they are read between two changes.
 */
async function eachCardOpensItsCount(page: Page, who: Who, keys: string[]) {
  await signIn(page, who);
  for (const key of keys) {
    await expect(async () => {
      await toDashboard(page);
      const figure = await figureOf(page, key);
      const card = page.getByRole('link').filter({ has: page.getByTestId(`stat-${key}`) });
      const href = await card.getAttribute('href');
      expect(href, `${key} is a link`).toMatch(/^\/(users|licenses|courses|payments)/);
      await card.click();
      await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === href);
      expect(await listTotal(page), `${key}: ${href}`).toBe(figure);
    }).toPass({ timeout: 60_000 });
  }
}

test('as Admin, each stat card opens a list whose total is its figure', async ({ page }) => {
  test.slow(); // eight cards, each a dashboard and a list
  await eachCardOpensItsCount(page, 'admin', [
    'total_users',
    'total_licenses',
    'at_risk',
    'expired',
    'expiring_licenses',
    'total_courses',
    'total_completions',
    'pending_completions',
  ]);
});

test('as Broker, each stat card opens a list whose total is its figure', async ({ page }) => {
  test.slow();
  await eachCardOpensItsCount(page, 'broker', [
    'total_agents',
    'agent_licenses',
    'at_risk',
    'expired',
    'expiring_agent_licenses',
    'agent_completions',
  ]);
});

test('as Agent, each stat card opens its list: licenses and completions by total, payments by the Completed ones', async ({
  page,
  request,
}) => {
  const admin = await apiAs(request, 'admin');
  const agent = await createUser(admin, 'Agent', { first_name: 'Linh' });
  await createLicense(admin, { user_id: agent.user_id, issue_date: '2024-01-01', expiration_date: dayFromNow(6) });
  await createLicense(admin, { user_id: agent.user_id, issue_date: '2024-01-01', expiration_date: dayFromNow(400) });
  const course = await createCourse(admin);
  await (await apiAs(request, agent)).post('/api/completions', { course_id: course.course_id, completion_date: dayFromNow(-3) });
  const paid = uniqueAmount(40);
  await admin.post('/api/payments', { user_id: agent.user_id, amount: paid.amount });
  await admin.post('/api/payments', { user_id: agent.user_id, amount: 10, status: 'Failed' });

  await eachCardOpensItsCount(page, agent, ['my_licenses', 'my_completions']);
  expect(await figureOfDashboard(page, 'my_licenses')).toBe(2);

  // My Payments is money: it opens the Completed payments, whose revenue is the figure.
  await toDashboard(page);
  await expect(page.getByTestId('stat-my_payments')).toHaveText(paid.text);
  await page
    .getByRole('link')
    .filter({ has: page.getByTestId('stat-my_payments') })
    .click();
  await expect(page).toHaveURL(/\/payments\?status=Completed$/);
  expect(await listTotal(page)).toBe(1);
  await expect(page.getByTestId('stat-Total Revenue')).toHaveText(paid.text);
});

async function figureOfDashboard(page: Page, key: string) {
  await toDashboard(page);
  return figureOf(page, key);
}

test('a School is greeted by its name, sees what waits for its approval, and each of its cards opens its count', async ({
  page,
  request,
}) => {
  const admin = await apiAs(request, 'admin');
  const tag = uid();
  const school = await createUser(admin, 'School', { first_name: 'Harbor', last_name: `Realty Academy ${tag}` });
  const schoolApi = await apiAs(request, school);
  const course = await createCourse(schoolApi, { course_name: `Agency Basics ${tag}` });
  const agent = await createUser(admin, 'Agent', { first_name: 'Pia' });
  await createLicense(admin, { user_id: agent.user_id });
  await (await apiAs(request, agent)).post('/api/completions', { course_id: course.course_id, completion_date: dayFromNow(0) });

  await signIn(page, school);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome back, Harbor Realty Academy ${tag}!`);
  await expect(page.getByTestId('expiring-licenses')).toHaveCount(0);
  const pending = page.getByTestId('pending-approvals');
  await expect(pending.getByRole('heading', { name: 'Pending Approvals' })).toBeVisible();
  await expect(pending.getByTestId('pending-item')).toHaveCount(1);
  await expect(pending.getByTestId('pending-item')).toContainText(`Agency Basics ${tag}`);
  await pending.getByRole('link', { name: `Pia ${agent.last_name}` }).click();
  await expect(page).toHaveURL(/tab=completions&completion_status=Pending&search=/);
  expect(await listTotal(page)).toBe(1);
  await expect(page.getByRole('cell', { name: `Agency Basics ${tag}`, exact: true })).toBeVisible();

  await eachCardOpensItsCount(page, school, ['pending_completions', 'completions_this_month', 'course_completions', 'my_courses']);
  expect(await figureOfDashboard(page, 'my_courses')).toBe(1);
  expect(await figureOfDashboard(page, 'pending_completions')).toBe(1);
});

test('at 390 px the Agent sees its expiring license above Recent Activity, and nothing moves while the dashboard loads', async ({
  page,
  request,
}) => {
  const admin = await apiAs(request, 'admin');
  const agent = await createUser(admin, 'Agent', { first_name: 'Cleo' });
  const number = `CLS-${uid()}`;
  await createLicense(admin, { user_id: agent.user_id, license_number: number, issue_date: '2024-01-01', expiration_date: dayFromNow(6) });
  for (let i = 0; i < 3; i++) await admin.post('/api/payments', { user_id: agent.user_id, amount: uniqueAmount(20 + i).amount });

  await atPhoneWidth(page);
  await signIn(page, agent);
  // Measured on a fresh load of the page, every layout shift from its start (buffered).
  await page.reload();
  const expiring = page.getByTestId('expiring-licenses');
  const activity = page.getByTestId('recent-activity');
  await expect(expiring.getByTestId('expiring-item').filter({ hasText: number })).toContainText('6 days');
  await expect(activity.locator('li').first()).toBeVisible();
  await expect(page.getByTestId('ce-progress')).toBeVisible();
  const top = async (l: typeof expiring) => (await l.boundingBox())!.y;
  expect(await top(expiring)).toBeLessThan(await top(activity));
  expect(await top(expiring)).toBeLessThan(await top(page.getByTestId('ce-progress')));

  const cls = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let sum = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
            if (!entry.hadRecentInput) sum += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        // The buffered entries arrive in the observer's first callback; a frame later every one is counted.
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(sum)));
      }),
  );
  test.info().annotations.push({ type: 'cls', description: cls.toFixed(4) });
  await page.screenshot({ path: test.info().outputPath('dashboard-390.png'), fullPage: true });
  expect(cls).toBeLessThan(0.05);
});

test('Recent Activity says what became of each event: a pending completion recorded, on its own date; a failed payment failed', async ({
  page,
  request,
}) => {
  const admin = await apiAs(request, 'admin');
  const agent = await createUser(admin, 'Agent', { first_name: 'Ravi' });
  const course = await createCourse(admin);
  await (await apiAs(request, agent)).post('/api/completions', { course_id: course.course_id, completion_date: '2026-11-22' });
  const failed = uniqueAmount(30);
  await admin.post('/api/payments', { user_id: agent.user_id, amount: failed.amount, status: 'Failed' });

  await signIn(page, agent);
  const activity = page.getByTestId('recent-activity');
  const completion = activity.locator('li[data-type="completion_created"]');
  await expect(completion).toContainText(`Completion of ${course.course_name} by Ravi ${agent.last_name} recorded, awaiting approval`);
  // The day it was completed, as stored: no time zone moves it to the 23rd.
  await expect(completion).toContainText(`Completed ${shown('2026-11-22')}`);
  await expect(activity).not.toContainText(' completed ');
  const payment = activity.locator('li[data-type="payment_created"]');
  await expect(payment).toContainText(`Failed payment of ${failed.text} from Ravi ${agent.last_name}`);
  await expect(payment).toHaveAttribute('data-status', 'Failed');
});

test('an Agent who types /users sees the access-denied text and no Add User button', async ({ page }) => {
  await signIn(page, 'agent', '/users');
  await expect(page.getByText('Access denied. Users are available to Admins and Brokers.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'User Management' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add User' })).toHaveCount(0);
});
