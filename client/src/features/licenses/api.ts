/**
 * The licenses feature's server calls (docs/architecture.md "Client"): the list page and its compliance counts, the
 * form's holders and defaults (by state and type), create, update, delete, the renewal preview, Renew and CE
 * adjustments, each mutation with its toasts (strings from the shared package) and what it refreshes. The CE transcript and its CSV load in
 * components/transcript-drawer.tsx, shared with the dashboard. A license change touches the licenses list, the
 * dashboard (CE progress, expiring licenses), the completions screen, payments (a payment shows its license's
 * number) and the reports, so all of them are refreshed.
 *
 * Components add their own `onSuccess` / `onError` per call (close the modal, put a 400's messages on the
 * fields); the toasts here run first.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { CE_STRINGS, LICENSE_STRINGS, type LicenseListQuery, type LicenseType } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';
import type { PickerAsk } from '../../components/server-search-select.tsx';

/** Refreshes every query a license's fields, CE or expiration feed. */
export function useRefreshLicenseData() {
  const utils = trpc.useUtils();
  return () => {
    void utils.licenses.invalidate();
    void utils.dashboard.invalidate();
    void utils.completions.invalidate();
    void utils.payments.invalidate();
    void utils.reports.invalidate();
    void utils.admin.stats.invalidate();
  };
}

/** One page of the Licenses list; the previous page stays on screen while the next loads. */
export function useLicensesPage(input: LicenseListQuery) {
  return trpc.licenses.page.useQuery(input, { placeholderData: keepPreviousData });
}

/** The holder picker (components/server-search-select.tsx): the Agents and Brokers matching what is typed, 20 at a time. */
export function useHolderPicker(ask: PickerAsk, enabled: boolean) {
  const input = ask.ids ? { ids: ask.ids } : { search: ask.search || undefined };
  return trpc.licenses.holders.useQuery(input, { enabled, staleTime: 30_000, placeholderData: keepPreviousData });
}

/** How many licenses of the list's filters are in each compliance state (the filter chips' counts). */
export function useComplianceSummary(input: Omit<LicenseListQuery, 'compliance' | 'sort' | 'order' | 'page' | 'limit'>) {
  return trpc.licenses.complianceSummary.useQuery(input, { placeholderData: keepPreviousData });
}

/**
 * The form's starting CE hours required for a state and type: the state rule's hours (with its cycle and
 * topics), else settings.default_ce_hours. Without a state, the office default.
 */
export function useLicenseDefaults(enabled: boolean, input: { state?: string; license_type?: LicenseType }) {
  return trpc.licenses.defaults.useQuery(input, { enabled, staleTime: 60_000, placeholderData: keepPreviousData });
}

export function useCreateLicense() {
  const refresh = useRefreshLicenseData();
  return trpc.licenses.create.useMutation(mutationOutcome(LICENSE_STRINGS.created, LICENSE_STRINGS.createFailed, refresh));
}

export function useUpdateLicense() {
  const refresh = useRefreshLicenseData();
  return trpc.licenses.update.useMutation(mutationOutcome(LICENSE_STRINGS.updated, LICENSE_STRINGS.updateFailed, refresh));
}

export function useDeleteLicense() {
  const refresh = useRefreshLicenseData();
  return trpc.licenses.delete.useMutation(mutationOutcome(LICENSE_STRINGS.deleted, LICENSE_STRINGS.deleteFailed, refresh));
}

/** What Renew would do, loaded when the confirmation opens. */
export function useRenewalPreview(licenseId: number | null) {
  return trpc.licenses.renewalPreview.useQuery({ id: licenseId ?? 0 }, { enabled: licenseId !== null, staleTime: 0 });
}

export function useRenewLicense() {
  const refresh = useRefreshLicenseData();
  return trpc.licenses.renew.useMutation(mutationOutcome(LICENSE_STRINGS.renewed, LICENSE_STRINGS.renewFailed, refresh));
}

export function useAdjustLicense() {
  const refresh = useRefreshLicenseData();
  return trpc.licenses.adjust.useMutation(mutationOutcome(CE_STRINGS.adjusted, CE_STRINGS.adjustFailed, refresh));
}
