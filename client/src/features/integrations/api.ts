/**
 * Settings › Integrations, the API keys section's calls: the paged list, the brokerages an Admin may name, and
 * create / revoke with their toasts. The create answer holds the secret, shown once by the section.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { API_KEY_STRINGS } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';
import type { PickerAsk } from '../../components/server-search-select.tsx';

export function useApiKeysPage(input: { page: number; limit: number }) {
  return trpc.apiKeys.list.useQuery(input, { placeholderData: keepPreviousData });
}

/** The brokerage picker of an Admin's key form: the brokerages matching what is typed, 20 by name. */
export function useKeyBrokeragePicker(ask: PickerAsk, enabled: boolean) {
  const input = ask.ids ? { ids: ask.ids } : { search: ask.search || undefined };
  return trpc.brokerages.options.useQuery(input, { enabled, staleTime: 30_000, placeholderData: keepPreviousData });
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
