/**
 * The Brokerage Management screen's calls: the paged list, a brokerage's people, and the changes with their
 * toasts. A brokerage's name and existence show in the users list (its column, filter and selects), so a
 * change refreshes the users too.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { BROKERAGE_STRINGS, type BrokeragesListQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';

export function useBrokeragesPage(input: BrokeragesListQuery) {
  return trpc.brokerages.list.useQuery(input, { placeholderData: keepPreviousData });
}

/** The people of one brokerage (its detail). */
export function useBrokerageUsers(brokerageId: number | null) {
  return trpc.brokerages.users.useQuery({ id: brokerageId ?? 0 }, { enabled: brokerageId !== null });
}

function useRefreshBrokerages() {
  const utils = trpc.useUtils();
  return () => {
    void utils.brokerages.invalidate();
    void utils.users.invalidate();
  };
}

export function useCreateBrokerage() {
  const refresh = useRefreshBrokerages();
  return trpc.brokerages.create.useMutation(mutationOutcome(BROKERAGE_STRINGS.created, BROKERAGE_STRINGS.createFailed, refresh));
}

export function useUpdateBrokerage() {
  const refresh = useRefreshBrokerages();
  return trpc.brokerages.update.useMutation(mutationOutcome(BROKERAGE_STRINGS.updated, BROKERAGE_STRINGS.updateFailed, refresh));
}

export function useDeleteBrokerage() {
  const refresh = useRefreshBrokerages();
  return trpc.brokerages.delete.useMutation(mutationOutcome(BROKERAGE_STRINGS.deleted, BROKERAGE_STRINGS.deleteFailed, refresh));
}
