/**
 * Settings › Integrations, the webhooks section's calls: the endpoints, one endpoint's delivery log, and create /
 * change / delete / redeliver / test with their toasts. The create answer holds the secret, shown once by the section.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { WEBHOOK_STRINGS } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';

const S = WEBHOOK_STRINGS;

export function useWebhooks(enabled: boolean) {
  return trpc.webhooks.list.useQuery({}, { enabled });
}

export function useWebhookDeliveries(id: number | null, page: number, limit: number) {
  return trpc.webhooks.deliveries.useQuery(
    { id: id ?? 0, page, limit },
    { enabled: id !== null, placeholderData: keepPreviousData, refetchInterval: 5_000 },
  );
}

function useRefresh() {
  const utils = trpc.useUtils();
  return () => void utils.webhooks.invalidate();
}

export function useCreateWebhook() {
  const refresh = useRefresh();
  return trpc.webhooks.create.useMutation(mutationOutcome(S.created, S.createFailed, refresh));
}

/** Any change; the toast says whether it enabled, disabled or saved the endpoint. */
export function useUpdateWebhook() {
  const refresh = useRefresh();
  return trpc.webhooks.update.useMutation(
    mutationOutcome(
      (_data, input: { enabled?: boolean }) => (input.enabled === true ? S.enabled : input.enabled === false ? S.disabled : S.updated),
      S.updateFailed,
      refresh,
    ),
  );
}

export function useDeleteWebhook() {
  const refresh = useRefresh();
  return trpc.webhooks.delete.useMutation(mutationOutcome(S.deleted, S.deleteFailed, refresh));
}

export function useRedeliver() {
  const refresh = useRefresh();
  return trpc.webhooks.redeliver.useMutation(mutationOutcome(S.redelivered, S.redeliverFailed, refresh));
}

export function useSendTest() {
  const refresh = useRefresh();
  return trpc.webhooks.test.useMutation(mutationOutcome(S.tested, S.testFailed, refresh));
}
