import { Button, Group } from '@mantine/core';
import type { ListState } from '../lib/use-url-state.ts';

/** What a list page says about paging past the counted rows (the page answer's pagination). */
export interface CappedPaging {
  total_capped: boolean;
  next_cursor: string | null;
}

/**
 * Paging past the counted rows (docs/product.md "Paging at any size"): when more than 10,000 rows match, the page
 * numbers reach the first 10,000 and "Next" follows the page's cursor beyond them; "First page" comes back.
 */
export function PastCap({ paging, list, total }: { paging: CappedPaging | undefined; list: ListState; total: number }) {
  if (!paging?.total_capped) return null;
  const beyond = Boolean(list.cursor) || list.page * list.limit >= total;
  if (!beyond) return null;
  return (
    <Group justify="flex-end" gap="xs">
      <Button variant="default" size="xs" onClick={() => list.setPage(1)}>
        First page
      </Button>
      <Button size="xs" disabled={!paging.next_cursor} onClick={() => paging.next_cursor && list.setNext(paging.next_cursor)}>
        Next
      </Button>
    </Group>
  );
}
