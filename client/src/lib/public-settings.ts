/**
 * The office's public settings (System Settings: app name, description, support contacts, and the office's calendar:
 * date format, time zone, today; no sign-in needed) and the browser tab's title made from them. Shared by the
 * signed-out screens and the signed-in layout (components/office-calendar.tsx hands the calendar to lib/format.ts).
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
  date_format: DEFAULT_SETTINGS.date_format,
  // Until the server answers: the browser's zone and its own date (lib/format.ts officeToday).
  time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  today: '',
};

/**
 * App name, description, support contacts and the office's calendar (no sign-in needed); the defaults while loading.
 * `settled`: the server has answered, or could not (the defaults then stand).
 */
export function usePublicSettings(): PublicSettings & { loaded: boolean; settled: boolean } {
  const q = trpc.settings.public.useQuery(undefined, { staleTime: 60_000 });
  return { ...(q.data ?? FALLBACK), loaded: q.isSuccess, settled: q.data !== undefined || q.isError };
}

/** Sets the browser tab's title: "<page> · <app name>" (System Settings › App Name), or the app name alone. */
export function useDocumentTitle(page?: string | null) {
  const { app_name } = usePublicSettings();
  useEffect(() => {
    document.title = page ? `${page} · ${app_name}` : app_name;
  }, [page, app_name]);
}
