/**
 * matchCertificate: the completion a certificate suggests (docs/ocr.md). The course: the active course of the
 * catalogue whose name is most like the name read (normalised tokens and letter pairs, so OCR slips still
 * match), nudged by the provider; the license: the owner's license with the number read, else the owner's
 * only Active license, else none.
 */
import { eq } from 'drizzle-orm';
import type { CertificateFields, CompletionSuggestion } from '@lm/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { courses, licenses } from '../../../db/schema/index.ts';

const STOP = new Set(['the', 'a', 'an', 'of', 'and', 'for', 'in', 'to', 'on', 'course', 'ce', 'hour', 'hours', 'hr', 'hrs']);

export function tokens(s: string): string[] {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9\s]/g, ' ')
    .split(/\s+/)
    .filter((t) => t && !STOP.has(t));
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  const t = ` ${s} `;
  for (let i = 0; i < t.length - 1; i++) {
    const g = t.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

function dice(a: Map<string, number>, b: Map<string, number>): number {
  let both = 0;
  let total = 0;
  for (const [g, n] of a) {
    both += Math.min(n, b.get(g) ?? 0);
    total += n;
  }
  for (const n of b.values()) total += n;
  return total === 0 ? 0 : (2 * both) / total;
}

/** 0..1: the mean of the token overlap (Dice) and the letter-pair overlap of the normalised names. */
export function similarity(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  if (!ta.length || !tb.length) return 0;
  const setB = new Set(tb);
  const common = new Set(ta.filter((t) => setB.has(t))).size;
  const tokenDice = (2 * common) / (new Set(ta).size + setB.size);
  const letters = dice(bigrams(ta.join(' ')), bigrams(tb.join(' ')));
  return (tokenDice + letters) / 2;
}

/** A course is suggested only when the names are at least this alike. */
export const COURSE_MATCH_MIN = 0.5;

const normNumber = (s: string) => s.replace(/[^A-Za-z0-9]/g, '').toUpperCase();

export interface CatalogueCourse {
  course_id: number;
  course_name: string;
  provider: string;
  ce_hours: number;
}

/** The catalogue course most like the certificate's (null under COURSE_MATCH_MIN), with its score. */
export function bestCourse<C extends CatalogueCourse>(fields: CertificateFields, catalogue: C[]): { course: C | null; score: number } {
  const read = fields.course_name.value;
  let course: C | null = null;
  let best = 0;
  if (!read) return { course, score: 0 };
  for (const c of catalogue) {
    let s = similarity(read, c.course_name);
    // The provider breaks near ties and lifts a close name; it never makes a poor name match.
    if (fields.provider.value && s >= 0.35) s = Math.min(1, s + 0.1 * (similarity(fields.provider.value, c.provider) - 0.5));
    if (fields.hours.value !== null && Math.abs(fields.hours.value - c.ce_hours) < 0.01) s = Math.min(1, s + 0.02);
    if (s > best || (s === best && course && c.course_id < course.course_id)) {
      best = s;
      course = c;
    }
  }
  return best < COURSE_MATCH_MIN ? { course: null, score: best } : { course, score: best };
}

export async function matchCertificate(db: DbOrTx, fields: CertificateFields, ownerId: number): Promise<CompletionSuggestion> {
  const catalogue = fields.course_name.value
    ? await db
        .select({ course_id: courses.course_id, course_name: courses.course_name, provider: courses.provider, ce_hours: courses.ce_hours })
        .from(courses)
        .where(eq(courses.is_active, true))
    : [];
  const { course, score: courseMatch } = bestCourse(fields, catalogue);

  const owned = await db
    .select({ license_id: licenses.license_id, license_number: licenses.license_number, status: licenses.status })
    .from(licenses)
    .where(eq(licenses.user_id, ownerId));
  const number = fields.license_number.value ? normNumber(fields.license_number.value) : null;
  const active = owned.filter((l) => l.status === 'Active');
  const license =
    (number ? owned.find((l) => normNumber(l.license_number) === number) : undefined) ?? (active.length === 1 ? active[0]! : null);

  // The hours cannot exceed the course's (the completion's rule), so a larger reading is capped at them.
  const hours =
    fields.hours.value !== null && course
      ? Math.min(fields.hours.value, course.ce_hours)
      : (fields.hours.value ?? course?.ce_hours ?? null);
  return {
    course_id: course?.course_id ?? null,
    course_name: course?.course_name ?? null,
    course_match: Math.round(courseMatch * 100) / 100,
    license_id: license?.license_id ?? null,
    license_number: license?.license_number ?? null,
    user_id: ownerId,
    hours,
    completion_date: fields.completion_date.value,
  };
}
