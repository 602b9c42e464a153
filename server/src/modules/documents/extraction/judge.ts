/**
 * The judge (docs/ocr.md "Judge"): what a reading's values are worth, from a second source. Pure: the reading, the
 * owner (his name and licenses), the active catalogue and today's date in; each field's check (`confirmed` only
 * when the reading and a second source agree, else `check` with a note in words, or `missing`), the suggested
 * completion, a transcript's courses and the warnings out. The confidence numbers are kept as read and never colour
 * anything.
 */
import type {
  CertificateCourse,
  CertificateExtraction,
  CertificateFields,
  CompletionSuggestion,
  ExtractionWarning,
  FieldCheck,
} from '@lm/shared';
import { cycleContaining, cyclesOf, type Cycle } from '../../licenses/ce-ledger.ts';
import type { CertificateReading, ReadCourse, ReadValue } from './reading.ts';
import {
  COURSE_NAME_MIN,
  normNumber,
  providerAgrees,
  providerDiffers,
  sameName,
  sameNumber,
  sameProvider,
  similarity,
  startsWithName,
  tokens,
} from './match.ts';

export interface JudgeLicense {
  license_id: number;
  license_number: string;
  state: string;
  license_type: string;
  status: string;
  issue_date: string | null;
  expiration_date: string;
  /**
   * The license's cycles as the CE ledger computes them (ce-ledger.ts cyclesOf, closed cycles included); index.ts
   * passes them. Absent: one cycle from the issue date to the expiration date, by the same cyclesOf.
   */
  cycles?: Array<Pick<Cycle, 'start_date' | 'end_date' | 'counts_from'>>;
}

export interface JudgeContext {
  today: string; // YYYY-MM-DD, the office's date
  owner: { user_id: number; first_name: string; last_name: string; licenses: JudgeLicense[] };
  catalogue: Array<{
    course_id: number;
    course_name: string;
    provider: string;
    ce_hours: number;
    school_id: number | null;
    approval_number: string | null;
    approval_state: string | null;
  }>;
}

type Course = JudgeContext['catalogue'][number];
type Judged = Pick<CertificateExtraction, 'kind' | 'fields' | 'suggestion' | 'courses' | 'warnings'>;

/** The words of the judge (docs/ocr.md "Judge"): what the person reads beside a value to check. */
export const JUDGE_MESSAGES = {
  notCertificate: 'This does not look like a CE certificate',
  invoice: 'This looks like an invoice, not a certificate',
  notCertificateNote: 'Read from a document that is not a certificate',
  severalCourses: (n: number) => `${n} courses found: pick one or record all`,
  otherPerson: (read: string, owner: string) => `The name on the certificate is ${read}, not ${owner}`,
  nameSpelling: (read: string, owner: string) => `Read as ${read}; check that it is ${owner}`,
  notAName: "This does not look like a person's name; check who the certificate is for",
  otherLicense: (read: string, owner: string) =>
    `The license number on the certificate is ${read}, which is not one of ${owner}'s licenses`,
  notInCatalogue: (read: string) => `"${read}" is not in the course catalogue: pick the course, or ask a School or an Admin to add it`,
  approvalNotInCatalogue: (read: string) => `No course in the catalogue has the approval number ${read}`,
  sameNameCourses: (n: number) => `${n} courses have this name; check the provider`,
  closestOnly: (name: string) => `Only the name looks like the catalogue's "${name}"; check the course`,
  readAs: (name: string) => `The catalogue's course is "${name}"; check the spelling`,
  byApproval: (name: string) => `The approval number is that of "${name}"; check the course`,
  noCourse: 'No catalogue course to compare it with',
  providerOfCourse: (provider: string) => `The course's provider is ${provider}`,
  hoursDiffer: (course: number, read: number) =>
    `The course's catalogue hours are ${course}, the certificate says ${read}${read > course ? `; at most ${course} can be recorded` : ''}`,
  dateInFuture: (date: string) => `The date ${date} is in the future`,
  dateOutsideCycle: (date: string, license: string) => `The date ${date} is outside the CE cycles of license ${license}`,
  dateNoLicense: 'No license to check the date against',
  dateUnlabelled: 'No completion label beside this date; check that it is the completion date',
  stateUnknown: (state: string) => `${state} is not the state of your licenses or of the course's approval`,
  stateNotCourse: (state: string) => `${state} is not the state that approved the suggested course; check the course`,
  approvalDiffers: (number: string) => `The course's approval number is ${number}`,
  approvalNone: 'The catalogue has no approval number for this course',
  licenseNone: 'The owner has no license to compare it with',
  licenseReadAs: (read: string, license: string) => `Read as ${read}; it looks like license ${license}`,
} as const;

