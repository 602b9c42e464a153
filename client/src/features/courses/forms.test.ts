/**
 * The Course Management forms map their fields to the shared schemas' input (the one form path,
 * lib/schema-form.ts): the schema's messages, its defaults, and what is sent for emptied fields.
 */
import { describe, expect, it } from 'vitest';
import { COMPLETION_MESSAGES, COURSE_MESSAGES, completionCreateInput, completionForPersonInput, courseCreateInput } from '@lm/shared';
import { schemaErrors } from '../../lib/schema-form.ts';
import { courseFormInput } from './course-form-modal.tsx';
import { completionFormInput } from './completion-form-modal.tsx';
import { courseSortKey } from './courses-tab.tsx';
import { completionSortKey } from './completions-tab.tsx';

const course = {
  course_name: 'Ethics',
  description: 'Duties',
  provider: 'Academy',
  ce_hours: 3 as number | string,
  course_type: 'Online' as const,
  cost: 12.5 as number | string,
  is_active: true,
  topic: 'Ethics' as 'Ethics' | null,
  approval_number: 'CE-4471',
  approval_state: 'tx',
};

describe('course form', () => {
  it('shows the schema messages of empty required fields', () => {
    const errors = schemaErrors(courseCreateInput, courseFormInput({ ...course, course_name: ' ', ce_hours: '', cost: -1 }));
    expect(errors).toEqual({
      course_name: COURSE_MESSAGES.nameRequired,
      ce_hours: COURSE_MESSAGES.ceHoursPositive,
      cost: COURSE_MESSAGES.costNegative,
    });
  });

  it('sends the schema default for an emptied cost and null for a cleared topic', () => {
    const out = courseCreateInput.parse(courseFormInput({ ...course, cost: '', topic: null }));
    expect(out.cost).toBe(0);
    expect(out.topic).toBeNull();
    expect(out.approval_number).toBe('CE-4471');
    expect(out.approval_state).toBe('TX');
  });

  it('sends a cleared approval as none, so an edit removes it', () => {
    const out = courseCreateInput.parse(courseFormInput({ ...course, approval_number: '', approval_state: '' }));
    expect(out.approval_number).toBeNull();
    expect(out.approval_state).toBeNull();
    expect(schemaErrors(courseCreateInput, courseFormInput({ ...course, approval_state: 'T1' }))).toEqual({
      approval_state: COURSE_MESSAGES.approvalStateFormat,
    });
  });
});

const completion = {
  user_id: null as string | null,
  course_id: '4' as string | null,
  license_id: null as string | null,
  completion_date: '2025-03-01' as string | null,
  hours: '' as number | string,
  rating: 0,
};

describe('completion form', () => {
  it('asks for the person when the caller names one, and for the course and date', () => {
    expect(schemaErrors(completionForPersonInput, completionFormInput({ ...completion, course_id: null, completion_date: null }))).toEqual({
      user_id: COMPLETION_MESSAGES.personRequired,
      course_id: COMPLETION_MESSAGES.courseRequired,
      completion_date: COMPLETION_MESSAGES.dateRequired,
    });
    // An Agent records for itself: no person needed.
    expect(schemaErrors(completionCreateInput, completionFormInput(completion))).toEqual({});
  });

  it('sends ids as numbers and empty hours, license and rating as null', () => {
    expect(completionForPersonInput.parse(completionFormInput({ ...completion, user_id: '7', license_id: '9', rating: 4 }))).toEqual({
      user_id: 7,
      course_id: 4,
      license_id: 9,
      completion_date: '2025-03-01',
      hours: null,
      rating: 4,
    });
    expect(completionCreateInput.parse(completionFormInput(completion))).toMatchObject({ license_id: null, hours: null, rating: null });
  });
});

describe('list sort keys from the URL', () => {
  it("fall back to the list's default when the URL holds another list's key", () => {
    expect(courseSortKey('ce_hours')).toBe('ce_hours');
    expect(courseSortKey('completion_date')).toBe('created_at');
    expect(completionSortKey('completion_date')).toBe('completion_date');
    expect(completionSortKey('provider')).toBe('created_at');
  });
});
