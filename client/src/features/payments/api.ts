/**
 * The payments feature's server calls (docs/architecture.md "Client"): the list page, the summary cards, a
 * payment's detail, the form's payers and their licenses, and record, edit, delete with their toasts (strings
 * from the shared package). A payment change touches the payments list and cards, the dashboard (my payments)
 * and the reports' revenue, so those are refreshed.
 *
 * Components add their own `onSuccess` / `onError` per call (close the modal, put a 400's messages on the
 * fields); the toasts here run first.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { PAYMENT_STRINGS, type PaymentListQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';
import type { PickerAsk } from '../../components/server-search-select.tsx';

function useRefreshPaymentData() {
  const utils = trpc.useUtils();
  return () => {
    void utils.payments.invalidate();
    void utils.dashboard.invalidate();
    void utils.admin.stats.invalidate();
  };
}

/** One page of the Payments list; the previous page stays on screen while the next loads. */
export function usePaymentsPage(input: PaymentListQuery) {
  return trpc.payments.page.useQuery(input, { placeholderData: keepPreviousData });
}

/** The cards: over every payment in the caller's scope ("Total Revenue" is Completed payments of any date). */
export function usePaymentSummary() {
  return trpc.payments.summary.useQuery();
}

/** The row's detail: the payment, its payer and its license. */
export function usePaymentDetail(paymentId: number | null) {
  return trpc.payments.detail.useQuery({ id: paymentId ?? 0 }, { enabled: paymentId !== null });
}

/** The payer picker (components/server-search-select.tsx): the Agents and Brokers in scope matching what is typed. */
export function usePayerPicker(ask: PickerAsk, enabled: boolean) {
  const input = ask.ids ? { ids: ask.ids } : { search: ask.search || undefined };
  return trpc.licenses.holders.useQuery(input, { enabled, staleTime: 30_000, placeholderData: keepPreviousData });
}

/** The license select: the chosen payer's licenses. */
export function usePayerLicenses(userId: number | null, enabled: boolean) {
  return trpc.licenses.list.useQuery({ user_id: userId ?? undefined }, { enabled: enabled && userId !== null });
}

export function useCreatePayment() {
  const refresh = useRefreshPaymentData();
  return trpc.payments.create.useMutation(mutationOutcome(PAYMENT_STRINGS.created, PAYMENT_STRINGS.createFailed, refresh));
}

export function useUpdatePayment() {
  const refresh = useRefreshPaymentData();
  return trpc.payments.update.useMutation(mutationOutcome(PAYMENT_STRINGS.updated, PAYMENT_STRINGS.updateFailed, refresh));
}

export function useDeletePayment() {
  const refresh = useRefreshPaymentData();
  return trpc.payments.delete.useMutation(mutationOutcome(PAYMENT_STRINGS.deleted, PAYMENT_STRINGS.deleteFailed, refresh));
}
