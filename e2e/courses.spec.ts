import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { logOut, signIn, type Who } from './fixtures/auth.ts';
import { createCourse, uid } from './fixtures/data.ts';
import { holdRequest } from './fixtures/network.ts';
import { row } from './fixtures/ui.ts';
import { shown } from './fixtures/dates.ts';
import { localDateString } from '@lm/shared';

/**
 * Types `text` into a formatted number input key by key, each key sent once the input shows the digits typed so
 * far with the caret right after them (where a person's next key goes).
 */
async function typeFormatted(input: Locator, text: string) {
  for (let i = 1; i <= text.length; i++) {
    await input.press(text[i - 1]!);
    const typed = text.slice(0, i);
    await expect
      .poll(() =>
        input.evaluate((el: HTMLInputElement, t: string) => {
          const at = el.value.indexOf(t);
          return at >= 0 && el.selectionStart === at + t.length && el.selectionEnd === el.selectionStart;
        }, typed),
      )
      .toBe(true);
  }
}

/** Signs in straight onto the Courses screen (narrowed by a search when told). */
async function openCourses(page: Page, who: Who, search?: string) {
  await signIn(page, who, search ? `/courses?search=${encodeURIComponent(search)}` : '/courses');
  await expect(page.getByRole('heading', { name: 'Course Management' })).toBeVisible();
}

