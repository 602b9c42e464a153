/**
 * The User Management screen's calls: the paged list, the brokerage choices, one user's licenses (read
 * through the licenses procedures), and the changes with their toasts. A change to a user touches the users
 * list, the brokerages' agent counts, the license holders and the dashboard, so all of them are refreshed.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { PASSWORD_RESET_STRINGS, USER_STRINGS, type UsersListQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome, notify } from '../../lib/notify.ts';
import type { PickerAsk } from '../../components/server-search-select.tsx';

export function useUsersPage(input: UsersListQuery) {
  return trpc.users.list.useQuery(input, { placeholderData: keepPreviousData });
}

/** The brokerage picker of the Admin's filter and form selects: the brokerages matching what is typed, 20 by name. */
export function useBrokeragePicker(ask: PickerAsk, enabled: boolean) {
  const input = ask.ids ? { ids: ask.ids } : { search: ask.search || undefined };
  return trpc.brokerages.options.useQuery(input, { enabled, staleTime: 30_000, placeholderData: keepPreviousData });
}

/** A brokerage as a picker option. */
export const brokerageOption = (b: { brokerage_id: number; name: string }) => ({ value: String(b.brokerage_id), label: b.name });

/** The licenses a user holds (the user's detail), first 100 by expiration. */
export function useUserLicenses(userId: number | null) {
  return trpc.licenses.page.useQuery(
    { user_id: userId ?? 0, limit: 100, sort: 'expiration_date', order: 'asc' },
    { enabled: userId !== null },
  );
}

function useRefreshUsers() {
  const utils = trpc.useUtils();
  return () => {
    void utils.users.invalidate();
    void utils.brokerages.invalidate();
    void utils.licenses.invalidate();
    void utils.dashboard.invalidate();
  };
}

export function useCreateUser() {
  const refresh = useRefreshUsers();
  return trpc.users.create.useMutation(mutationOutcome(USER_STRINGS.created, USER_STRINGS.createFailed, refresh));
}

export function useUpdateUser() {
  const refresh = useRefreshUsers();
  return trpc.users.update.useMutation(mutationOutcome(USER_STRINGS.updated, USER_STRINGS.updateFailed, refresh));
}

export function useDeleteUser() {
  const refresh = useRefreshUsers();
  return trpc.users.delete.useMutation(mutationOutcome(USER_STRINGS.deleted, USER_STRINGS.deleteFailed, refresh));
}

export function useBulkUsers() {
  const refresh = useRefreshUsers();
  return trpc.users.bulk.useMutation(mutationOutcome(USER_STRINGS.bulkDone, USER_STRINGS.bulkFailed, refresh));
}

/** E-mails a password link; the toast says where it went (a warning when it only reached the outbox). */
export function useSendResetLink() {
  return trpc.users.sendResetLink.useMutation({
    onSuccess: (result) => {
      if (!result.success) notify.error(result.message);
      else if (result.message.includes('outbox')) notify.warning(result.message);
      else notify.success(result.message);
    },
    onError: (err) => notify.failure(err, PASSWORD_RESET_STRINGS.linkFailed),
  });
}
