import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createCourse, createLicense, myId, uid } from './fixtures/data.ts';

/**
 * A School records a completion of its own course (docs/decisions.md "Who may do what"): it finds the Agent by
 * license number, picks one of its own courses (another provider's are not offered) and the Agent's license, and
 * the completion is listed Approved at once, the license's CE hours moved.
 */
async function setup(request: APIRequestContext) {
  const tag = uid();
  const admin = await apiAs(request, 'admin');
  const course = await createCourse(await apiAs(request, 'school'), {
    course_name: `School Recorded ${tag}`,
    description: 'Reported by its provider',
    provider: 'Sam School',
    ce_hours: 2.5,
  });
  // An Admin course: not the School's to record.
  const adminCourse = await createCourse(admin, {
    course_name: `Admin Only ${tag}`,
    description: 'In-house',
    provider: 'Office',
    ce_hours: 1,
  });
  const license = await createLicense(admin, {
    user_id: await myId(await apiAs(request, 'agent')),
    license_number: `SCH-${tag}`,
    issue_date: '2024-01-01',
    expiration_date: '2028-01-01',
    ce_hours_required: 45,
  });
  const ceHours = async () => {
    const list = await admin.get<Array<{ license_id: number; ce_hours_completed: number }>>('/api/licenses');
    return list.find((l) => l.license_id === license.license_id)!.ce_hours_completed;
  };
  return { courseName: course.course_name, adminCourseName: adminCourse.course_name, licenseNumber: license.license_number, ceHours };
}

test('a School records a completion of its own course for an Agent and sees it Approved', async ({ page, request }) => {
  const s = await setup(request);
  expect(await s.ceHours()).toBe(0);

  await signIn(page, 'school', '/courses?tab=completions');
  await expect(page.getByRole('tab', { name: 'Completions' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'Record Completion' }).click();
  const modal = page.getByRole('dialog', { name: 'Record Completion' });
  await expect(modal).toContainText('As the course provider, the completion you record is approved at once');
  await expect(modal.getByLabel('Rating')).toHaveCount(0);

  // The person is required, found on the server by license number.
  await modal.getByRole('button', { name: 'Record Completion' }).click();
  await expect(modal.getByText('Person is required')).toBeVisible();
  await modal.getByLabel(/^Person/).fill(s.licenseNumber);
  await page.getByRole('option', { name: /Alice Agent/ }).click();
  await expect(modal.getByLabel(/^Person/)).toHaveValue('Alice Agent');

  // Only the School's own courses are offered.
  await modal.getByLabel(/^Course/).fill(s.adminCourseName);
  await expect(page.getByText('No courses found')).toBeVisible();
  await modal.getByLabel(/^Course/).fill(s.courseName);
  await page.getByRole('option', { name: s.courseName }).click();
  await expect(modal.getByLabel('Hours')).toHaveAttribute('placeholder', '2.5');

  await modal.getByLabel('License').click();
  await page.getByRole('option', { name: new RegExp(s.licenseNumber) }).click();
  await modal.getByRole('button', { name: 'Record Completion' }).click();
  await expect(page.getByText('Completion recorded and approved!')).toBeVisible();
  await expect(modal).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: s.courseName });
  await expect(row).toContainText('Alice Agent');
  await expect(row).toContainText(s.licenseNumber);
  await expect(row.getByText('Approved')).toBeVisible();
  expect(await s.ceHours()).toBe(2.5);
});
