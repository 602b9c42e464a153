/**
 * The Notification Management screen's calls: the templates and delivery history lists, the statistics,
 * template create / update / delete and the test send, with their toasts and what they refresh (a test send
 * adds a delivery, so the history and statistics refresh).
 */
import { keepPreviousData } from '@tanstack/react-query';
import { NOTIFICATION_MANAGEMENT_STRINGS, type DeliveryPageQuery, type TemplatePageQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome, notify } from '../../lib/notify.ts';

export function useTemplatesPage(input: TemplatePageQuery) {
  return trpc.admin.notificationManagement.page.useQuery(input, { placeholderData: keepPreviousData });
}

export function useDeliveriesPage(input: DeliveryPageQuery, enabled = true) {
  return trpc.admin.notificationManagement.historyPage.useQuery(input, { placeholderData: keepPreviousData, enabled });
}

export function useNotificationHistory() {
  return trpc.admin.notificationManagement.history.useQuery();
}

export function useDeliveryInfo() {
  return trpc.admin.notificationManagement.delivery.useQuery(undefined, { staleTime: 60_000 });
}

function useRefreshTemplates() {
  const utils = trpc.useUtils();
  return () => {
    void utils.admin.notificationManagement.page.invalidate();
    void utils.admin.notificationManagement.list.invalidate();
  };
}

/** Create or update (the caller passes onError to show the fields' messages); success toasts and refreshes. */
export function useSaveTemplate(onSaved: () => void) {
  const refresh = useRefreshTemplates();
  // The form's onError shows the failure (with the fields' messages): no failure toast here.
  const outcome = mutationOutcome(NOTIFICATION_MANAGEMENT_STRINGS.saved, null, () => {
    refresh();
    onSaved();
  });
  const create = trpc.admin.notificationManagement.create.useMutation(outcome);
  const update = trpc.admin.notificationManagement.update.useMutation(outcome);
  return { create, update, busy: create.isPending || update.isPending };
}

export function useDeleteTemplate() {
  const refresh = useRefreshTemplates();
  return trpc.admin.notificationManagement.delete.useMutation(
    mutationOutcome(NOTIFICATION_MANAGEMENT_STRINGS.deleted, NOTIFICATION_MANAGEMENT_STRINGS.deleteFailed, refresh),
  );
}

/** The toast says where the test went: an outbox file is not a delivered e-mail. */
export function useSendTest(onSent: () => void) {
  const utils = trpc.useUtils();
  return trpc.admin.notificationManagement.sendTest.useMutation({
    onSuccess: (result) => {
      void utils.admin.notificationManagement.history.invalidate();
      void utils.admin.notificationManagement.historyPage.invalidate();
      if (!result.success) notify.error(result.message);
      else if (result.delivery.transport === 'outbox') notify.warning(result.message);
      else notify.success(result.message);
      onSent();
    },
    onError: (err) => notify.failure(err, NOTIFICATION_MANAGEMENT_STRINGS.testFailed),
  });
}
