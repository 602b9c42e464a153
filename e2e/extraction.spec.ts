import { expect, test } from '@playwright/test';
import { apiToken, signIn } from './fixtures/auth.ts';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

test.describe.configure({ timeout: 60_000 });

// The reviewer sees what backs a completion (docs/ocr.md): here none, so it says so, and approving stays a click.
test('the review of a completion without a certificate says so', async ({ page, request }) => {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const schoolToken = await apiToken(request, 'school');
  const agentToken = await apiToken(request, 'agent');
  const courseName = `Certificate Course ${stamp}`;
  const course = await request.post('/api/courses', {
    headers: auth(schoolToken),
    data: { course_name: courseName, description: 'Reviewed in the browser', provider: 'Sam School', ce_hours: 2 },
  });
  expect(course.status()).toBe(200);
  const { course_id } = (await course.json()) as { course_id: number };
  const done = await request.post('/api/completions', { headers: auth(agentToken), data: { course_id, completion_date: '2026-01-15' } });
  expect(done.status()).toBe(200);
  const { completion_id } = (await done.json()) as { completion_id: number };
  const certs = await request.get(`/api/completions/${completion_id}/certificates`, { headers: auth(schoolToken) });
  expect(await certs.json()).toEqual([]);

  await signIn(page, 'school');
  await page.goto('/courses?tab=completions');
  const r = page.getByRole('row').filter({ hasText: courseName });
  await r.getByRole('button', { name: /^Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Approve' }).click();
  const review = page.getByRole('dialog', { name: 'Approve Completion' });
  await expect(review.getByRole('heading', { name: 'Certificate' })).toBeVisible();
  await expect(review.getByText('No certificate uploaded')).toBeVisible();
  await expect(review.getByRole('button', { name: 'Approve' })).toBeEnabled();
  await review.getByRole('button', { name: 'Cancel' }).click();
  await expect(r.getByText('Pending')).toBeVisible();
});
