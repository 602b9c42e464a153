/**
 * Certificates read for you (docs/ocr.md): the reading of a certificate (refetched every 2 s while it is
 * pending), the course and license choices of its "Record completion" form, and recording the completion (or a
 * transcript's completions together).
 */
import { EXTRACTION_STRINGS } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';

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

/** The active courses a completion may be recorded for. */
export function useCertificateCourses(enabled: boolean) {
  return trpc.courses.list.useQuery({ is_active: 'true' }, { enabled });
}

/** The licenses the caller may record completions against (filtered to the certificate's owner by the panel). */
export function useCertificateLicenses(enabled: boolean) {
  return trpc.completions.myLicenses.useQuery(undefined, { enabled });
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
