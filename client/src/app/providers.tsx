import { useState, type ReactNode } from 'react';
import { MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import {
  MutationCache,
  QueryCache,
  QueryClient,
  QueryClientProvider,
  type DefaultedQueryObserverOptions,
  type DefaultError,
  type QueryKey,
  type QueryObserverOptions,
} from '@tanstack/react-query';
import { httpBatchLink, httpLink, splitLink } from '@trpc/client';
import { trpc } from '../lib/trpc.ts';
import { tokenStore } from '../lib/token.ts';
import { httpStatus, serverUnreachable } from '../lib/errors.ts';
import { AuthProvider, UNAUTHORIZED_EVENT } from '../lib/auth.tsx';
import { ErrorBoundary } from '../components/error-boundary.tsx';
import { MutationProgress } from '../components/top-progress.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

const colorSchemeManager = localStorageColorSchemeManager({ key: 'lm.color-scheme' });

function onAnyError(err: unknown) {
  if (httpStatus(err) === 401 && tokenStore.get()) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
}

/** Waits before the next attempt: 1 s, 2 s, 4 s, 8 s, then every 10 s. */
export const retryDelay = (failures: number) => Math.min(1000 * 2 ** failures, 10_000);

/**
 * docs/decisions.md "Server trouble": a query that already has data on screen keeps retrying (with backoff) for as
 * long as the server cannot be reached, so it never turns into an error and the screen keeps its data while
 * components/server-trouble.tsx says so; when the server is back the next attempt refreshes it by itself. Every
 * other failure keeps the rule below (a query with nothing to show yet ends in its error with Retry).
 */
class ResilientQueryClient extends QueryClient {
  override defaultQueryOptions<
    TQueryFnData = unknown,
    TError = DefaultError,
    TData = TQueryFnData,
    TQueryData = TQueryFnData,
    TQueryKey extends QueryKey = QueryKey,
    TPageParam = never,
  >(
    options:
      | QueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey, TPageParam>
      | DefaultedQueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>,
  ): DefaultedQueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey> {
    const defaulted = super.defaultQueryOptions(options);
    const retry = defaulted.retry;
    // A query that chose not to retry (the start-up session check) keeps its choice; so does one already wrapped.
    if (typeof retry !== 'function' || (options as { _resilient?: true })._resilient) return defaulted;
    const hash = defaulted.queryHash;
    return {
      ...defaulted,
      _resilient: true,
      retry: (failures: number, err: TError) =>
        (serverUnreachable(err) && this.getQueryCache().get(hash)?.state.data !== undefined) || retry(failures, err),
    } as typeof defaulted;
  }
}

export function makeQueryClient() {
  return new ResilientQueryClient({
    queryCache: new QueryCache({ onError: onAnyError }),
    mutationCache: new MutationCache({ onError: onAnyError }),
    defaultOptions: {
      // docs/product.md section 4: retry once, no refetch on window focus. Client errors are not retried.
      queries: {
        retry: (failures, err) => failures < 1 && !(httpStatus(err) && httpStatus(err)! < 500),
        retryDelay,
        refetchOnWindowFocus: false,
      },
    },
  });
}

function authHeaders(): Record<string, string> {
  const token = tokenStore.get();
  return token ? { authorization: `Bearer ${token}` } : {};
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    trpc.createClient({
      // docs/security.md "Bounded work per request": the server refuses batches of more than 10 calls and any
      // batch with an auth.* call, so those go alone and the rest in batches of at most 10.
      links: [
        splitLink({
          condition: (op) => op.path.startsWith('auth.'),
          true: httpLink({ url: '/trpc', headers: authHeaders }),
          false: httpBatchLink({ url: '/trpc', maxItems: 10, headers: authHeaders }),
        }),
      ],
    }),
  );
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      colorSchemeManager={colorSchemeManager}
    >
      <Notifications position="top-right" autoClose={5000} />
      {/* The last line of defence (docs/architecture.md "Client"): styled, with a way back, never a blank page. */}
      <ErrorBoundary fullPage>
        <trpc.Provider client={trpcClient} queryClient={queryClient}>
          <QueryClientProvider client={queryClient}>
            <MutationProgress />
            <AuthProvider>{children}</AuthProvider>
          </QueryClientProvider>
        </trpc.Provider>
      </ErrorBoundary>
    </MantineProvider>
  );
}
