import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '@lm/shared';
import { roleName, type RoleName } from '@lm/shared/roles';
import { can as policyAllows, type PolicyAction, type PolicyObject } from '@lm/shared/policy';
import { trpc } from './trpc.ts';
import { tokenStore } from './token.ts';

interface AuthState {
  user: User | null;
  role: RoleName | null;
  loading: boolean;
  /** Stores the token and user after a successful sign-in. */
  signedIn: (token: string, user: User) => void;
  /** Ends the session on the server (best effort) and locally. */
  logout: () => Promise<void>;
  /**
   * Whether the signed-in user may do the action (to this object): the access policy the server enforces
   * (shared/src/policy.ts), so the UI hides exactly what the server would refuse.
   */
  can: <A extends PolicyAction>(action: A, object?: PolicyObject<A>) => boolean;
}

const AuthContext = createContext<AuthState | null>(null);

/** Dispatched on window when any call answers 401. */
export const UNAUTHORIZED_EVENT = 'lm:unauthorized';

/**
 * Session state (docs/product.md section 4): with a stored token the user is fetched from /auth/me at start
 * while `loading` is true; if that fails the token is discarded and the user stays signed out.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(() => tokenStore.get());
  const hasToken = token !== null;
  const me = trpc.auth.me.useQuery(undefined, { enabled: hasToken, retry: false, staleTime: 60_000 });
  const logoutMutation = trpc.auth.logout.useMutation();

  const clearSession = useCallback(() => {
    tokenStore.clear();
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  useEffect(() => {
    if (me.isError && hasToken) {
      console.warn('Could not load the current user; signing out.', me.error.message);
      clearSession();
    }
  }, [me.isError, me.error, hasToken, clearSession]);

  // Any 401 anywhere (see providers.tsx) ends the local session; the routes then show /login.
  useEffect(() => {
    window.addEventListener(UNAUTHORIZED_EVENT, clearSession);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, clearSession);
  }, [clearSession]);

  const user = hasToken && me.data ? me.data : null;

  const signedIn = useCallback(
    (newToken: string, u: User) => {
      tokenStore.set(newToken);
      utils.auth.me.setData(undefined, u);
      setToken(newToken);
    },
    [utils],
  );

  const logout = useCallback(async () => {
    try {
      if (tokenStore.get()) await logoutMutation.mutateAsync();
    } catch {
      // Logout clears the local session even if the server call fails.
    } finally {
      clearSession();
    }
  }, [logoutMutation, clearSession]);

  const value = useMemo<AuthState>(() => {
    const role = user ? roleName(user.role_id) : null;
    return {
      user,
      role,
      loading: hasToken && me.isLoading,
      signedIn,
      logout,
      can: (action, object) => policyAllows(user, action, object),
    };
  }, [user, hasToken, me.isLoading, signedIn, logout]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
