import { expect, test } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createCourse, createLicense, createUser, uid } from './fixtures/data.ts';
import { shown } from './fixtures/dates.ts';

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
// Documents drawer shows what was read, what a second source confirms, and a completion prefilled from it; the Agent confirms
// it (Pending, never approved), and the School reviewing it sees the certificate beside it.
test('a CE certificate is read, offers a prefilled completion, and its reviewer sees it', async ({ page, request }) => {
  // A course of its own, and a certificate printed for it (another person's: Jane Q. Smith's).
  const courseName = `Fair Housing ${uid()
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)
    .slice(-8)}`;
  await createCourse(await apiAs(request, 'school'), {
    course_name: courseName,
    description: 'Read from a certificate',
    provider: 'Realty Academy of Texas',
    ce_hours: 3,
  });
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
    buffer: await certificatePdf(courseName),
  });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('row').filter({ hasText: name }).click();
  const drawer = page.getByRole('dialog', { name: 'Document' });
  const form = drawer.getByRole('form', { name: 'Record completion' });
  await expect(form).toBeVisible({ timeout: 30_000 });
  await expect(drawer.getByRole('row').filter({ hasText: 'Course' }).first()).toContainText(courseName);
  // Green only where a second source agrees (docs/ocr.md "Judge"): the catalogue confirms the hours; the name on
  // the certificate is not the uploader's, so it is amber "Check this", said in words above the values.
  const values = drawer.getByRole('table', { name: 'Values read from the certificate' });
  await expect(values.getByRole('row', { name: /^Hours/ })).toContainText('3');
  await expect(values.getByRole('row', { name: /^Hours/ })).toContainText('Confirmed');
  await expect(values.getByRole('row', { name: /^Name/ })).toContainText('Check this');
  await expect(
    drawer.getByRole('alert').filter({ hasText: `The name on the certificate is Jane Q. Smith, not Cora ${agent.last_name}` }),
  ).toBeVisible();
  await expect(form.getByRole('combobox', { name: 'Course' })).toHaveValue(new RegExp(courseName));
  // Submitted from the keyboard (Enter in a field), as a person finishing the form does.
  await form.getByRole('textbox', { name: 'Hours' }).press('Enter');
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

/** A typed certificate of one course, as a school's system prints it (a text layer, labelled values). */
async function certificatePdf(courseName: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([792, 612]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const lines: Array<[string, number, typeof font, number]> = [
    ['Realty Academy of Texas', 540, bold, 18],
    ['Certificate of Completion', 500, bold, 16],
    ['This certifies that Jane Q. Smith', 460, font, 12],
    ['has successfully completed the course', 440, font, 12],
    [courseName, 415, bold, 14],
    ['Provider: Realty Academy of Texas', 380, font, 12],
    ['Credit Hours: 3', 360, font, 12],
    ['Date of Completion: March 3, 2026', 340, font, 12],
    ['License #: SA-123456', 320, font, 12],
  ];
  for (const [text, y, f, size] of lines) page.drawText(text, { x: 60, y, size, font: f });
  return Buffer.from(await pdf.save());
}

/** A transcript of several courses as a school's system prints it: a table with the courses' approval numbers. */
async function transcriptPdf(student: string, licenseNumber: string, rows: Array<[string, string, string, string]>): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const line = (text: string, x: number, y: number, f = font, size = 11) => page.drawText(text, { x, y, size, font: f });
  line('Lone Star Real Estate School', 50, 730, bold, 16);
  line('Continuing Education Transcript', 50, 700, bold, 14);
  line(`Student: ${student}`, 50, 670);
  line(`License #: ${licenseNumber}`, 330, 670);
  const cols = [50, 300, 420, 490];
  ['Course', 'Approval #', 'Hours', 'Date Completed'].forEach((h, i) => line(h, cols[i]!, 630, bold));
  rows.forEach((row, r) => row.forEach((cell, i) => line(cell, cols[i]!, 605 - r * 22)));
  return Buffer.from(await pdf.save());
}

// docs/ocr.md "Judge": a transcript offers one completion per course, each prefilled from its own line, and records
// them all together (each Pending, each backed by the transcript).
test('a transcript offers one completion per course and records them all', async ({ page, request }) => {
  const tag = uid();
  const letters = tag.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
  const school = await apiAs(request, 'school');
  const titles = ['Agency Disclosure', 'Contract Writing', 'Property Management'].map((t) => `${t} ${letters.slice(-6)}`);
  const courses: Array<{ course_id: number }> = [];
  for (const [i, title] of titles.entries()) {
    courses.push(
      await createCourse(school, {
        course_name: title,
        provider: 'Lone Star Real Estate School',
        ce_hours: i + 2,
        approval_number: `TR${tag.slice(-6)}${i}`,
        approval_state: 'TX',
      }),
    );
  }
  const admin = await apiAs(request, 'admin');
  const agent = await createUser(admin, 'Agent', { first_name: 'Tess' });
  const license = await createLicense(admin, { user_id: agent.user_id, state: 'TX', license_number: `TX${tag.slice(-7)}` });
  const rows = titles.map((title, i): [string, string, string, string] => [
    title,
    `TR${tag.slice(-6)}${i}`,
    String(i + 2),
    `09/1${i + 2}/2026`,
  ]);
  const name = `transcript-${tag}.pdf`;

  await signIn(page, agent, '/documents');
  await page.getByRole('button', { name: 'Upload document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload document' });
  await dialog.getByRole('combobox', { name: 'Category' }).click();
  await page.getByRole('option', { name: 'CE certificate' }).click();
  await dialog.locator('input[type="file"]').setInputFiles({
    name,
    mimeType: 'application/pdf',
    buffer: await transcriptPdf(`Tess ${agent.last_name}`, license.license_number, rows),
  });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('row').filter({ hasText: name }).click();
  const drawer = page.getByRole('dialog', { name: 'Document' });
  const form = drawer.getByRole('form', { name: 'Record completions' });
  await expect(form).toBeVisible({ timeout: 30_000 });
  await expect(drawer.getByRole('alert').filter({ hasText: '3 courses found: pick one or record all' })).toBeVisible();
  for (const [i, title] of titles.entries()) {
    const section = form.getByRole('region', { name: `Course ${i + 1} of 3` });
    await expect(section.getByRole('combobox', { name: 'Course' })).toHaveValue(new RegExp(title));
    await expect(section.getByRole('textbox', { name: 'Hours' })).toHaveValue(String(i + 2));
    await expect(section.getByRole('textbox', { name: 'Completion date' })).toHaveValue(shown(`2026-09-1${i + 2}`));
  }
  await form.getByRole('button', { name: 'Record all' }).click();
  await expect(drawer.getByText('Completions recorded; they wait for approval')).toBeVisible();

  const recorded = await (
    await apiAs(request, agent)
  ).get<Array<{ course_id: number; status: string }>>(`/api/completions?user_id=${agent.user_id}`);
  const mine = recorded.filter((c) => courses.some((k) => k.course_id === c.course_id));
  expect(mine.map((c) => c.status)).toEqual(['Pending', 'Pending', 'Pending']);
});
