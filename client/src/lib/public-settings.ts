/**
 * The office's public settings (System Settings: app name, description, support contacts; no sign-in needed) and
 * the browser tab's title made from them. Shared by the signed-out screens and the signed-in layout.
 */
import { useEffect } from 'react';
import type { PublicSettings } from '@lm/shared';
// A subpath without zod: this module is part of the sign-in page (docs/performance.md "First page").
import { DEFAULT_SETTINGS } from '@lm/shared/settings-defaults';
import { trpc } from './trpc.ts';

const FALLBACK: PublicSettings = {
  app_name: DEFAULT_SETTINGS.app_name,
  app_description: DEFAULT_SETTINGS.app_description,
  support_email: DEFAULT_SETTINGS.support_email,
  support_phone: DEFAULT_SETTINGS.support_phone,
};

/** App name, description and support contacts (no sign-in needed); the defaults while loading. */
export function usePublicSettings(): PublicSettings & { loaded: boolean } {
  const q = trpc.settings.public.useQuery(undefined, { staleTime: 60_000 });
  return { ...(q.data ?? FALLBACK), loaded: q.isSuccess };
}

/** Sets the browser tab's title: "<page> · <app name>" (System Settings › App Name), or the app name alone. */
export function useDocumentTitle(page?: string | null) {
  const { app_name } = usePublicSettings();
  useEffect(() => {
    document.title = page ? `${page} · ${app_name}` : app_name;
  }, [page, app_name]);
}
