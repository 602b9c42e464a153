/**
 * The Notification Management screen's calls: the templates and delivery history lists, the statistics,
 * template create / update / delete and the test send, with their toasts and what they refresh (a test send
 * adds a delivery, so the history and statistics refresh).
 */
import { keepPreviousData } from '@tanstack/react-query';
import { NOTIFICATION_STRINGS, type DeliveryPageQuery, type TemplatePageQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';

export function useTemplatesPage(input: TemplatePageQuery) {
  return trpc.admin.notifications.page.useQuery(input, { placeholderData: keepPreviousData });
}

export function useDeliveriesPage(input: DeliveryPageQuery, enabled = true) {
  return trpc.admin.notifications.historyPage.useQuery(input, { placeholderData: keepPreviousData, enabled });
}

export function useNotificationHistory() {
  return trpc.admin.notifications.history.useQuery();
}

export function useDeliveryInfo() {
  return trpc.admin.notifications.delivery.useQuery(undefined, { staleTime: 60_000 });
}

function useRefreshTemplates() {
  const utils = trpc.useUtils();
  return () => {
    void utils.admin.notifications.page.invalidate();
    void utils.admin.notifications.list.invalidate();
  };
}

/** Create or update (the caller passes onError to show the fields' messages); success toasts and refreshes. */
export function useSaveTemplate(onSaved: () => void) {
  const refresh = useRefreshTemplates();
  const onSuccess = () => {
    notify.success(NOTIFICATION_STRINGS.saved);
    refresh();
    onSaved();
  };
  const create = trpc.admin.notifications.create.useMutation({ onSuccess });
  const update = trpc.admin.notifications.update.useMutation({ onSuccess });
  return { create, update, busy: create.isPending || update.isPending };
}

export function useDeleteTemplate() {
  const refresh = useRefreshTemplates();
  return trpc.admin.notifications.delete.useMutation({
    onSuccess: () => {
      notify.success(NOTIFICATION_STRINGS.deleted);
      refresh();
    },
    onError: (err) => notify.failure(err, NOTIFICATION_STRINGS.deleteFailed),
  });
}

/** The toast says where the test went: an outbox file is not a delivered e-mail. */
export function useSendTest(onSent: () => void) {
  const utils = trpc.useUtils();
  return trpc.admin.notifications.sendTest.useMutation({
    onSuccess: (result) => {
      void utils.admin.notifications.history.invalidate();
      void utils.admin.notifications.historyPage.invalidate();
      if (!result.success) notify.error(result.message);
      else if (result.delivery.transport === 'outbox') notify.warning(result.message);
      else notify.success(result.message);
      onSent();
    },
    onError: (err) => notify.failure(err, NOTIFICATION_STRINGS.testFailed),
  });
}
