/**
 * The licenses screen's calls beyond the table: the renewal preview, Renew and CE adjustments (the CE
 * transcript and its CSV load in components/transcript-drawer.tsx, shared with the dashboard). A change to
 * a license's CE touches the licenses list, the dashboard (CE progress, expiring licenses) and the
 * completions screen, so all three are refreshed.
 */
import { trpc } from '../../lib/trpc.ts';

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
