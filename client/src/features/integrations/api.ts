/**
 * Settings › Integrations, the API keys section's calls: the paged list, the brokerages an Admin may name, and
 * create / revoke with their toasts. The create answer holds the secret, shown once by the section.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { API_KEY_STRINGS } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';

export function useApiKeysPage(input: { page: number; limit: number }) {
  return trpc.apiKeys.list.useQuery(input, { placeholderData: keepPreviousData });
}

/** Every brokerage's id and name, for an Admin's brokerage select (only asked when `enabled`). */
export function useKeyBrokerageOptions(enabled: boolean) {
  return trpc.brokerages.options.useQuery(undefined, { enabled, staleTime: 60_000 });
}

function useRefreshKeys() {
  const utils = trpc.useUtils();
  return () => void utils.apiKeys.invalidate();
}

export function useCreateApiKey() {
  const refresh = useRefreshKeys();
  return trpc.apiKeys.create.useMutation(mutationOutcome(API_KEY_STRINGS.created, API_KEY_STRINGS.createFailed, refresh));
}

export function useRevokeApiKey() {
  const refresh = useRefreshKeys();
  return trpc.apiKeys.revoke.useMutation(mutationOutcome(API_KEY_STRINGS.revokedToast, API_KEY_STRINGS.revokeFailed, refresh));
}
