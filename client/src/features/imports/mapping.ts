/**
 * The import screen's own logic (docs/product.md "Imports"): the mapping table's choices and what a change sends,
 * the required fields still unmapped, the counts in words, and which kinds a caller may import. The server decides
 * every row; this only shapes the screen.
 */
import type { ImportCounts, ImportKind, ImportMapping } from '@lm/shared';

export interface MappingField {
  id: string;
  label: string;
  required: boolean;
}

/** The Select's value for "Do not import" (a Select value cannot be null). */
export const NOT_IMPORTED = '__none__';

/** The choices of one column's Select: "Do not import", then the kind's fields, required ones marked. */
export function fieldOptions(fields: readonly MappingField[]): { value: string; label: string }[] {
  return [
    { value: NOT_IMPORTED, label: 'Do not import' },
    ...fields.map((f) => ({ value: f.id, label: f.required ? `${f.label} (required)` : f.label })),
  ];
}

/**
 * The mapping after `column` is set to `fieldId` (or NOT_IMPORTED): a field takes one column, so another column that
 * had it is no longer imported. Every column of the file stays in the mapping (null when not imported).
 */
export function nextMapping(mapping: ImportMapping, column: string, fieldId: string | null): ImportMapping {
  const value = fieldId === null || fieldId === NOT_IMPORTED ? null : fieldId;
  const next: ImportMapping = {};
  for (const [header, field] of Object.entries(mapping)) next[header] = value !== null && field === value ? null : field;
  next[column] = value;
  return next;
}

/** The required fields no column maps to, in the fields' order. */
export function missingRequired(fields: readonly MappingField[], mapping: ImportMapping): MappingField[] {
  const mapped = new Set(Object.values(mapping).filter((v): v is string => v !== null));
  return fields.filter((f) => f.required && !mapped.has(f.id));
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "12 new · 3 updated · 0 unchanged · 2 errors": a past import's counts on one line. */
export function countsText(c: ImportCounts): string {
  return [
    `${c.create.toLocaleString('en-US')} new`,
    `${c.update.toLocaleString('en-US')} updated`,
    `${c.unchanged.toLocaleString('en-US')} unchanged`,
    plural(c.error, 'error', 'errors'),
  ].join(' · ');
}

/** What a commit wrote, in words: "15 rows written (12 created, 3 updated); 2 rows skipped with errors". */
export function resultText(c: ImportCounts): string {
  const written = c.create + c.update;
  const parts = [
    `${plural(written, 'row', 'rows')} written (${c.create.toLocaleString('en-US')} created, ${c.update.toLocaleString('en-US')} updated)`,
  ];
  if (c.unchanged) parts.push(`${plural(c.unchanged, 'row', 'rows')} already up to date`);
  if (c.error) parts.push(`${plural(c.error, 'row', 'rows')} skipped with errors`);
  return parts.join('; ');
}

/**
 * The kind the page shows: the one asked for when the caller may import it, else the first it may (null: none).
 * `allowed` is in the order the page offers them.
 */
export function kindToShow(asked: string | null, allowed: readonly ImportKind[]): ImportKind | null {
  const found = allowed.find((k) => k === asked);
  return found ?? allowed[0] ?? null;
}
