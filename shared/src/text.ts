/**
 * The one text schema of every input (docs/security.md "Exact input"). Text is trimmed and normalised to
 * Unicode NFC, then refused when it holds:
 *   - a control character (C0/C1: NUL, ESC, DEL...); multi-line fields allow TAB, LF and CR;
 *   - a lone surrogate (half of a UTF-16 pair: not a character at all);
 *   - a format character (bidi overrides, embeddings and isolates such as U+202E, zero-width space U+200B,
 *     BOM U+FEFF, soft hyphen...), except ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER, which Persian, Indic
 *     scripts and emoji sequences need between visible characters;
 *   - in single-line fields, a line or paragraph separator (U+2028, U+2029).
 * Text with nothing visible (only spaces and joiners) is empty: a required field answers its "required" message.
 * Multi-line text has its line ends normalised to LF (e-mails are written with CRLF by the mailer).
 */
import { z } from 'zod';

export const TEXT_MESSAGES = {
  refused: 'Remove control or invisible formatting characters (such as text-direction overrides) from this text',
  lineBreak: 'This field must be a single line',
} as const;

/** Characters no text field takes (TAB, LF and CR are let through here and judged by the kind). */
const REFUSED = /(?![\t\n\r])\p{Cc}|\p{Cs}|(?![\u200C\u200D])\p{Cf}/u;
const LINE_BREAK = /[\t\n\r\u2028\u2029]/;
/** Something a reader can see: anything but white space, joiners and other format characters. */
const VISIBLE = /[^\s\p{Cf}\p{Cc}]/u;

export type TextKind = 'single' | 'multi';

/** Every check this module creates, so a test can tell a field built here from a bare z.string(). */
const textChecks = new WeakSet<object>();

function textCheck(kind: TextKind, requiredMessage: string | undefined) {
  const check = z.superRefine<string>((value, ctx) => {
    if (requiredMessage !== undefined && !VISIBLE.test(value)) {
      ctx.addIssue({ code: 'custom', message: requiredMessage, input: value });
      return;
    }
    if (REFUSED.test(value)) ctx.addIssue({ code: 'custom', message: TEXT_MESSAGES.refused, input: value });
    else if (kind === 'single' && LINE_BREAK.test(value)) ctx.addIssue({ code: 'custom', message: TEXT_MESSAGES.lineBreak, input: value });
  });
  textChecks.add(check);
  return check;
}

const nfc = (s: string) => s.normalize('NFC');
const lf = (s: string) => s.replace(/\r\n?/g, '\n');

export interface TextOptions {
  /** Most characters (after trimming and NFC). */
  max: number;
  /** Makes the field required: missing, empty or invisible-only text answers this message. */
  required?: string;
  /** The message for text over `max` (default "Must be at most {max} characters"). */
  tooLong?: string;
}

function text(kind: TextKind, { max, required, tooLong }: TextOptions) {
  let s = z
    .string(required === undefined ? undefined : { error: required })
    .trim()
    .overwrite(nfc);
  if (kind === 'multi') s = s.overwrite(lf);
  // min(1) for the published schema (minLength 1); aborting, so "" answers the one "required" message.
  if (required !== undefined) s = s.min(1, { message: required, abort: true });
  // A required field's own error would otherwise be the message of every issue, "too long" included.
  return s.check(textCheck(kind, required)).max(max, tooLong ?? `Must be at most ${max} characters`);
}

/** One line of text: names, titles, numbers, descriptions of one line, search terms. */
export function singleLine(options: TextOptions | number) {
  return text('single', typeof options === 'number' ? { max: options } : options);
}

/** Text of several lines (notes, template bodies): TAB, CR and LF allowed, line ends stored as LF. */
export function multiLine(options: TextOptions | number) {
  return text('multi', typeof options === 'number' ? { max: options } : options);
}

/** Optional text that treats "" and invisible-only text as absent (null). */
export function optionalLine(max = 500, kind: TextKind = 'single') {
  return text(kind, { max })
    .nullish()
    .transform((v) => (v && VISIBLE.test(v) ? v : null));
}

/** True when the string schema carries the checks of this module (server/test/exact-input.test.ts). */
export function isTextSchema(schema: unknown): boolean {
  const checks = (schema as { _zod?: { def?: { checks?: unknown[] } } })._zod?.def?.checks ?? [];
  return checks.some((c) => typeof c === 'object' && c !== null && textChecks.has(c));
}

/** A query-string boolean: exactly "true" or "false" (z.boolean() would refuse both, z.coerce reads "false" as true). */
export const queryBoolean = z
  .enum(['true', 'false'], { error: 'Use true or false' })
  .transform((v) => v === 'true')
  .meta({ override: { type: 'string', enum: ['true', 'false'] } });

/** A decimal integer written as text ("12") becomes a number; anything else is left for the number schema to refuse. */
function digitsToNumber(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
}

/**
 * A number that may arrive as text (a path parameter, a query string) or as a JSON number. Unlike z.coerce,
 * `true`, "", " 12", "1e3" and "0x10" are refused rather than read as 1, 0, 12, 1000 and 16.
 * Typed as taking a number, so callers (the client) keep number inputs.
 */
export function numberFromText(schema: z.ZodType<number, number>): z.ZodType<number, number> {
  return z.preprocess(digitsToNumber, schema) as unknown as z.ZodType<number, number>;
}
