import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useDebouncedCallback } from '@mantine/hooks';
import { useSearchParams } from 'react-router';

/**
 * List state (page, size, sort, filters) kept in the URL's query string, so a filtered list can be
 * bookmarked and survives a reload. Values are strings; `defaults` are left out of the URL.
 * Changing anything but `page` returns to page 1.
 */
export function useUrlState<T extends Record<string, string>>(defaultsArg: T) {
  const [params, setParams] = useSearchParams();
  // The defaults are a literal at the call site: keep the first one so identities stay stable.
  const [defaults] = useState(defaultsArg);
  // The URL asked for but not yet rendered: a second change before the re-render (two quick edits)
  // builds on it instead of on the stale `prev`, so the first edit is not lost.
  const pending = useRef<{ base: URLSearchParams; next: URLSearchParams } | null>(null);
  const state = useMemo(() => {
    const out = { ...defaults } as Record<string, string>;
    for (const key of Object.keys(defaults)) {
      const v = params.get(key);
      if (v !== null) out[key] = v;
    }
    return out as T;
  }, [params, defaults]);

  const update = useCallback(
    (patch: Partial<T>) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(pending.current?.base === params ? pending.current.next : prev);
          const resetPage = Object.keys(patch).some((k) => k !== 'page');
          for (const [k, v] of Object.entries(patch)) {
            if (v === undefined || v === '' || v === defaults[k]) next.delete(k);
            else next.set(k, String(v));
          }
          if (resetPage && 'page' in defaults && !('page' in patch)) next.delete('page');
          pending.current = { base: params, next };
          return next;
        },
        { replace: true },
      );
    },
    [setParams, defaults, params],
  );

  return [state, update] as const;
}

/**
 * A search box over a value kept in the URL: typing shows at once, the URL (and so the query) follows
 * `wait` ms later, and the box follows the URL when it changes from outside (back button, bookmark).
 */
export function useUrlSearch(urlValue: string, apply: (value: string) => void, wait = 300) {
  const [text, setText] = useState(urlValue);
  const applyLater = useDebouncedCallback((value: string) => apply(value.trim()), wait);
  // Keep what is being typed (e.g. a trailing space) when the URL only caught up with it.
  useEffect(() => setText((current) => (current.trim() === urlValue ? current : urlValue)), [urlValue]);
  const onChange = useCallback(
    (value: string) => {
      setText(value);
      applyLater(value);
    },
    [applyLater],
  );
  return [text, onChange] as const;
}