/** A judged field (shared/src/extraction.ts certificateFieldsSchema). */
interface Field<T> {
  value: T | null;
  confidence: number;
  check: FieldCheck;
  note: string | null;
}

const read = <T>(v: ReadValue<T>, check: FieldCheck, note: string | null = null): Field<T> => ({
  value: v.value,
  confidence: v.confidence,
  check: v.value === null ? 'missing' : check,
  note: v.value === null ? null : note,
});

const confirmed = <T>(v: ReadValue<T>) => read(v, 'confirmed');
const toCheck = <T>(v: ReadValue<T>, note: string | null) => read(v, 'check', note);

// ---------------------------------------------------------------------------------------------------------------
// The course

interface CourseJudgement {
  course: Course | null;
  /** 0..1, 1 for an approval number match. */
  match: number;
  name: Field<string>;
  approval: Field<string>;
  warnings: ExtractionWarning[];
}

/** Agreements other than the name: the provider, the approval state, the hours. */
function agreements(c: Course, fields: { provider?: ReadValue<string>; state?: ReadValue<string>; hours: ReadValue<number> }): number {
  let n = 0;
  if (fields.provider?.value && providerAgrees(fields.provider.value, c.provider)) n++;
  if (fields.state?.value && c.approval_state && fields.state.value.toUpperCase() === c.approval_state.toUpperCase()) n++;
  if (fields.hours.value !== null && Math.abs(fields.hours.value - c.ce_hours) < 0.01) n++;
  return n;
}

/**
 * The course a certificate proves: by its approval number first (normalised), else by name: the same name, or a
 * name this alike (COURSE_NAME_MIN) with another agreement (provider, approval state or hours). A provider read that
 * clearly differs rules a course out. Several courses of the same name and nothing to tell them apart: none.
 */
