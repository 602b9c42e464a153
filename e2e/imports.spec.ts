import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createCourse, createLicense, myId, uid } from './fixtures/data.ts';
import { parseCsv } from '../server/test/csv.ts';

/**
 * Imports in the browser (issue #28, must-show 6; docs/product.md "Imports"): an Admin imports an office's roster
 * from Users (its own headers, a few bad rows), checks the guessed mapping, maps one column itself, previews,
 * commits, downloads the errors file and undoes the import from the history; a School imports completions of its
 * own course from Courses › Completions and the holder's CE hours move as with a single completion.
 */

/** The file's input inside the Dropzone (its Choose button opens the same chooser). */
const chooseFile = (page: Page, name: string, text: string, mimeType = 'text/csv') =>
  page.locator('main input[type="file"]').setInputFiles({ name, mimeType, buffer: Buffer.from(text, 'utf8') });

const mappingSelect = (page: Page, column: string) => page.getByRole('combobox', { name: `Field for the column ${column}` });
const stat = (page: Page, action: string) => page.getByTestId(`stat-import-${action}`);

/** A calendar date `days` before today (UTC), YYYY-MM-DD. */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

test('an Admin imports an office’s roster from Users: mapping, preview, commit, errors file and undo', async ({ page, request }) => {
  const tag = uid();
  const good = [1, 2, 3, 4, 5, 6].map((n) => ({
    first: `Ima${n}`,
    last: `Porter${tag}`,
    email: `ima${n}.${tag}@e2e.test`,
    lic: `IMP${tag}${n}`,
  }));
  const brokerage = `Harbor, Lane & Co ${tag}`;
  // The office's own words for the columns, semicolons, a byte-order mark, a quoted cell with a comma, mixed dates.
  const header = 'Given name;Surname;E-mail;Mobile;Broker Office;Lic No;State;Lic Type;Issued;Exp. Date;Notes';
  const lines = good.map(
    (p, i) =>
      `${p.first};${p.last};${p.email};555-010${i};"${brokerage}";${p.lic};FL;Sales;2024-01-15;${i % 2 ? 'Jan 31, 2028' : '2028-01-31'};first import`,
  );
  const bad = [
    `Bad;Mail${tag};not-an-email;;"${brokerage}";IMPX${tag}1;FL;Sales;2024-01-15;2028-01-31;typo`,
    `Bad;;noname.${tag}@e2e.test;;"${brokerage}";IMPX${tag}2;FL;Sales;2024-01-15;2028-01-31;no last name`,
    `Bad;Date${tag};baddate.${tag}@e2e.test;;"${brokerage}";IMPX${tag}3;FL;Sales;2024-01-15;31/31/2028;bad date`,
  ];
  const csv = `\uFEFF${[header, ...lines, ...bad].join('\r\n')}\r\n`;
  const fileName = `roster-${tag}.csv`;

  await signIn(page, 'admin', '/users');
  await page.getByRole('link', { name: 'Import' }).click();
  await expect(page).toHaveURL(/\/imports\?kind=roster$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Imports' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download template' })).toBeVisible();

  // 1. Upload: the file is chosen and sent; the page moves to its preview.
  await chooseFile(page, fileName, csv);
  await expect(page.getByText(fileName)).toBeVisible();
  await page.getByRole('button', { name: 'Upload and preview' }).click();
  await expect(page).toHaveURL(/[?&]id=\d+/, { timeout: 20_000 });

  // 2. The mapping the server guessed from the office's headers; a column it did not know is mapped by hand.
  await expect(mappingSelect(page, 'Given name')).toHaveValue('First Name (required)');
  await expect(mappingSelect(page, 'Surname')).toHaveValue('Last Name (required)');
  await expect(mappingSelect(page, 'E-mail')).toHaveValue('Email (required)');
  await expect(mappingSelect(page, 'Mobile')).toHaveValue('Phone');
  await expect(mappingSelect(page, 'Lic No')).toHaveValue('License Number');
  await expect(mappingSelect(page, 'Exp. Date')).toHaveValue('Expiration Date');
  await expect(mappingSelect(page, 'Notes')).toHaveValue('Do not import');
  await expect(mappingSelect(page, 'Broker Office')).toHaveValue('Do not import');
  await mappingSelect(page, 'Broker Office').click();
  await page.getByRole('option', { name: 'Brokerage', exact: true }).click();
  await expect(mappingSelect(page, 'Broker Office')).toHaveValue('Brokerage');
  await expect(mappingSelect(page, 'Broker Office')).toBeEnabled();

  // 3. The preview: 6 new, 3 errors; the error rows say the column and the reason.
  await expect(stat(page, 'create')).toHaveText('6');
  await expect(stat(page, 'error')).toHaveText('3');
  await expect(stat(page, 'update')).toHaveText('0');
  await page.getByRole('combobox', { name: 'Show' }).click();
  await page.getByRole('option', { name: 'Errors', exact: true }).click();
  const table = page.locator('main table').last();
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(table.locator('tbody')).toContainText('not-an-email');
  await expect(table.locator('tbody')).toContainText('Surname');
  await expect(table.locator('tbody')).toContainText('31/31/2028');
  await expect(table.locator('tbody tr').filter({ hasText: 'Error' })).toHaveCount(3);

  // 4. Commit (nothing fixed: the error rows are skipped) and the result.
  await page.getByRole('button', { name: 'Import 6 rows' }).click();
  await expect(page.getByTestId('import-result')).toHaveText('6 rows written (6 created, 0 updated); 3 rows skipped with errors', {
    timeout: 30_000,
  });

  // The errors file: the rejected rows with their line and a reason column.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download errors file' }).click();
  const download = await downloading;
  const rows = parseCsv(fs.readFileSync((await download.path())!, 'utf8'));
  expect(rows[0]).toContain('Reason');
  expect(rows).toHaveLength(4);
  const reason = rows[0]!.indexOf('Reason');
  for (const r of rows.slice(1)) expect(r[reason]).not.toBe('');
  expect(rows.slice(1).map((r) => r[rows[0]!.indexOf('E-mail')])).toEqual([
    'not-an-email',
    `noname.${tag}@e2e.test`,
    `baddate.${tag}@e2e.test`,
  ]);

  // What was written: the six people, in the new brokerage.
  const admin = await apiAs(request, 'admin');
  const found = await admin.get<{ users: Array<{ email: string; brokerage_name: string | null }> }>(`/api/users?search=${tag}&limit=50`);
  expect(found.users.map((u) => u.email).sort()).toEqual(good.map((p) => p.email).sort());
  expect(new Set(found.users.map((u) => u.brokerage_name))).toEqual(new Set([brokerage]));

  // The history lists it; Undo (after a confirmation) removes what it created.
  await page.getByRole('button', { name: 'View import history' }).click();
  const entry = page.getByRole('row').filter({ hasText: fileName });
  await expect(entry).toContainText('Committed');
  await expect(entry).toContainText('6 new · 0 updated · 0 unchanged · 3 errors');
  await entry.getByRole('button', { name: /^Actions for the import of/ }).click();
  await page.getByRole('menuitem', { name: 'Undo' }).click();
  await page.getByRole('dialog', { name: 'Undo import' }).getByRole('button', { name: 'Undo' }).click();
  await expect(entry).toContainText('Undone', { timeout: 20_000 });
  const after = await admin.get<{ users: unknown[] }>(`/api/users?search=${tag}&limit=50`);
  expect(after.users).toHaveLength(0);
});