test('Admin adds, edits and deletes a course with the modal, badges, validation and toasts', async ({ page }) => {
  const name = `Ethics in Practice ${uid()}`;
  await openCourses(page, 'admin');
  await expect(page.getByRole('tab', { name: 'Courses' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Completions' })).toBeVisible();

  await page.getByRole('button', { name: 'Add New Course' }).click();
  const modal = page.getByRole('dialog', { name: 'Add New Course' });
  await expect(modal).toBeVisible();
  // Defaults: Online, cost 0, active.
  await expect(modal.getByRole('combobox', { name: 'Course Type' })).toHaveValue('Online');
  await expect(modal.getByLabel('Cost')).toHaveValue('$0.00');
  await expect(modal.getByLabel('Active')).toBeChecked();
  // The arrow keys step CE hours by 0.5 and cost by 0.01.
  await modal.getByLabel(/^CE Hours/).press('ArrowUp');
  await expect(modal.getByLabel(/^CE Hours/)).toHaveValue('0.5');
  await modal.getByLabel('Cost').press('ArrowUp');
  await expect(modal.getByLabel('Cost')).toHaveValue('$0.01');
  await modal.getByLabel(/^CE Hours/).fill('0');

  await modal.getByRole('button', { name: 'Create Course' }).click();
  for (const message of ['Course name is required', 'Description is required', 'Provider is required', 'CE hours must be greater than 0']) {
    await expect(modal.getByText(message)).toBeVisible();
  }
  await modal.getByLabel(/^Course Name/).fill(name);
  await expect(modal.getByText('Course name is required')).toBeHidden();
  await modal.getByLabel(/^Description/).fill('Duties, disclosures and the code of ethics');
  await modal.getByLabel(/^Provider/).fill('E2E Academy');
  await modal.getByLabel(/^CE Hours/).fill('2.5');
  // Type into the formatted input as a person does, one key at a time: the input re-formats ($ prefix, two
  // decimals) and moves the caret after every key, and on a busy machine a key sent before that lands in the
  // wrong place (fill() races it the same way).
  const cost = modal.getByLabel('Cost');
  await cost.selectText();
  await typeFormatted(cost, '19.9');
  await expect(cost).toHaveValue(/^\$19\.90?$/);
  await modal.getByRole('button', { name: 'Create Course' }).click();
  await expect(page.getByText('Course created successfully!')).toBeVisible();
  await expect(modal).toBeHidden();

  const r = row(page, name);
  await expect(r).toContainText('Duties, disclosures and the code of ethics');
  await expect(r).toContainText('E2E Academy');
  await expect(r).toContainText('$19.90');
  await expect(r).toContainText('2.5');
  await expect(r.getByText('Online')).toBeVisible();
  await expect(r.getByText('Active')).toBeVisible();
  await expect(r).toContainText(shown(localDateString()));

  await r.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Course' });
  await expect(edit.getByLabel(/^Course Name/)).toHaveValue(name);
  await edit.getByRole('combobox', { name: 'Course Type' }).click();
  await page.getByRole('option', { name: 'Webinar' }).click();
  await edit.getByLabel('Active').uncheck();
  await edit.getByRole('button', { name: 'Update Course' }).click();
  await expect(page.getByText('Course updated successfully!')).toBeVisible();
  await expect(r.getByText('Webinar')).toBeVisible();
  await expect(r.getByText('Inactive')).toBeVisible();

  await r.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(page.getByText('Are you sure you want to delete this course?')).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Course deleted successfully!')).toBeVisible();
  await expect(row(page, name)).toHaveCount(0);
});

test('the submit button reads Saving... while busy, and a server failure shows its message', async ({ page, request }) => {
  const taken = await createCourse(await apiAs(request, 'admin'), { course_name: `Busy Course ${uid()}` });
  await (await apiAs(request, 'agent')).post('/api/completions', { course_id: taken.course_id, completion_date: '2025-01-15' });
  await openCourses(page, 'admin', taken.course_name);

  const release = await holdRequest(page, '**/trpc/courses.update**');
  const r = row(page, taken.course_name);
  await r.getByRole('button', { name: `Actions for ${taken.course_name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Course' });
  await edit.getByLabel(/^Provider/).fill('Slow Academy');
  await edit.getByRole('button', { name: 'Update Course' }).click();
  await expect(edit.getByRole('button', { name: 'Saving...' })).toBeVisible();
  release();
  await expect(page.getByText('Course updated successfully!')).toBeVisible();

  // The course has a completion: the server refuses to delete it and says to deactivate it instead.
  await r.getByRole('button', { name: `Actions for ${taken.course_name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('This course has completions and cannot be deleted. Deactivate it instead.')).toBeVisible();
  await expect(r).toBeVisible();
});

test('a School manages its own courses only; an Agent only reads', async ({ page, request }) => {
  // One tag in both names: the list narrowed to it shows the two (other specs add courses at any time).
  const tag = uid();
  const adminCourse = await createCourse(await apiAs(request, 'admin'), { course_name: `Admin Only ${tag}` });
  const schoolCourse = await createCourse(await apiAs(request, 'school'), { course_name: `School Own ${tag}` });

  await openCourses(page, 'school', tag);
  await expect(page.getByRole('button', { name: 'Add New Course' })).toBeVisible();
  await expect(row(page, schoolCourse.course_name).getByRole('button', { name: `Actions for ${schoolCourse.course_name}` })).toBeVisible();
  await expect(row(page, adminCourse.course_name)).toBeVisible();
  await expect(row(page, adminCourse.course_name).getByRole('button', { name: /^Actions for/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Add New Course' }).click();
  const modal = page.getByRole('dialog', { name: 'Add New Course' });
  await expect(modal.getByLabel(/^Provider/)).toHaveValue('Sam School');
  await modal.getByRole('button', { name: 'Cancel' }).click();

  await logOut(page);
  await openCourses(page, 'agent', tag);
  await expect(row(page, schoolCourse.course_name)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add New Course' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Actions for/ })).toHaveCount(0);
});

test('filters narrow the list and live in the URL', async ({ page, request }) => {
  const stamp = uid();
  const admin = await apiAs(request, 'admin');
  await createCourse(admin, { course_name: `Filter Online ${stamp}` });
  await createCourse(admin, { course_name: `Filter Classroom ${stamp}`, course_type: 'In-Person' });
  await openCourses(page, 'admin');
  await page.getByLabel('Search').fill(`${stamp}`);
  await expect(row(page, `Filter Online ${stamp}`)).toBeVisible();
  await expect(row(page, `Filter Classroom ${stamp}`)).toBeVisible();
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'In-Person' }).click();
  await expect(row(page, `Filter Online ${stamp}`)).toHaveCount(0);
  await expect(row(page, `Filter Classroom ${stamp}`).getByText('In-Person')).toBeVisible();
  await expect(page).toHaveURL(/type=In-Person/);
  await page.reload();
  await expect(row(page, `Filter Classroom ${stamp}`)).toBeVisible();
  await expect(row(page, `Filter Online ${stamp}`)).toHaveCount(0);
  await page.getByLabel('Search').fill(`nothing-matches-${stamp}`);
  await expect(page.getByText('No courses found')).toBeVisible();
});
