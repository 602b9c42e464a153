/**
 * The Course Management screen's calls (both tabs): the paged lists, the course and completion details,
 * course changes, recording and reviewing completions, with their toasts and what they refresh. A course
 * change shows in the completions (course names) and the dashboard; a review (or a School's recording, approved
 * at once) moves a license's CE hours, so licenses and the dashboard refresh too.
 */
import { keepPreviousData } from '@tanstack/react-query';
import {
  COMPLETION_STRINGS,
  COURSE_STRINGS,
  PICKER_LIMIT,
  type CompletionPageQuery,
  type CompletionStatus,
  type CoursePageQuery,
} from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';
import type { PickerAsk } from '../../components/server-search-select.tsx';

// ---------------------------------------------------------------------------------------------
// Queries

export function useCoursesPage(input: CoursePageQuery) {
  return trpc.courses.page.useQuery(input, { placeholderData: keepPreviousData });
}

/**
 * The course picker of the Record Completion form: the active courses whose name matches what is typed, 20 by
 * name; a School's own only, since a School records completions of its own courses only.
 */
export function useActiveCoursePicker(ask: PickerAsk, enabled: boolean, schoolId: number | undefined) {
  const query = trpc.courses.page.useQuery(
    {
      is_active: 'true',
      ...(schoolId ? { school_id: schoolId } : {}),
      search: ask.search || undefined,
      sort: 'course_name',
      order: 'asc',
      limit: PICKER_LIMIT,
    },
    // A chosen course is always one of the matches it was chosen from: nothing is read by id.
    { enabled: enabled && !ask.ids, staleTime: 30_000, placeholderData: keepPreviousData },
  );
  return { data: query.data?.courses, isFetching: query.isFetching };
}

/** The people a School may name on the Record Completion form, matching the typed name or license number (at most 20). */
export function useCompletionPeople(ask: PickerAsk, enabled: boolean) {
  return trpc.completions.people.useQuery(
    { search: ask.search || undefined },
    { enabled: enabled && !ask.ids, placeholderData: keepPreviousData },
  );
}

/** The holder picker of an Admin's or a Broker's Record Completion form: Agents and Brokers in scope, by name. */
export function useCompletionHolderPicker(ask: PickerAsk, enabled: boolean) {
  const input = ask.ids ? { ids: ask.ids } : { search: ask.search || undefined };
  return trpc.licenses.holders.useQuery(input, { enabled, staleTime: 30_000, placeholderData: keepPreviousData });
}

/** How many completions the course drawer lists. */
export const RECENT_COMPLETIONS = 5;

/** A course's most recent completions in the caller's scope (the course drawer). */
export function useRecentCompletions(courseId: number | null) {
  return trpc.completions.page.useQuery(
    { course_id: courseId ?? undefined, sort: 'completion_date', order: 'desc', limit: RECENT_COMPLETIONS },
    { enabled: courseId !== null },
  );
}

export function useCompletionsPage(input: CompletionPageQuery) {
  return trpc.completions.page.useQuery(input, { placeholderData: keepPreviousData });
}

/** The certificates linked to a completion (its reviewer sees them beside it; docs/ocr.md). */
export function useCompletionCertificates(completionId: number | null) {
  return trpc.certificates.forCompletion.useQuery({ id: completionId ?? 0 }, { enabled: completionId !== null });
}

/** The licenses the caller may record completions against (the Record Completion form). */
export function useCompletionLicenseOptions(userId: number | null, enabled: boolean) {
  return trpc.completions.myLicenses.useQuery({ user_id: userId ?? undefined }, { enabled: enabled && userId !== null });
}

// ---------------------------------------------------------------------------------------------
// Mutations

function useRefreshCourses() {
  const utils = trpc.useUtils();
  return () => {
    void utils.courses.invalidate();
    void utils.completions.invalidate();
    void utils.dashboard.invalidate();
  };
}

/** Completions feed the licenses' CE hours, the course counts and the dashboard. */
function useRefreshCompletions() {
  const utils = trpc.useUtils();
  return () => {
    void utils.completions.invalidate();
    void utils.courses.invalidate();
    void utils.licenses.invalidate();
    void utils.dashboard.invalidate();
  };
}

export function useCreateCourse() {
  const refresh = useRefreshCourses();
  return trpc.courses.create.useMutation(mutationOutcome(COURSE_STRINGS.created, COURSE_STRINGS.createFailed, refresh));
}

export function useUpdateCourse() {
  const refresh = useRefreshCourses();
  return trpc.courses.update.useMutation(mutationOutcome(COURSE_STRINGS.updated, COURSE_STRINGS.updateFailed, refresh));
}

export function useDeleteCourse() {
  const refresh = useRefreshCourses();
  return trpc.courses.delete.useMutation(mutationOutcome(COURSE_STRINGS.deleted, COURSE_STRINGS.deleteFailed, refresh));
}

export function useRecordCompletion() {
  const refresh = useRefreshCompletions();
  return trpc.completions.create.useMutation(
    mutationOutcome(
      // A School's own course: recorded approved at once, so its hours already count.
      (completion) => (completion.status === 'Approved' ? COMPLETION_STRINGS.recordedApproved : COMPLETION_STRINGS.recorded),
      COMPLETION_STRINGS.recordFailed,
      refresh,
    ),
  );
}

/** The toast of each review outcome. */
export const REVIEWED: Record<CompletionStatus, string> = {
  Approved: COMPLETION_STRINGS.approved,
  Rejected: COMPLETION_STRINGS.rejected,
  Pending: COMPLETION_STRINGS.reopened,
};

export function useReviewCompletion() {
  const refresh = useRefreshCompletions();
  return trpc.completions.review.useMutation(
    mutationOutcome((_data, input) => REVIEWED[input.status], COMPLETION_STRINGS.reviewFailed, refresh),
  );
}
