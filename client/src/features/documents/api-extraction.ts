/**
 * Certificates read for you (docs/ocr.md): the reading of a certificate (refetched every 2 s while it is
 * pending), the course and license choices of its "Record completion" form, and recording the completion (or a
 * transcript's completions together).
 */
import { keepPreviousData } from '@tanstack/react-query';
import { EXTRACTION_STRINGS, PICKER_LIMIT } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';
import type { PickerAsk } from '../../components/server-search-select.tsx';

export const EXTRACTION_POLL_MS = 2000;

/** The reading of the document's current version; polled while it is pending or older than `version`. */
export function useDocumentExtraction(documentId: number, version: number) {
  return trpc.certificates.extraction.useQuery(
    { id: documentId },
    {
      refetchInterval: (query) => {
        const data = query.state.data;
        return data && (data.status === 'pending' || data.version < version) ? EXTRACTION_POLL_MS : false;
      },
    },
  );
}

/**
 * The course picker of a certificate's completion: the active courses whose name matches what is typed, 20 by
 * name; the suggested (chosen) course is read by id.
 */
export function useCertificateCoursePicker(ask: PickerAsk, enabled: boolean) {
  const page = trpc.courses.page.useQuery(
    { is_active: 'true', search: ask.search || undefined, sort: 'course_name', order: 'asc', limit: PICKER_LIMIT },
    { enabled: enabled && !ask.ids, staleTime: 30_000, placeholderData: keepPreviousData },
  );
  const one = trpc.courses.get.useQuery({ id: Number(ask.ids) || 0 }, { enabled: enabled && Number(ask.ids) > 0 });
  if (ask.ids) return { data: one.data ? [one.data] : undefined, isFetching: one.isFetching };
  return { data: page.data?.courses, isFetching: page.isFetching };
}

/** The licenses a completion from the certificate may count toward: its owner's (the caller's own without one). */
export function useCertificateLicenses(ownerId: number | null) {
  return trpc.completions.myLicenses.useQuery(ownerId === null ? undefined : { user_id: ownerId });
}

function useRecordedRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.certificates.invalidate();
    void utils.completions.invalidate();
    void utils.courses.invalidate();
    void utils.dashboard.invalidate();
  };
}

export function useRecordFromCertificate() {
  return trpc.certificates.recordCompletion.useMutation(
    mutationOutcome(EXTRACTION_STRINGS.recorded, EXTRACTION_STRINGS.recordFailed, useRecordedRefresh()),
  );
}

/** A transcript's courses recorded together (all or none). */
export function useRecordAllFromCertificate() {
  return trpc.certificates.recordCompletions.useMutation(
    mutationOutcome(EXTRACTION_STRINGS.recordedAll, EXTRACTION_STRINGS.recordFailed, useRecordedRefresh()),
  );
}