test('a School imports completions of its own course from Courses › Completions', async ({ page, request }) => {
  const tag = uid();
  const admin = await apiAs(request, 'admin');
  const course = await createCourse(await apiAs(request, 'school'), {
    course_name: `Imported Course ${tag}`,
    description: 'Reported by its provider in a file',
    provider: 'Sam School',
    ce_hours: 3,
  });
  // Another provider's course: not the School's to import.
  const other = await createCourse(admin, { course_name: `Office Course ${tag}`, provider: 'Office', ce_hours: 2 });
  const license = await createLicense(admin, {
    user_id: await myId(await apiAs(request, 'agent')),
    license_number: `IMPC-${tag}`,
    state: 'FL',
    issue_date: '2024-01-01',
    expiration_date: '2028-01-01',
    ce_hours_required: 45,
  });
  const ceHours = async () => {
    const list = await admin.get<Array<{ license_id: number; ce_hours_completed: number }>>('/api/licenses');
    return list.find((l) => l.license_id === license.license_id)!.ce_hours_completed;
  };
  expect(await ceHours()).toBe(0);

  // A learning system's export: its own headers, the holder by license number and state.
  const date = daysAgo(20);
  const csv = [
    'License #,State,Course Title,Date Completed,Credit Hours',
    `${license.license_number},FL,${course.course_name},${date},3`,
    `${license.license_number},FL,${other.course_name},${date},2`,
  ].join('\n');
  const fileName = `completions-${tag}.csv`;

  await signIn(page, 'school', '/courses?tab=completions');
  await page.getByRole('link', { name: 'Import' }).click();
  await expect(page).toHaveURL(/\/imports\?kind=completions$/);
  // A School imports completions only: no kind to choose, no roster template.
  await expect(page.getByRole('combobox', { name: 'What to import' })).toHaveCount(0);
  // The template: a header row of the kind's fields.
  const templating = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download template' }).click();
  const template = parseCsv(fs.readFileSync((await (await templating).path())!, 'utf8'));
  expect(template[0]).toEqual(expect.arrayContaining(['Email', 'License Number', 'State', 'Course', 'Completion Date', 'Hours']));
  await chooseFile(page, fileName, csv);
  await page.getByRole('button', { name: 'Upload and preview' }).click();
  await expect(page).toHaveURL(/[?&]id=\d+/, { timeout: 20_000 });

  await expect(mappingSelect(page, 'License #')).toHaveValue('License Number');
  await expect(mappingSelect(page, 'Course Title')).toHaveValue('Course');
  await expect(mappingSelect(page, 'Date Completed')).toHaveValue('Completion Date (required)');
  await expect(stat(page, 'create')).toHaveText('1');
  await expect(stat(page, 'error')).toHaveText('1');
  await expect(page.getByRole('row').filter({ hasText: 'Error' })).toContainText(other.course_name);

  await page.getByRole('button', { name: 'Import 1 row' }).click();
  await expect(page.getByTestId('import-result')).toHaveText('1 row written (1 created, 0 updated); 1 row skipped with errors', {
    timeout: 30_000,
  });
  // Credited as a single completion of the School's would be: approved at once, the license's hours moved.
  await expect.poll(ceHours).toBe(3);
  await page.getByRole('button', { name: 'View import history' }).click();
  await expect(page.getByRole('row').filter({ hasText: fileName })).toContainText('Committed');
});
