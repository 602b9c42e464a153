import { z } from 'zod';
import { MAX_ID } from './common.ts';
import { singleLine } from './text.ts';

/**
 * The pickers of the forms and filters (the holder select, the brokerage select, ...) ask the server as the person
 * types: the first PICKER_LIMIT matches in name order, at most PICKER_LIMIT_MAX (docs/decisions.md "Pickers search
 * the server").
 */
export const PICKER_LIMIT = 20;
export const PICKER_LIMIT_MAX = 50;

export const PICKER_MESSAGES = {
  ids: `ids must be up to ${PICKER_LIMIT_MAX} ids separated by commas, e.g. 12,40`,
};

const IDS_RE = /^\d{1,10}(,\d{1,10})*$/;

/**
 * `ids` of a picker: "12,40" (a query string's text), the chosen values a form shows by name although they are not
 * among the first matches. Read as numbers; at most PICKER_LIMIT_MAX.
 */
export const pickerIdsParam = singleLine(12 * PICKER_LIMIT_MAX)
  .refine((v) => IDS_RE.test(v), PICKER_MESSAGES.ids)
  .transform((v) => [...new Set(v.split(',').map(Number))])
  .refine((ids) => ids.length <= PICKER_LIMIT_MAX && ids.every((id) => id >= 1 && id <= MAX_ID), PICKER_MESSAGES.ids)
  .meta({ override: { type: 'string', pattern: IDS_RE.source, example: '12,40' } });

/**
 * The query of every picker endpoint: `search` (contains, ignoring case; what each picker matches is its own),
 * `limit` (PICKER_LIMIT unless asked, at most PICKER_LIMIT_MAX) and `ids` (only these, e.g. the current value).
 */
export const pickerQuery = z.object({
  search: singleLine(200).optional(),
  limit: z.coerce.number().int().min(1).max(PICKER_LIMIT_MAX).default(PICKER_LIMIT),
  ids: pickerIdsParam.optional(),
});
export type PickerQuery = z.input<typeof pickerQuery>;
export type PickerQueryValues = z.output<typeof pickerQuery>;
