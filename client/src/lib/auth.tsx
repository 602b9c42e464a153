import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '@lm/shared';
import { roleName, type RoleName } from '@lm/shared/roles';
import { can as policyAllows, type PolicyAction, type PolicyObject } from '@lm/shared/policy';
import { trpc } from './trpc.ts';
import { tokenStore } from './token.ts';
import { httpStatus } from './errors.ts';

interface AuthState {
  user: User | null;
  role: RoleName | null;
  loading: boolean;
  /**
   * The last session ended by the server (a 401: expired, revoked, signed out elsewhere), not by Logout: the sign-in
   * page says so until the next sign-in (docs/decisions.md "Nothing lost").
   */
  sessionExpired: boolean;
  /** The person logged out (not an expiry): the sign-in that follows starts at the dashboard, not where they were. */
  loggedOut: boolean;
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
  const [sessionExpired, setSessionExpired] = useState(false);
  const [loggedOut, setLoggedOut] = useState(false);
  const loggingOut = useRef(false);

  const clearSession = useCallback(() => {
    tokenStore.clear();
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  useEffect(() => {
    if (me.isError && hasToken) {
      console.warn('Could not load the current user; signing out.', me.error.message);
      if (httpStatus(me.error) === 401) setSessionExpired(true);
      clearSession();
    }
  }, [me.isError, me.error, hasToken, clearSession]);

  // Any 401 anywhere (see providers.tsx) ends the local session; the routes then show /login, which says why and
  // brings the person back to this page after signing in (app/app.tsx keeps the path and query).
  useEffect(() => {
    const expired = () => {
      if (!loggingOut.current) setSessionExpired(true);
      clearSession();
    };
    window.addEventListener(UNAUTHORIZED_EVENT, expired);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, expired);
  }, [clearSession]);

  const user = hasToken && me.data ? me.data : null;

  const signedIn = useCallback(
    (newToken: string, u: User) => {
      tokenStore.set(newToken);
      utils.auth.me.setData(undefined, u);
      setSessionExpired(false);
      setLoggedOut(false);
      setToken(newToken);
    },
    [utils],
  );

  const logout = useCallback(async () => {
    // Calls answered 401 while the session is being ended are this logout, not an expiry.
    loggingOut.current = true;
    try {
      if (tokenStore.get()) await logoutMutation.mutateAsync();
    } catch {
      // Logout clears the local session even if the server call fails.
    } finally {
      setLoggedOut(true);
      clearSession();
      loggingOut.current = false;
    }
  }, [logoutMutation, clearSession]);

  const value = useMemo<AuthState>(() => {
    const role = user ? roleName(user.role_id) : null;
    return {
      user,
      role,
      loading: hasToken && me.isLoading,
      sessionExpired,
      loggedOut,
      signedIn,
      logout,
      can: (action, object) => policyAllows(user, action, object),
    };
  }, [user, hasToken, me.isLoading, sessionExpired, loggedOut, signedIn, logout]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
