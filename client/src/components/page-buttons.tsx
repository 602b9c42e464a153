import { Button, Group, Text } from '@mantine/core';
import { pageWindow, showingText } from '@lm/shared';

interface Props {
  page: number;
  pages: number;
  total: number;
  limit: number;
  onChange: (page: number) => void;
}

/** 'Showing X to Y of Z entries', Previous, at most 5 numbered page buttons, Next (docs/product.md section 2). */
export function PageButtons({ page, pages, total, limit, onChange }: Props) {
  return (
    <Group justify="space-between" mt="md" wrap="wrap">
      <Text size="sm" c="dimmed" data-testid="showing">
        {showingText(page, limit, total)}
      </Text>
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
    </Group>
  );
}
