import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, signIn } from './fixtures/auth.ts';

/**
 * A School records a completion of its own course (docs/decisions.md "Who may do what"): it finds the Agent by
 * license number, picks one of its own courses (another provider's are not offered) and the Agent's license, and
 * the completion is listed Approved at once, the license's CE hours moved.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function setup(request: APIRequestContext) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const adminToken = await apiToken(request, 'admin');
  const schoolToken = await apiToken(request, 'school');
  const agentToken = await apiToken(request, 'agent');
  const courseName = `School Recorded ${stamp}`;
  const course = await request.post('/api/courses', {
    headers: auth(schoolToken),
    data: { course_name: courseName, description: 'Reported by its provider', provider: 'Sam School', ce_hours: 2.5 },
  });
  expect(course.status()).toBe(200);
  // An Admin course: not the School's to record.
  const adminCourseName = `Admin Only ${stamp}`;
  const adminCourse = await request.post('/api/courses', {
    headers: auth(adminToken),
    data: { course_name: adminCourseName, description: 'In-house', provider: 'Office', ce_hours: 1 },
  });
  expect(adminCourse.status()).toBe(200);
  const me = (await (await request.get('/api/auth/me', { headers: auth(agentToken) })).json()) as { user_id: number };
  const licenseNumber = `SCH-${stamp}`;
  const license = await request.post('/api/licenses', {
    headers: auth(adminToken),
    data: {
      user_id: me.user_id,
      license_number: licenseNumber,
      state: 'CA',
      issue_date: '2024-01-01',
      expiration_date: '2028-01-01',
      ce_hours_required: 45,
    },
  });
  expect(license.status()).toBe(200);
  const licenseId = ((await license.json()) as { license_id: number }).license_id;
  const ceHours = async () => {
    const res = await request.get('/api/licenses', { headers: auth(adminToken) });
    const list = (await res.json()) as Array<{ license_id: number; ce_hours_completed: number }>;
    return list.find((l) => l.license_id === licenseId)!.ce_hours_completed;
  };
  return { courseName, adminCourseName, licenseNumber, ceHours };
}

test('a School records a completion of its own course for an Agent and sees it Approved', async ({ page, request }) => {
  const s = await setup(request);
  expect(await s.ceHours()).toBe(0);

  await signIn(page, 'school');
  await page.goto('/courses?tab=completions');
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
  await modal.getByLabel(/^Course/).click();
  await expect(page.getByRole('option', { name: s.courseName })).toBeVisible();
  await expect(page.getByRole('option', { name: s.adminCourseName })).toHaveCount(0);
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
