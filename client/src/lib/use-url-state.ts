import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useDebouncedCallback } from '@mantine/hooks';
import { useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '@lm/shared';

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

/** Page sizes every list offers (docs/product.md "Lists"). */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

/**
 * A list's state in the URL: page, limit (one of PAGE_SIZES), sort and order, plus the list's own filters
 * (strings; '' is "any"). `query` is what the page procedure and the CSV export take: filters left out when
 * empty. Changing a filter, the sort or the size returns to page 1.
 */
export function useListState<F extends Record<string, string>>(defaults: {
  sort: string;
  order?: 'asc' | 'desc';
  limit?: number;
  /** The sizes this list offers (PAGE_SIZES unless its rules say otherwise, as the audit log's 25/50/100). */
  pageSizes?: readonly number[];
  filters: F;
}) {
  const [state, setState] = useUrlState({
    page: '1',
    // A page past the counted rows is asked by the cursor the page before answered (docs/decisions.md "Paging at any size").
    cursor: '',
    limit: String(defaults.limit ?? DEFAULT_PAGE_SIZE),
    sort: defaults.sort,
    order: defaults.order ?? 'asc',
    ...defaults.filters,
  } as Record<string, string>);
  const page = Math.max(1, Math.floor(Number(state.page)) || 1);
  const limit = (defaults.pageSizes ?? PAGE_SIZES).includes(Number(state.limit))
    ? Number(state.limit)
    : (defaults.limit ?? DEFAULT_PAGE_SIZE);
  const order: 'asc' | 'desc' = state.order === 'desc' ? 'desc' : 'asc';
  const filters = Object.fromEntries(Object.keys(defaults.filters).map((k) => [k, state[k] ?? ''])) as F;
  return {
    page,
    limit,
    sort: state.sort ?? defaults.sort,
    order,
    filters,
    /** The cursor the page is asked by ('' when by its number). */
    cursor: state.cursor ?? '',
    setPage: (p: number) => setState({ page: String(p), cursor: '' }),
    /** The page after this one, by the cursor this page answered (`next_cursor`). */
    setNext: (cursor: string) => setState({ page: String(page + 1), cursor }),
    setLimit: (n: number) => setState({ limit: String(n), cursor: '' }),
    setSort: (sort: string, dir: 'asc' | 'desc') => setState({ sort, order: dir, cursor: '' }),
    setFilters: (patch: Partial<F>) => setState({ ...(patch as Record<string, string>), cursor: '' }),
  };
}

export type ListState = ReturnType<typeof useListState>;

/** Non-empty entries only, for a query input or a query string. */
export function presentValues<T extends Record<string, string>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')) as Partial<T>;
}
