import { useEffect } from 'react';
import { usePublicSettings } from './api.ts';

/** Sets the browser tab's title: "<page> · <app name>" (System Settings › App Name), or the app name alone. */
export function useDocumentTitle(page?: string | null) {
  const { app_name } = usePublicSettings();
  useEffect(() => {
    document.title = page ? `${page} · ${app_name}` : app_name;
  }, [page, app_name]);
}
