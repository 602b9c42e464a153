import { useState, type ReactNode } from 'react';
import { MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { httpBatchLink, httpLink, splitLink } from '@trpc/client';
import { trpc } from '../lib/trpc.ts';
import { tokenStore } from '../lib/token.ts';
import { httpStatus } from '../lib/errors.ts';
import { AuthProvider, UNAUTHORIZED_EVENT } from '../lib/auth.tsx';
import { ErrorBoundary } from '../components/error-boundary.tsx';
import { MutationProgress } from '../components/top-progress.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

const colorSchemeManager = localStorageColorSchemeManager({ key: 'lm.color-scheme' });

function onAnyError(err: unknown) {
  if (httpStatus(err) === 401 && tokenStore.get()) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
}

export function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onAnyError }),
    mutationCache: new MutationCache({ onError: onAnyError }),
    defaultOptions: {
      // docs/product.md section 4: retry once, no refetch on window focus. Client errors are not retried.
      queries: {
        retry: (failures, err) => failures < 1 && !(httpStatus(err) && httpStatus(err)! < 500),
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
