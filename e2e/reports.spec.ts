import fs from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { parseCsv } from '../server/test/csv.ts';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createLicense, createUser, uid } from './fixtures/data.ts';
import { shown } from './fixtures/dates.ts';

/** The browser's calendar date (the Reports filters default to the last 30 days of it). */
function localDate(offsetDays = 0) {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** An Agent of its own with an FL license expiring in 12 days; returns the license number. */
async function seedLicense(request: APIRequestContext) {
  const admin = await apiAs(request, 'admin');
  const agent = await createUser(admin, 'Agent', { first_name: 'Rita' });
  const license = await createLicense(admin, {
    user_id: agent.user_id,
    license_number: `REP-${uid()}`,
    state: 'FL',
    issue_date: '2024-01-01',
    expiration_date: localDate(12),
  });
  return license.license_number;
}

/** Opens a tab and waits until it is the selected one (the tab lives in the URL and lands a moment after the click). */
async function openTab(page: Page, name: string) {
  const tab = page.getByRole('tab', { name });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

test('Overview: filters with their defaults, totals, Users by Role and Licenses by Status with percentages and charts', async ({
  page,
}) => {
  await signIn(page, 'admin', '/reports');
  await expect(page.getByRole('heading', { name: 'Reports and Analytics' })).toBeVisible();
  await expect(page.getByLabel('Start Date')).toHaveValue(shown(localDate(-30)));
  await expect(page.getByLabel('End Date')).toHaveValue(shown(localDate()));
  await expect(page.getByRole('combobox', { name: 'State' })).toHaveValue('All');
  await expect(page.getByRole('combobox', { name: 'License Status' })).toHaveValue('All');
  for (const tab of ['Overview', 'License Analytics', 'User Analytics', 'Course Analytics'])
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');

  for (const label of ['Total Users', 'Total Licenses', 'Total Courses', 'Revenue This Period'])
    await expect(page.getByTestId(`stat-${label}`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Users by Role' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Licenses by Status' })).toBeVisible();
  const roles = page.getByTestId('users-by-role');
  const colours = { Admin: 'red', Broker: 'blue', Agent: 'green', School: 'yellow' };
  for (const [role, colour] of Object.entries(colours)) {
    const row = roles.locator('tr', { hasText: role });
    await expect(row.locator('[data-color]')).toHaveAttribute('data-color', colour);
    await expect(row.locator('td').nth(2)).toHaveText(/^\d{1,3}\.\d%$/);
  }
  await expect(page.getByTestId('licenses-by-status').locator('tr', { hasText: 'Active' }).locator('td').nth(2)).toHaveText(
    /^\d{1,3}\.\d%$/,
  );
  await expect(page.locator('.recharts-wrapper').first()).toBeVisible();
});

test('the analytics tabs show their figures, and the State filter narrows licenses by state', async ({ page, request }) => {
  await seedLicense(request);
  await signIn(page, 'admin', '/reports');

  await openTab(page, 'License Analytics');
  for (const label of ['Expiring Soon (30 days)', 'Expired Licenses', 'Renewed This Period'])
    await expect(page.getByTestId(`stat-${label}`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Licenses by State' })).toBeVisible();
  await expect(page.getByTestId('licenses-by-state').locator('tr', { hasText: 'FL' })).toBeVisible();
  await page.getByRole('combobox', { name: 'State' }).click();
  await page.getByRole('option', { name: 'FL', exact: true }).click();
  const rows = page.getByTestId('licenses-by-state').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('FL');
  await expect(page.getByTestId('stat-Expiring Soon (30 days)')).toContainText(/[1-9]/);

  await openTab(page, 'User Analytics');
  for (const label of ['New Users This Period', 'Active Users', 'Inactive Users', 'Average Logins per Week']) {
    await expect(page.getByTestId(`stat-${label}`)).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Users by Brokerage' })).toBeVisible();
  await expect(page.getByTestId('users-by-brokerage')).toContainText('E2E Realty Group');

  await openTab(page, 'Course Analytics');
  for (const label of ['Total Courses', 'Completions This Period', 'Pending Approvals', 'Average Completion Time']) {
    await expect(page.getByTestId(`stat-${label}`)).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Most Popular Courses' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Completions over the Period' })).toBeVisible();
});

test('a CSV downloads from each tab and from Export All Reports, with the exact file name and a toast', async ({ page, request }) => {
  const number = await seedLicense(request);
  await signIn(page, 'admin', '/reports');
  const start = localDate(-30);
  const end = localDate();

  await openTab(page, 'License Analytics');
  const [licenses] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  expect(licenses.suggestedFilename()).toBe(`licenses_report_${start}_to_${end}.csv`);
  const text = fs.readFileSync((await licenses.path())!, 'utf8').replace(/^\uFEFF/, '');
  expect(parseCsv(text)[0]!.slice(0, 3)).toEqual(['License ID', 'License Number', 'State']);
  expect(text).toContain(number);
  await expect(page.getByText('Report exported successfully!').first()).toBeVisible();

  for (const [tab, name] of [
    ['User Analytics', 'users'],
    ['Course Analytics', 'courses'],
    ['Overview', 'comprehensive'],
  ] as const) {
    await openTab(page, tab);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
    expect(dl.suggestedFilename()).toBe(`${name}_report_${start}_to_${end}.csv`);
  }

  const [all] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export All Reports' }).click()]);
  expect(all.suggestedFilename()).toBe(`comprehensive_report_${start}_to_${end}.csv`);
  const summary = fs.readFileSync((await all.path())!, 'utf8').replace(/^\uFEFF/, '');
  expect(parseCsv(summary)[0]).toEqual(['Section', 'Metric', 'Value']);
});

test("a failed export shows 'Failed to export report'", async ({ page }) => {
  await signIn(page, 'admin', '/reports');
  await page.route('**/api/reports/comprehensive/export**', (route) => route.fulfill({ status: 500, body: '' }));
  await page.getByRole('button', { name: 'Export All Reports' }).click();
  await expect(page.getByText('Failed to export report')).toBeVisible();
});

test('other roles see the access-denied text', async ({ page }) => {
  await signIn(page, 'agent', '/reports');
  await expect(page.getByText('Access denied. Admin privileges required.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export All Reports' })).toHaveCount(0);
});
