/**
 * E-mail addresses as accounts know them (docs/security.md "E-mail addresses"): Unicode NFKC, trimmed,
 * lower-cased; refused when they hold invisible characters or mix scripts inside one part, so
 * `admin@t.test` followed by a zero-width space, or with a Cyrillic "а", is not a second Admin.
 */
import { z } from 'zod';
import { EMAIL_RE } from './common.ts';

export const EMAIL_MESSAGES = {
  required: 'Email is required',
  invalid: 'Invalid email address',
  invisible: 'Email address contains invisible or control characters',
  mixedScript: 'Email address mixes letters from different alphabets (for example Latin and Cyrillic)',
} as const;

export function normalizeEmail(value: string): string {
  return value.normalize('NFKC').trim().toLowerCase();
}

/** Format, control, private-use, unassigned and default-ignorable code points (U+200B, U+FEFF, U+00AD...). */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]/u;

const SCRIPTS: Array<[string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Han', /\p{Script=Han}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Bopomofo', /\p{Script=Bopomofo}/u],
  ['Hangul', /\p{Script=Hangul}/u],
];
/** Unicode TS #39 "highly restrictive": one script, or Latin with the scripts written alongside Han. */
const ALLOWED_MIXES = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

function scriptsOf(part: string): Set<string> {
  const found = new Set<string>();
  for (const ch of part) {
    if (!/\p{L}/u.test(ch)) continue; // digits, punctuation and marks belong to every script
    found.add(SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'Other');
  }
  return found;
}

/** True when the local part or a domain label mixes scripts beyond what UTS #39 allows. */
export function mixesScripts(email: string): boolean {
  const at = email.lastIndexOf('@');
  const parts = at < 0 ? [email] : [email.slice(0, at), ...email.slice(at + 1).split('.')];
  return parts.some((part) => {
    const scripts = scriptsOf(part);
    return scripts.size > 1 && !ALLOWED_MIXES.some((allowed) => [...scripts].every((s) => allowed.has(s)));
  });
}

/** The one e-mail schema of accounts: sign-in, user create/edit, profile, password reset. */
export const emailSchema = z
  .string({ error: EMAIL_MESSAGES.required })
  .transform(normalizeEmail)
  .pipe(
    z
      .string()
      .min(1, EMAIL_MESSAGES.required)
      .max(254)
      .refine((v) => !INVISIBLE.test(v), EMAIL_MESSAGES.invisible)
      .refine((v) => !mixesScripts(v), EMAIL_MESSAGES.mixedScript)
      .regex(EMAIL_RE, EMAIL_MESSAGES.invalid),
  );
