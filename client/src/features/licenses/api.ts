/**
 * The licenses screen's calls beyond the table: the CE transcript, the renewal preview, Renew and CE
 * adjustments, and the transcript CSV. A change to a license's CE touches the licenses list, the
 * dashboard (CE progress, expiring licenses) and the completions screen, so all three are refreshed.
 */
import { localDateString, transcriptFileName } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { downloadFile } from '../../lib/download.ts';

/** Refreshes every query a license's CE or expiration feeds. */
export function useRefreshLicenseData() {
  const utils = trpc.useUtils();
  return () => {
    void utils.licenses.invalidate();
    void utils.dashboard.invalidate();
    void utils.completions.invalidate();
    void utils.payments.invalidate();
  };
}

/** The transcript of one license (null: nothing to load, e.g. the drawer is closed). */
export function useTranscript(licenseId: number | null) {
  return trpc.licenses.transcript.useQuery({ id: licenseId ?? 0 }, { enabled: licenseId !== null });
}

/** What Renew would do, loaded when the confirmation opens. */
export function useRenewalPreview(licenseId: number | null) {
  return trpc.licenses.renewalPreview.useQuery({ id: licenseId ?? 0 }, { enabled: licenseId !== null, staleTime: 0 });
}

export function useRenewLicense() {
  const refresh = useRefreshLicenseData();
  return trpc.licenses.renew.useMutation({ onSuccess: refresh });
}

export function useAdjustLicense() {
  const refresh = useRefreshLicenseData();
  return trpc.licenses.adjust.useMutation({ onSuccess: refresh });
}

/** The server's name (transcript_{number}_{today}.csv), used only when its Content-Disposition is missing. */
const fallbackFileName = (licenseNumber: string) => transcriptFileName(licenseNumber, localDateString());

/** Saves GET /api/licenses/{id}/transcript/export as the server names it. Throws FileCallError. */
export function downloadTranscriptCsv(licenseId: number, licenseNumber: string, failure: string): Promise<string> {
  return downloadFile(`/api/licenses/${licenseId}/transcript/export`, { fileName: fallbackFileName(licenseNumber), failure });
}
