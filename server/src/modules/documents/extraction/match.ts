/**
 * Matching what a certificate prints against the catalogue (docs/ocr.md "Judge"): pure functions, no database.
 * Names are compared word by word after normalisation (lower case, accents and punctuation removed, stop words such
 * as "the", "course", "hours" dropped), a word matching another with one OCR slip ("Updale", "Lavv", "Fa1r"), and
 * the words that tell editions apart (numbers, years, roman numerals: "Legal Update I" and "II") must agree.
 */

const STOP = new Set(['the', 'a', 'an', 'of', 'and', 'for', 'in', 'to', 'on', 'course', 'ce', 'hour', 'hours', 'hr', 'hrs', '&']);
const ROMAN = new Set(['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x']);

/** Lower case, no accents, OCR's "vv" as "w", letters and digits only. */
function plain(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/vv/g, 'w')
    .replace(/[^a-z0-9\s&]/g, ' ');
}

/** A word's letters with OCR's digit slips inside a word repaired (1 → i, 0 → o, 5 → s). */
function repairWord(w: string): string {
  return /[a-z]/.test(w) && /\d/.test(w) && !/^\d+(st|nd|rd|th)$/.test(w) ? w.replace(/1/g, 'i').replace(/0/g, 'o').replace(/5/g, 's') : w;
}

export function tokens(s: string): string[] {
  return plain(s)
    .split(/\s+/)
    .map(repairWord)
    .filter((t) => t && !STOP.has(t));
}

/** Words that tell editions or parts apart: numbers, years, roman numerals. */
const isEdition = (t: string) => /^\d+$/.test(t) || ROMAN.has(t);

function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** How much two words agree: 1 equal, 0.8 one slip apart (words of 4 letters or more), else 0. */
function wordMatch(a: string, b: string): number {
  if (a === b) return 1;
  if (isEdition(a) || isEdition(b)) return 0;
  if (Math.min(a.length, b.length) >= 4 && levenshtein(a, b) <= (Math.max(a.length, b.length) >= 8 ? 2 : 1)) return 0.8;
  return 0;
}

/**
 * 0..1: how alike two names are. Each word of the shorter is paired with its best match in the other (Dice over
 * words, a slip counting 0.8); editions that differ on both sides ("2025" and "2026", "I" and "II") halve it.
 */
export function similarity(a: string, b: string): number {
  const ta = [...new Set(tokens(a))];
  const tb = [...new Set(tokens(b))];
  if (!ta.length || !tb.length) return 0;
  const used = new Set<number>();
  let matched = 0;
  for (const w of ta) {
    let best = 0;
    let at = -1;
    tb.forEach((v, i) => {
      if (used.has(i)) return;
      const m = wordMatch(w, v);
      if (m > best) {
        best = m;
        at = i;
      }
    });
    if (at >= 0) {
      used.add(at);
      matched += best;
    }
  }
  let score = (2 * matched) / (ta.length + tb.length);
  const ea = ta.filter(isEdition);
  const eb = tb.filter(isEdition);
  if (ea.length && eb.length && (ea.some((e) => !eb.includes(e)) || eb.some((e) => !ea.includes(e)))) score /= 2;
  return score;
}

/**
 * 0.85 when the name read begins with the whole catalogue name of at least three words and goes on ("Contract Law
 * Update 2026 Approved for continuing education credit by ...", a title read with the line after it), else 0. Not
 * the same name, so it needs another agreement like any look-alike.
 */
export function startsWithName(read: string, catalogue: string): number {
  const r = tokens(read);
  const c = tokens(catalogue);
  return c.length >= 3 && r.length > c.length && c.every((t, i) => r[i] === t) ? 0.85 : 0;
}

/** The same name once normalised (case, punctuation, stop words, OCR's digit slips). */
export function sameName(a: string, b: string): boolean {
  const ta = tokens(a);
  const tb = tokens(b);
  return ta.length > 0 && ta.join(' ') === tb.join(' ');
}

/** Letters and digits only, upper case: "CE-4471" and "ce 4471" are one number. */
export const normNumber = (s: string) => s.replace(/[^A-Za-z0-9]/g, '').toUpperCase();

/**
 * Two printed numbers (approval or license numbers) are the same: equal once normalised, or one is the other with
 * a prefix ("TREC 0012-345" printed as "0012-345") when the shorter has at least 5 characters and a digit.
 */
export function sameNumber(a: string, b: string): boolean {
  const x = normNumber(a);
  const y = normNumber(b);
  if (!x || !y) return false;
  if (x === y) return true;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  return short.length >= 5 && /\d/.test(short) && long.endsWith(short);
}

/** Providers agree: the same once normalised, one contains the other ("Realty Academy of Texas, LLC"), or alike. */
export function providerAgrees(read: string, catalogue: string): boolean {
  const a = tokens(read).join(' ');
  const b = tokens(catalogue).join(' ');
  if (!a || !b) return false;
  if (a === b || ` ${b} `.includes(` ${a} `) || ` ${a} `.includes(` ${b} `)) return true;
  return similarity(read, catalogue) >= 0.8;
}

/**
 * The provider as the catalogue names it: the same words once normalised, a leading "The" and a company suffix
 * (Inc, LLC, Ltd, Co) aside. Stricter than providerAgrees: a green value is the provider itself, not a near miss.
 */
export function sameProvider(read: string, catalogue: string): boolean {
  const words = (s: string) =>
    tokens(s)
      .filter((t) => !['inc', 'llc', 'ltd', 'co', 'corp'].includes(t))
      .join(' ');
  return words(read) !== '' && words(read) === words(catalogue);
}

/** Providers clearly differ (a veto on a name match): little in common. */
export function providerDiffers(read: string, catalogue: string): boolean {
  return !providerAgrees(read, catalogue) && similarity(read, catalogue) < 0.4;
}

/** A name this alike (and not the same) is a candidate only when something else agrees. */
export const COURSE_NAME_MIN = 0.8;