function judgeCourse(
  fields: Pick<ReadCourse, 'course_name' | 'approval_number' | 'hours'> & { provider?: ReadValue<string>; state?: ReadValue<string> },
  catalogue: Course[],
): CourseJudgement {
  const name = fields.course_name;
  const number = fields.approval_number;
  const warnings: ExtractionWarning[] = [];
  // A provider read that clearly differs rules a course out; a one-word reading ("Number", a stray label) is no
  // provider and rules nothing out.
  const vetoed = (c: Course) =>
    !!fields.provider?.value && tokens(fields.provider.value).length >= 2 && providerDiffers(fields.provider.value, c.provider);

  // 1. The approval number.
  let numberOf: Course | null = null;
  if (number.value) {
    let byNumber = catalogue.filter((c) => c.approval_number && sameNumber(number.value!, c.approval_number));
    if (byNumber.length > 1 && fields.state?.value) {
      const inState = byNumber.filter((c) => c.approval_state?.toUpperCase() === fields.state!.value!.toUpperCase());
      if (inState.length) byNumber = inState;
    }
    if (byNumber.length > 1 && name.value) {
      const best = Math.max(...byNumber.map((c) => similarity(name.value!, c.course_name)));
      byNumber = byNumber.filter((c) => similarity(name.value!, c.course_name) === best);
    }
    // A name read that is not this course's at all but is another course's (a digit misread gives another
    // course's number): the number is not trusted, and the name decides below.
    const nameDisagrees = (c: Course) =>
      !!name.value &&
      similarity(name.value, c.course_name) < 0.5 &&
      catalogue.some((o) => o !== c && similarity(name.value!, o.course_name) >= COURSE_NAME_MIN);
    if (byNumber.length === 1 && nameDisagrees(byNumber[0]!)) numberOf = byNumber[0]!;
    else if (byNumber.length === 1) {
      const course = byNumber[0]!;
      const nameCheck = !name.value
        ? toCheck(name, null)
        : sameName(name.value, course.course_name)
          ? confirmed(name)
          : similarity(name.value, course.course_name) >= 0.5
            ? toCheck(name, JUDGE_MESSAGES.readAs(course.course_name))
            : toCheck(name, JUDGE_MESSAGES.byApproval(course.course_name));
      // Green only as printed in the catalogue; a number read with more around it ("TREC 38417") found the course but
      // is not the number itself.
      const approval =
        normNumber(number.value) === normNumber(course.approval_number!)
          ? confirmed(number)
          : toCheck(number, JUDGE_MESSAGES.approvalDiffers(course.approval_number!));
      return { course, match: 1, name: nameCheck, approval, warnings };
    }
  }

  // 2. The name.
  if (!name.value) {
    return {
      course: null,
      match: 0,
      name: toCheck(name, null),
      approval: toCheck(number, number.value ? JUDGE_MESSAGES.approvalNotInCatalogue(number.value) : null),
      warnings,
    };
  }
  const scored = catalogue
    .map((c) => ({
      c,
      score: sameName(name.value!, c.course_name)
        ? 1
        : Math.max(similarity(name.value!, c.course_name), startsWithName(name.value!, c.course_name)),
      agree: agreements(c, fields),
    }))
    .filter((s) => s.score >= COURSE_NAME_MIN && !vetoed(s.c))
    .sort((a, b) => b.score - a.score || b.agree - a.agree || a.c.course_id - b.c.course_id);
  /** The approval number read, when it did not find the course: always to check, saying why. */
  const approvalField = (course: Course | null) =>
    !number.value
      ? toCheck(number, null)
      : numberOf
        ? toCheck(number, JUDGE_MESSAGES.byApproval(numberOf.course_name))
        : course === null
          ? toCheck(number, JUDGE_MESSAGES.approvalNotInCatalogue(number.value))
          : course.approval_number
            ? toCheck(number, JUDGE_MESSAGES.approvalDiffers(course.approval_number))
            : toCheck(number, JUDGE_MESSAGES.approvalNone);

  if (!scored.length) {
    warnings.push({ code: 'course_not_in_catalogue', message: JUDGE_MESSAGES.notInCatalogue(name.value) });
    return {
      course: null,
      match: 0,
      name: toCheck(name, JUDGE_MESSAGES.notInCatalogue(name.value)),
      approval: approvalField(null),
      warnings,
    };
  }
  const top = scored[0]!;
  // Courses as alike as the best (two Schools' courses of one name): the agreements must single one out.
  let tied = scored.filter((s) => top.score - s.score < 0.02);
  if (tied.length > 1) {
    const most = Math.max(...tied.map((s) => s.agree));
    tied = most > 0 ? tied.filter((s) => s.agree === most) : tied;
  }
  if (tied.length > 1) {
    return {
      course: null,
      match: Math.round(top.score * 100) / 100,
      name: toCheck(name, JUDGE_MESSAGES.sameNameCourses(tied.length)),
      approval: approvalField(null),
      warnings,
    };
  }
  const pick = tied[0]!;
  const exact = pick.score === 1;
  if (!exact && pick.agree === 0) {
    // A look-alike with nothing else agreeing is not suggested.
    return {
      course: null,
      match: Math.round(pick.score * 100) / 100,
      name: toCheck(name, JUDGE_MESSAGES.closestOnly(pick.c.course_name)),
      approval: approvalField(null),
      warnings,
    };
  }
  return {
    course: pick.c,
    match: Math.round(pick.score * 100) / 100,
    name: exact ? confirmed(name) : toCheck(name, JUDGE_MESSAGES.readAs(pick.c.course_name)),
    approval: approvalField(pick.c),
    warnings,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The person and the license

const HONORIFICS = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'jr', 'sr', 'ii', 'iii', 'iv']);
const DESIGNATIONS = /^(jr|sr|ii|iii|iv|crs|gri|abr|sres|realtor|broker|ma|mba|phd|esq|cpa)$/;

