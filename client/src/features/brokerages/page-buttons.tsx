import { Button, Group, Text } from '@mantine/core';
import { pageWindow } from '@lm/shared';

interface Props {
  page: number;
  pages: number;
  total: number;
  limit: number;
  onChange: (page: number) => void;
}

/** Previous / at most 5 numbered page buttons / Next, with 'Showing X to Y of Z entries'. */
export function PageButtons({ page, pages, total, limit, onChange }: Props) {
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);
  return (
    <Group justify="space-between" mt="md" wrap="wrap">
      <Text size="sm" c="dimmed">
        Showing {from} to {to} of {total} entries
      </Text>
      {pages > 1 && (
        <Group gap={4} role="navigation" aria-label="Pagination">
          <Button size="xs" variant="default" disabled={page <= 1} onClick={() => onChange(page - 1)}>
            Previous
          </Button>
          {pageWindow(page, pages).map((p) => (
            <Button
              key={p}
              size="xs"
              variant={p === page ? 'filled' : 'default'}
              aria-current={p === page ? 'page' : undefined}
              aria-label={`Page ${p}`}
              onClick={() => onChange(p)}
            >
              {p}
            </Button>
          ))}
          <Button size="xs" variant="default" disabled={page >= pages} onClick={() => onChange(page + 1)}>
            Next
          </Button>
        </Group>
      )}
    </Group>
  );
}
