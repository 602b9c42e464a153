import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiAs, type Api } from './fixtures/api.ts';
import { logOut, signIn, type Who } from './fixtures/auth.ts';
import { createCourse, createLicense, ensureCeRule, myId, uid } from './fixtures/data.ts';
import { holdRequest } from './fixtures/network.ts';
import { atPhoneWidth, card, expectInView, phoneShot } from './fixtures/phone.ts';
import { row } from './fixtures/ui.ts';

interface Setup {
  courseId: number;
  courseName: string;
  licenseId: number;
  licenseNumber: string;
  admin: Api;
}

/** A School course worth `hours` CE hours and a fresh license for the e2e Agent, through the REST API. */
async function setup(request: APIRequestContext, hours: number): Promise<Setup> {
  const tag = uid();
  const admin = await apiAs(request, 'admin');
  const course = await createCourse(await apiAs(request, 'school'), {
    course_name: `CE Course ${tag}`,
    description: 'Approved in the browser',
    provider: 'Sam School',
    ce_hours: hours,
  });
  const license = await createLicense(admin, {
    user_id: await myId(await apiAs(request, 'agent')),
    license_number: `E2E-${tag}`,
    issue_date: '2024-01-01',
    expiration_date: '2028-01-01',
    ce_hours_required: 45,
    ce_hours_completed: 10,
  });
  return {
    courseId: course.course_id,
    courseName: course.course_name,
    licenseId: license.license_id,
    licenseNumber: license.license_number,
    admin,
  };
}

async function ceHours(s: Setup): Promise<number> {
  const list = await s.admin.get<Array<{ license_id: number; ce_hours_completed: number }>>('/api/licenses');
  return list.find((l) => l.license_id === s.licenseId)!.ce_hours_completed;
}

/** The Completions tab of the Courses screen; signed in as `who` first when told. */
async function openCompletions(page: Page, who?: Who) {
  if (who) await signIn(page, who, '/courses?tab=completions');
  else await page.goto('/courses?tab=completions');
  await expect(page.getByRole('tab', { name: 'Completions' })).toHaveAttribute('aria-selected', 'true');
}

/** A review from the row's actions menu: Approve, Reject or Move back to Pending. */
async function reviewFrom(r: Locator, action: string) {
  await r.getByRole('button', { name: /^Actions for/ }).click();
  await r.page().getByRole('menuitem', { name: action }).click();
}

// Each test signs in twice (argon2) and walks a whole review: give it room on a busy machine.
test.describe.configure({ timeout: 60_000 });

test('an Agent records a completion, the School approves it and the license CE hours move', async ({ page, browser, request }) => {
  const s = await setup(request, 3.5);
  expect(await ceHours(s)).toBe(10);

  await openCompletions(page, 'agent');
  await page.getByRole('button', { name: 'Record Completion' }).click();
  const modal = page.getByRole('dialog', { name: 'Record Completion' });
  await expect(modal.getByLabel('Person')).toHaveCount(0);
  await modal.getByRole('button', { name: 'Record Completion' }).click();
  await expect(modal.getByText('Course is required')).toBeVisible();
  await modal.getByLabel(/^Course/).fill(s.courseName);
  await page.getByRole('option', { name: s.courseName }).click();
  await modal.getByLabel('License').click();
  await page.getByRole('option', { name: new RegExp(s.licenseNumber) }).click();
  await expect(modal.getByLabel('Hours')).toHaveAttribute('placeholder', '3.5');
  await modal.getByRole('button', { name: 'Record Completion' }).click();
  await expect(page.getByText('Completion recorded successfully!')).toBeVisible();
  const agentRow = row(page, s.courseName);
  await expect(agentRow.getByText('Pending')).toBeVisible();
  await expect(agentRow).toContainText(s.licenseNumber);
  // An Agent cannot review.
  await expect(agentRow.getByRole('button', { name: /^Actions for/ })).toHaveCount(0);

  const schoolContext = await browser.newContext();
  const school = await schoolContext.newPage();
  await openCompletions(school, 'school');
  const r = row(school, s.courseName);
  await expect(r).toContainText('Alice Agent');
  await reviewFrom(r, 'Approve');
  const review = school.getByRole('dialog', { name: 'Approve Completion' });
  await expect(review).toContainText('The hours will be added to the license.');
  await review.getByLabel('Note').fill('Certificate verified');
  await review.getByRole('button', { name: 'Approve' }).click();
  await expect(school.getByText('Completion approved successfully!')).toBeVisible();
  await expect(r.getByText('Approved')).toBeVisible();
  await expect(r).toContainText('Certificate verified');
  expect(await ceHours(s)).toBe(13.5);
  // The Agent sees the license's CE bar move on the License Management screen.
  await page.goto(`/licenses?search=${s.licenseNumber}`);
  await expect(row(page, s.licenseNumber).getByTestId('ce-progress')).toHaveText('13.5 / 45 hrs');

  // Reversing the approval takes the hours back.
  await reviewFrom(r, 'Reject');
  const reject = school.getByRole('dialog', { name: 'Reject Completion' });
  await expect(reject).toContainText('The approved hours will be taken back from the license.');
  await reject.getByLabel('Note').fill('Wrong licensee on the certificate');
  await reject.getByRole('button', { name: 'Reject' }).click();
  await expect(school.getByText('Completion rejected successfully!')).toBeVisible();
  await expect(r.getByText('Rejected')).toBeVisible();
  await expect(r).toContainText('Wrong licensee on the certificate');
  expect(await ceHours(s)).toBe(10);
  await schoolContext.close();

  await page.reload();
  await expect(row(page, s.licenseNumber).getByTestId('ce-progress')).toHaveText('10 / 45 hrs');
  await openCompletions(page);
  await expect(row(page, s.courseName).getByText('Rejected')).toBeVisible();
});

