import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createCourse, createUser, uid } from './fixtures/data.ts';

test.describe.configure({ timeout: 90_000 });

// The reviewer sees what backs a completion (docs/ocr.md): here none, so it says so, and approving stays a click.
test('the review of a completion without a certificate says so', async ({ page, request }) => {
  const school = await apiAs(request, 'school');
  const { course_id, course_name: courseName } = await createCourse(school, {
    course_name: `Certificate Course ${uid()}`,
    description: 'Reviewed in the browser',
    provider: 'Sam School',
    ce_hours: 2,
  });
  const agent = await apiAs(request, 'agent');
  const { completion_id } = await agent.post<{ completion_id: number }>('/api/completions', { course_id, completion_date: '2026-01-15' });
  expect(await school.get(`/api/completions/${completion_id}/certificates`)).toEqual([]);

  await signIn(page, 'school', '/courses?tab=completions');
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

// docs/ocr.md end to end: an Agent uploads a typed certificate, the server reads it in the background, the
// Documents drawer shows what was read with its confidence and a completion prefilled from it; the Agent confirms
// it (Pending, never approved), and the School reviewing it sees the certificate beside it.
test('a CE certificate is read, offers a prefilled completion, and its reviewer sees it', async ({ page, request }) => {
  // The certificate's course (server/test/fixtures/certificates/fixtures.json): its name is the certificate's, so
  // it is made once per suite run (409 after that).
  const courseName = 'Fair Housing Essentials';
  const created = await (
    await apiAs(request, 'school')
  ).raw('post', '/api/courses', {
    data: { course_name: courseName, description: 'Read from a certificate', provider: 'Realty Academy of Texas', ce_hours: 3 },
  });
  expect([200, 409]).toContain(created.status());
  // An Agent of its own: the School finds the completion by the Agent's name (the course's name is not the test's).
  const agent = await createUser(await apiAs(request, 'admin'), 'Agent', { first_name: 'Cora' });

  await signIn(page, agent, '/documents');
  await page.getByRole('button', { name: 'Upload document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload document' });
  await dialog.getByRole('combobox', { name: 'Category' }).click();
  await page.getByRole('option', { name: 'CE certificate' }).click();
  const name = `fair-housing-${uid()}.pdf`;
  await dialog.locator('input[type="file"]').setInputFiles({
    name,
    mimeType: 'application/pdf',
    buffer: fs.readFileSync(path.resolve(import.meta.dirname, '../server/test/fixtures/certificates/certificate-typed.pdf')),
  });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('row').filter({ hasText: name }).click();
  const drawer = page.getByRole('dialog', { name: 'Document' });
  const form = drawer.getByRole('form', { name: 'Record completion' });
  await expect(form).toBeVisible({ timeout: 30_000 });
  await expect(drawer.getByRole('row').filter({ hasText: 'Course' }).first()).toContainText(courseName);
  await expect(drawer.getByRole('row').filter({ hasText: 'Hours' }).first()).toContainText('3');
  await expect(form.getByRole('combobox', { name: 'Course' })).toHaveValue(new RegExp(courseName));
  await form.getByRole('button', { name: 'Record completion' }).click();
  await expect(drawer.getByText('Completion recorded; it waits for approval')).toBeVisible();

  // The School reviews it.
  await signIn(page, 'school', '/courses?tab=completions');
  const row = page
    .getByRole('row')
    .filter({ hasText: courseName })
    .filter({ hasText: `Cora ${agent.last_name}` });
  await expect(row.getByText('Pending')).toBeVisible();
  await row.getByRole('button', { name: /^Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Approve' }).click();
  const review = page.getByRole('dialog', { name: 'Approve Completion' });
  await expect(review.getByTitle(`Certificate ${name}`)).toBeVisible();
  await expect(review.getByRole('button', { name: `Download ${name}` })).toBeVisible();
  await review.getByRole('button', { name: 'Cancel' }).click();
});