/** A name's words, lower case and without accents; "Last, First Middle" turned round; titles and suffixes dropped. */
function nameWords(s: string): string[] {
  let text = s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const comma = text.indexOf(',');
  if (comma > 0) {
    const after = text.slice(comma + 1).trim();
    const afterWords = after
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter(Boolean);
    text = afterWords.length && !afterWords.every((w) => DESIGNATIONS.test(w)) ? `${after} ${text.slice(0, comma)}` : text.slice(0, comma);
  }
  return text
    .toLowerCase()
    .split(/[^a-z']+/)
    .map((w) => w.replace(/'/g, ''))
    .filter((w) => w && !HONORIFICS.has(w));
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The name read against the owner's: `same` (the first and last names all there; middle names and initials
 * tolerated), `close` (one slip in a name, or only the first name's initial), or `other`.
 */
export function compareName(readName: string, first: string, last: string): 'same' | 'close' | 'other' {
  const words = nameWords(readName);
  const firsts = nameWords(first);
  const lasts = nameWords(last);
  if (!words.length || !firsts.length || !lasts.length) return 'other';
  const has = (w: string) => words.includes(w);
  const lastWords = lasts.length;
  const extras = words.filter((w) => !firsts.includes(w) && !lasts.includes(w));
  if (firsts.every(has) && lasts.every(has) && extras.length <= 2) return 'same';
  const near = (w: string, slips = 1) => words.some((x) => x === w || (w.length >= 4 && editDistance(x, w) <= slips));
  const initial = words.some((x) => x.length === 1 && x === firsts[0]![0]);
  // The last name exactly: the first name may have two OCR slips ("Oia" for "Maria").
  const firstSlips = lasts.every(has) ? 2 : 1;
  if (
    lasts.every((w) => near(w)) &&
    (firsts.every((w) => near(w, firstSlips)) || initial) &&
    words.length <= firsts.length + lastWords + 2
  ) {
    return 'close';
  }
  return 'other';
}

/** Words of an organisation's name, never of a person's. */
const ORGANISATION =
  /\b(?:institute|school|academy|association|college|university|realty|inc|llc|ltd|center|centre|office|services|online|commission|department|board|group|company|corporation)\b/i;

const ownerName = (ctx: JudgeContext) => `${ctx.owner.first_name} ${ctx.owner.last_name}`.trim();

/** A readable form of a name read in capitals ("BROWN, JAMES" → "James Brown"). */
function displayName(s: string): string {
  const comma = s.indexOf(',');
  const after = comma > 0 ? s.slice(comma + 1).trim() : '';
  const designation =
    after !== '' &&
    after
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter(Boolean)
      .every((w) => DESIGNATIONS.test(w));
  const turned = comma <= 0 ? s.trim() : designation ? s.slice(0, comma).trim() : `${after} ${s.slice(0, comma).trim()}`;
  return turned === turned.toUpperCase() ? turned.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase()) : turned;
}

function cyclesOfLicense(l: JudgeLicense): Array<Pick<Cycle, 'counts_from' | 'end_date'>> {
  if (l.cycles) return l.cycles;
  if (!l.issue_date) return [];
  // The ledger's own rule (ce-ledger.ts cyclesOf) on a license that was never renewed.
  return cyclesOf({ cycle_start_date: l.issue_date, expiration_date: l.expiration_date } as Parameters<typeof cyclesOf>[0], []);
}

const inCycle = (l: JudgeLicense, date: string) => !!cycleContaining(cyclesOfLicense(l) as Cycle[], date);

/**
 * The read date is a completion date: labelled as one, as the reader says (`labelled`); when it does not say, read
 * with a completion label's full score (a labelled value scores 1 × its line's confidence, docs/ocr.md), so an
 * issue date (0.85) or a bare "Date:" (0.8) stays to check.
 */
const labelled = (v: ReadValue<string>, textConfidence: number) => v.labelled ?? v.confidence >= 0.95 * Math.max(textConfidence, 0.01);

function judgeDate(
  date: ReadValue<string>,
  ctx: JudgeContext,
  license: JudgeLicense | null,
  warnings: ExtractionWarning[],
  textConfidence: number,
): Field<string> {
  if (!date.value) return toCheck(date, null);
  if (date.value > ctx.today) {
    const message = JUDGE_MESSAGES.dateInFuture(date.value);
    warnings.push({ code: 'date_in_future', message });
    return toCheck(date, message);
  }
  const licenses = license ? [license] : ctx.owner.licenses;
  if (!licenses.length) return toCheck(date, JUDGE_MESSAGES.dateNoLicense);
  if (!licenses.some((l) => inCycle(l, date.value!))) {
    const message = JUDGE_MESSAGES.dateOutsideCycle(date.value, licenses.map((l) => l.license_number).join(', '));
    warnings.push({ code: 'date_outside_cycle', message });
    return toCheck(date, message);
  }
  return labelled(date, textConfidence) ? confirmed(date) : toCheck(date, JUDGE_MESSAGES.dateUnlabelled);
}

function judgeHours(hours: ReadValue<number>, course: Course | null, warnings: ExtractionWarning[]): Field<number> {
  if (hours.value === null) return toCheck(hours, null);
  if (!course) return toCheck(hours, JUDGE_MESSAGES.noCourse);
  if (Math.abs(hours.value - course.ce_hours) < 0.01) return confirmed(hours);
  const message = JUDGE_MESSAGES.hoursDiffer(course.ce_hours, hours.value);
  warnings.push({ code: 'hours_differ', message });
  return toCheck(hours, message);
}

/** The hours to prefill: as read, capped at the course's (the completion's rule), else the course's. */
function suggestedHours(hours: number | null, course: Course | null): number | null {
  if (hours !== null && course) return Math.min(hours, course.ce_hours);
  return hours ?? course?.ce_hours ?? null;
}

function suggestionOf(
  ctx: JudgeContext,
  c: CourseJudgement,
  license: JudgeLicense | null,
  hours: number | null,
  date: string | null,
): CompletionSuggestion {
  return {
    course_id: c.course?.course_id ?? null,
    course_name: c.course?.course_name ?? null,
    course_provider: c.course?.provider ?? null,
    course_match: c.match,
    license_id: license?.license_id ?? null,
    license_number: license?.license_number ?? null,
    user_id: ctx.owner.user_id,
    hours: suggestedHours(hours, c.course),
    completion_date: date,
  };
}

// ---------------------------------------------------------------------------------------------------------------

/** Judges a reading against the owner and the active catalogue (docs/ocr.md "Judge"). */
export function judgeReading(reading: CertificateReading, ctx: JudgeContext): Judged {
  const f = reading.fields;
  const warnings: ExtractionWarning[] = [];
  const owner = ownerName(ctx);
  const licenses = ctx.owner.licenses;

  // The license: the owner's license of the number read; without a number, the only Active license in the state
  // read, else the only Active one. A number that is none of the owner's suggests none.
  const numberRead = f.license_number.value;
  const byNumber = numberRead
    ? (licenses.find((l) => sameNumber(numberRead, l.license_number) && normNumber(numberRead).length >= 4) ?? null)
    : null;
  const active = licenses.filter((l) => l.status === 'Active');
  const stateRead = f.state.value?.toUpperCase() ?? null;
  const activeInState = stateRead ? active.filter((l) => l.state.toUpperCase() === stateRead) : [];
  const license = numberRead ? byNumber : activeInState.length === 1 ? activeInState[0]! : active.length === 1 ? active[0]! : null;
  let licenseField: Field<string>;
  if (!numberRead) licenseField = toCheck(f.license_number, null);
  else if (byNumber && normNumber(numberRead) === normNumber(byNumber.license_number)) licenseField = confirmed(f.license_number);
  else if (byNumber) licenseField = toCheck(f.license_number, JUDGE_MESSAGES.licenseReadAs(numberRead, byNumber.license_number));
  else if (!licenses.length) licenseField = toCheck(f.license_number, JUDGE_MESSAGES.licenseNone);
  else {
    const message = JUDGE_MESSAGES.otherLicense(numberRead, owner);
    warnings.push({ code: 'other_license', message });
    licenseField = toCheck(f.license_number, message);
  }

  // The holder.
  let holderField: Field<string>;
  const holder = f.holder_name.value;
  if (!holder) holderField = toCheck(f.holder_name, null);
  else {
    const same = compareName(holder, ctx.owner.first_name, ctx.owner.last_name);
    if (same === 'same') holderField = confirmed(f.holder_name);
    // An organisation read as the holder ("National Realty Institute") is a misreading, not another person.
    else if (ORGANISATION.test(holder)) holderField = toCheck(f.holder_name, JUDGE_MESSAGES.notAName);
    else if (same === 'close') holderField = toCheck(f.holder_name, JUDGE_MESSAGES.nameSpelling(holder, owner));
    else {
      const message = JUDGE_MESSAGES.otherPerson(displayName(holder), owner);
      warnings.push({ code: 'other_person', message });
      holderField = toCheck(f.holder_name, message);
    }
  }

  const notCertificate = reading.kind === 'invoice' || reading.kind === 'not_certificate';
  if (notCertificate) {
    warnings.unshift(
      reading.kind === 'invoice'
        ? { code: 'invoice', message: JUDGE_MESSAGES.invoice }
        : { code: 'not_certificate', message: JUDGE_MESSAGES.notCertificate },
    );
    const note = JUDGE_MESSAGES.notCertificateNote;
    const fields = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, toCheck(v as ReadValue<unknown>, note)])) as CertificateFields;
    return {
      kind: reading.kind,
      fields,
      suggestion: {
        course_id: null,
        course_name: null,
        course_provider: null,
        course_match: 0,
        license_id: license?.license_id ?? null,
        license_number: license?.license_number ?? null,
        user_id: ctx.owner.user_id,
        hours: null,
        completion_date: null,
      },
      courses: [],
      warnings,
    };
  }

  // The document's course (a transcript: its first course's values).
  const course = judgeCourse({ ...f, provider: f.provider, state: f.state }, ctx.catalogue);
  warnings.push(...course.warnings);
  const providerField =
    !f.provider.value || !course.course
      ? toCheck(f.provider, f.provider.value ? JUDGE_MESSAGES.noCourse : null)
      : sameProvider(f.provider.value, course.course.provider)
        ? confirmed(f.provider)
        : toCheck(f.provider, JUDGE_MESSAGES.providerOfCourse(course.course.provider));
  // The state: the matched course's approval state; for a course approved nowhere in particular, the suggested
  // license's state. An address's state on a page with no course proves nothing.
  const stateAgrees =
    !!stateRead &&
    !!course.course &&
    (course.course.approval_state ? course.course.approval_state.toUpperCase() === stateRead : license?.state.toUpperCase() === stateRead);
  const stateField = !stateRead
    ? toCheck(f.state, null)
    : stateAgrees
      ? confirmed(f.state)
      : toCheck(
          f.state,
          licenses.some((l) => l.state.toUpperCase() === stateRead) || course.course?.approval_state?.toUpperCase() === stateRead
            ? JUDGE_MESSAGES.stateNotCourse(stateRead)
            : JUDGE_MESSAGES.stateUnknown(stateRead),
        );

  const fieldWarnings: ExtractionWarning[] = [];
  const fields: CertificateFields = {
    course_name: course.name,
    provider: providerField,
    hours: judgeHours(f.hours, course.course, fieldWarnings),
    completion_date: judgeDate(f.completion_date, ctx, license, fieldWarnings, reading.text_confidence),
    holder_name: holderField,
    license_number: licenseField,
    state: stateField,
    approval_number: course.approval,
  };
  const suggestion = suggestionOf(ctx, course, license, f.hours.value, f.completion_date.value);

  // A transcript: each course judged on its own (the document's provider and state help each).
  let courses: CertificateCourse[] = [];
  if (reading.kind === 'transcript' && reading.courses.length > 1) {
    courses = reading.courses.map((rc) => {
      const w: ExtractionWarning[] = [];
      const c = judgeCourse({ ...rc, provider: f.provider, state: f.state }, ctx.catalogue);
      fieldWarnings.push(...c.warnings);
      return {
        fields: {
          course_name: c.name,
          hours: judgeHours(rc.hours, c.course, w),
          completion_date: judgeDate(rc.completion_date, ctx, license, w, reading.text_confidence),
          approval_number: c.approval,
        },
        suggestion: suggestionOf(ctx, c, license, rc.hours.value, rc.completion_date.value),
      };
    });
    warnings.unshift({ code: 'several_courses', message: JUDGE_MESSAGES.severalCourses(courses.length) });
  }
  // One warning per message (a transcript's courses may repeat the document's).
  for (const w of fieldWarnings) if (!warnings.some((x) => x.code === w.code && x.message === w.message)) warnings.push(w);
  return { kind: reading.kind, fields, suggestion, courses, warnings };
}