test('a Broker records for its agent and an Admin moves a completion back to Pending', async ({ page, request }) => {
  const s = await setup(request, 2);
  await openCompletions(page, 'broker');
  await page.getByRole('button', { name: 'Record Completion' }).click();
  const modal = page.getByRole('dialog', { name: 'Record Completion' });
  await modal.getByLabel(/^Person/).fill('Alice');
  await page.getByRole('option', { name: 'Alice Agent (Agent)' }).click();
  await modal.getByLabel(/^Course/).fill(s.courseName);
  await page.getByRole('option', { name: s.courseName }).click();
  await modal.getByLabel('License').click();
  await page.getByRole('option', { name: new RegExp(s.licenseNumber) }).click();
  const release = await holdRequest(page, '**/trpc/completions.create**');
  await modal.getByRole('button', { name: 'Record Completion' }).click();
  await expect(modal.getByRole('button', { name: 'Saving...' })).toBeVisible();
  release();
  await expect(page.getByText('Completion recorded successfully!')).toBeVisible();
  await expect(row(page, s.courseName)).toContainText('Alice Agent');

  await logOut(page);
  await openCompletions(page, 'admin');
  const r = row(page, s.courseName);
  await reviewFrom(r, 'Approve');
  await page.getByRole('dialog', { name: 'Approve Completion' }).getByRole('button', { name: 'Approve' }).click();
  await expect(r.getByText('Approved')).toBeVisible();
  expect(await ceHours(s)).toBe(12);
  await reviewFrom(r, 'Move back to Pending');
  await page.getByRole('dialog', { name: 'Move Completion back to Pending' }).getByRole('button', { name: 'Move back to Pending' }).click();
  await expect(page.getByText('Completion moved back to Pending')).toBeVisible();
  await expect(r.getByText('Pending')).toBeVisible();
  expect(await ceHours(s)).toBe(10);
});

test('at phone width a School opens the Courses, CE rules and Completions lists and approves a completion from its detail', async ({
  page,
  request,
}, testInfo) => {
  const s = await setup(request, 2.5);
  await (
    await apiAs(request, 'agent')
  ).post('/api/completions', {
    course_id: s.courseId,
    license_id: s.licenseId,
    completion_date: '2025-06-01',
  });
  // A CE rule to list (the browser suite's database starts without any); WY Broker is this file's.
  await ensureCeRule(s.admin, { state: 'WY', license_type: 'Broker', hours_required: 24, topics: [{ topic: 'Ethics', hours: 3 }] });

  await atPhoneWidth(page);
  await signIn(page, 'school', '/courses');
  // Below 600 px the lists' rows are cards.
  const course = card(page, s.courseName);
  await expect(course).toBeVisible();
  await expect(page.getByText(/^Showing 1 to \d+ of \d+ courses$/)).toBeVisible();
  await expectInView(course.getByRole('button', { name: `Actions for ${s.courseName}` }));
  await phoneShot(page, testInfo, 'courses-list');
  // A row opens the course's detail with its completions.
  await course.getByText(s.courseName).click();
  const courseDrawer = page.getByRole('dialog', { name: s.courseName });
  await expect(courseDrawer).toContainText('Sam School');
  await expect(courseDrawer.getByRole('row').filter({ hasText: 'Alice Agent' })).toContainText('Pending');
  await phoneShot(page, testInfo, 'course-drawer');
  await page.keyboard.press('Escape');
  await expect(courseDrawer).toBeHidden();

  await page.goto('/ce-rules');
  await expect(page.getByRole('heading', { name: 'State CE Rules' })).toBeVisible();
  await expect(card(page, 'WY')).toContainText('Ethics: 3 h');
  await expect(page.getByText(/^Showing 1 to \d+ of \d+ CE rules$/)).toBeVisible();
  await phoneShot(page, testInfo, 'ce-rules-list');

  await openCompletions(page);
  const r = card(page, s.courseName);
  await expect(r).toContainText('Pending');
  await expectInView(r.getByRole('button', { name: /^Actions for/ }));
  await phoneShot(page, testInfo, 'completions-list');

  // The row opens the completion's detail; the School approves from there.
  await r.getByText(s.courseName).click();
  const detail = page.getByRole('dialog', { name: 'Completion', exact: true });
  await expect(detail).toContainText(s.licenseNumber);
  await expect(detail).toContainText('Alice Agent');
  await expectInView(detail.getByRole('button', { name: 'Approve' }));
  await detail.getByRole('button', { name: 'Approve' }).click();
  const review = page.getByRole('dialog', { name: 'Approve Completion' });
  await review.getByLabel('Note').fill('Checked on a phone');
  await expectInView(review.getByRole('button', { name: 'Approve' }));
  await review.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Completion approved successfully!')).toBeVisible();
  await expect(detail.getByText('Approved', { exact: true })).toBeVisible();
  await expect(detail).toContainText('Checked on a phone');
  await phoneShot(page, testInfo, 'completion-approved');
  expect(await ceHours(s)).toBe(12.5);
});
