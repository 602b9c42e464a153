/**
 * The judge (docs/ocr.md "Judge"): pure cases, a reading and a context in, the checks, suggestion and warnings out.
 * A value is green (`confirmed`) only when the reading and a second source agree.
 */
import { describe, expect, it } from 'vitest';
import { judgeReading, JUDGE_MESSAGES, type JudgeContext } from '../src/modules/documents/extraction/judge.ts';
import { similarity } from '../src/modules/documents/extraction/match.ts';
import type { CertificateReading, ReadCourse, ReadFields } from '../src/modules/documents/extraction/reading.ts';

const ctx: JudgeContext = {
  today: '2026-06-15',
  owner: {
    user_id: 7,
    first_name: 'Jane',
    last_name: 'Smith',
    licenses: [
      {
        license_id: 70,
        license_number: 'SA-123456',
        state: 'TX',
        license_type: 'Salesperson',
        status: 'Active',
        issue_date: '2025-01-01',
        expiration_date: '2026-12-31',
      },
    ],
  },
  catalogue: [
    course(1, 'Fair Housing Essentials', 'Realty Academy of Texas', 3, 11, 'TREC 0012-345', 'TX'),
    course(2, 'Contract Law Update 2026', 'Lone Star Real Estate School', 4, 12, null, null),
    // Two Schools' courses of one name.
    course(3, 'Ethics in Practice', 'Realty Academy of Texas', 3, 11, null, null),
    course(4, 'Ethics in Practice', 'Lone Star Real Estate School', 3, 12, null, null),
    // An in-house course a look-alike must not become.
    course(5, 'Brokerage Office Policies and Compliance', 'In-house training', 1.5, null, null, null),
    course(6, 'Texas Legal Update I', 'Lone Star Real Estate School', 4, 12, 'TREC 0099-001', 'TX'),
  ],
};

function course(
  course_id: number,
  course_name: string,
  provider: string,
  ce_hours: number,
  school_id: number | null,
  approval_number: string | null,
  approval_state: string | null,
): JudgeContext['catalogue'][number] {
  return { course_id, course_name, provider, ce_hours, school_id, approval_number, approval_state };
}

type Values = Partial<{ [K in keyof ReadFields]: NonNullable<ReadFields[K]['value']> }>;

/** A reading with these values, each read with a label (confidence 1, as a text layer's labelled value). */
function reading(
  values: Values,
  extra: Partial<Pick<CertificateReading, 'kind' | 'courses'>> & { unlabelledDate?: boolean } = {},
): CertificateReading {
  const v = <T>(x: T | undefined) => ({ value: x ?? null, confidence: x === undefined ? 0 : 1 });
  const fields: ReadFields = {
    course_name: v(values.course_name),
    provider: v(values.provider),
    hours: v(values.hours),
    completion_date: { ...v(values.completion_date), labelled: values.completion_date !== undefined && !extra.unlabelledDate },
    holder_name: v(values.holder_name),
    license_number: v(values.license_number),
    state: v(values.state),
    approval_number: v(values.approval_number),
  };
  return {
    kind: extra.kind ?? 'certificate',
    fields,
    courses: extra.courses ?? [],
    source: 'text_layer',
    text_confidence: 1,
    text: '',
    duration_ms: 1,
  };
}

const full: Values = {
  course_name: 'Fair Housing Essentials',
  provider: 'Realty Academy of Texas',
  hours: 3,
  completion_date: '2026-03-03',
  holder_name: 'Jane Q. Smith',
  license_number: 'SA-123456',
  state: 'TX',
  approval_number: 'TREC 0012-345',
};

describe('the judge', () => {
  it('confirms every field of a certificate whose values a second source agrees with', () => {
    const j = judgeReading(reading(full), ctx);
    for (const [name, f] of Object.entries(j.fields)) expect([name, f.check, f.note]).toEqual([name, 'confirmed', null]);
    expect(j.suggestion).toEqual({
      course_id: 1,
      course_name: 'Fair Housing Essentials',
      course_provider: 'Realty Academy of Texas',
      course_match: 1,
      license_id: 70,
      license_number: 'SA-123456',
      user_id: 7,
      hours: 3,
      completion_date: '2026-03-03',
    });
    expect(j.warnings).toEqual([]);
    expect(j.kind).toBe('certificate');
    // The confidence stays as read.
    expect(j.fields.hours.confidence).toBe(1);
  });

  it('matches the course by its approval number first, whatever the name read', () => {
    const j = judgeReading(reading({ course_name: 'Fair Housng Essentals', approval_number: '0012345', hours: 3 }), ctx);
    expect(j.suggestion).toMatchObject({ course_id: 1, course_match: 1 });
    // Found by the number without its prefix; green only as the catalogue prints it.
    expect(j.fields.approval_number).toMatchObject({ check: 'check', note: JUDGE_MESSAGES.approvalDiffers('TREC 0012-345') });
    expect(judgeReading(reading({ approval_number: 'TREC 0012 345' }), ctx).fields.approval_number.check).toBe('confirmed');
    // The name read has slips: it is the catalogue's course, but the value as read is to be checked.
    expect(j.fields.course_name).toMatchObject({ check: 'check', note: JUDGE_MESSAGES.readAs('Fair Housing Essentials') });
  });

  it('does not trust an approval number that is another course’s when the name read is this one’s', () => {
    // "TREC 0099-001" is Texas Legal Update I's; the name and hours read are Contract Law Update 2026's.
    const j = judgeReading(reading({ course_name: 'Contract Law Update 2026', approval_number: '0099-001', hours: 4 }), ctx);
    expect(j.suggestion.course_id).toBe(2);
    expect(j.fields.approval_number).toMatchObject({ check: 'check', note: JUDGE_MESSAGES.byApproval('Texas Legal Update I') });
    // A name that is no course's (read from prose): the number decides, the name is to check.
    const prose = judgeReading(reading({ course_name: 'listed in accordance with 22 TAC', approval_number: '0099-001' }), ctx);
    expect(prose.suggestion.course_id).toBe(6);
    expect(prose.fields.course_name.check).toBe('check');
  });

  it('matches a name with OCR slips only when something else agrees', () => {
    const slipped = { course_name: 'Contract Lavv Updale 2026' };
    expect(judgeReading(reading({ ...slipped, hours: 4 }), ctx).suggestion.course_id).toBe(2);
    expect(judgeReading(reading({ ...slipped, provider: 'Lone Star Real Estate School' }), ctx).suggestion.course_id).toBe(2);
    const alone = judgeReading(reading(slipped), ctx);
    expect(alone.suggestion.course_id).toBeNull();
    expect(alone.fields.course_name).toMatchObject({ check: 'check', note: JUDGE_MESSAGES.closestOnly('Contract Law Update 2026') });
    // Editions differ: "Texas Legal Update II" is not "Texas Legal Update I".
    expect(similarity('Texas Legal Update II', 'Texas Legal Update I')).toBeLessThan(0.8);
    expect(judgeReading(reading({ course_name: 'Texas Legal Update II', hours: 4 }), ctx).suggestion.course_id).toBeNull();
  });

  it('takes a title read with the words after it when something else agrees, and a stray one-word provider rules nothing out', () => {
    const long = judgeReading(reading({ course_name: 'Contract Law Update 2026 Approved for continuing education credit', hours: 4 }), ctx);
    expect(long.suggestion.course_id).toBe(2);
    expect(long.fields.course_name.check).toBe('check');
    // Without another agreement it is only a look-alike.
    expect(
      judgeReading(reading({ course_name: 'Contract Law Update 2026 Approved for continuing education credit' }), ctx).suggestion.course_id,
    ).toBeNull();
    // Two words or fewer of a catalogue name are not enough ("Risk Management" would take "Risk Management for Agents").
    const stray = judgeReading(reading({ course_name: 'Fair Housing Essentials', provider: 'Number' }), ctx);
    expect(stray.suggestion.course_id).toBe(1);
    expect(stray.fields.provider.check).toBe('check');
    const other = judgeReading(reading({ course_name: 'Fair Housing Essentials', provider: 'Apex Property Managers Association' }), ctx);
    expect(other.suggestion.course_id).toBeNull();
  });

  it('does not pick between two Schools’ courses of one name without the provider', () => {
    const j = judgeReading(reading({ course_name: 'Ethics in Practice', hours: 3, completion_date: '2026-03-03' }), ctx);
    expect(j.suggestion.course_id).toBeNull();
    expect(j.fields.course_name).toMatchObject({ check: 'check', note: '2 courses have this name; check the provider' });
    const withProvider = judgeReading(reading({ course_name: 'Ethics in Practice', provider: 'Lone Star Real Estate School' }), ctx);
    expect(withProvider.suggestion).toMatchObject({ course_id: 4, course_provider: 'Lone Star Real Estate School' });
    expect(withProvider.fields.provider.check).toBe('confirmed');
    // A provider read with a slip still picks the course but is not green.
    const slipped = judgeReading(reading({ course_name: 'Ethics in Practice', provider: 'Lone Star Real Estate Schoal' }), ctx);
    expect(slipped.suggestion.course_id).toBe(4);
    expect(slipped.fields.provider).toMatchObject({
      check: 'check',
      note: JUDGE_MESSAGES.providerOfCourse('Lone Star Real Estate School'),
    });
  });

  it('never shows a provider green that only a part of the course’s provider was read as ("OF REAL ESTATE" at 85 %)', () => {
    /** The reading with the provider read at this confidence (an OCR line cut from "Lone Star School of Real Estate"). */
    const cut = (values: Values) => {
      const r = reading(values);
      r.fields.provider = { value: 'OF REAL ESTATE', confidence: 0.85 };
      return r;
    };
    // The course is found by its name and hours; the fragment is in its provider's name, and helps, but is no provider.
    const fragment = judgeReading(cut({ course_name: 'Contract Law Update 2026', hours: 4 }), ctx);
    expect(fragment.suggestion.course_id).toBe(2);
    expect(fragment.fields.provider).toMatchObject({
      value: 'OF REAL ESTATE',
      confidence: 0.85,
      check: 'check',
      note: JUDGE_MESSAGES.providerOfCourse('Lone Star Real Estate School'),
    });
    // Nor beside a course of another provider, nor with no course at all: the confidence alone confirms nothing.
    expect(
      judgeReading(cut({ course_name: 'Fair Housing Essentials', approval_number: 'TREC 0012-345' }), ctx).fields.provider,
    ).toMatchObject({
      check: 'check',
      note: JUDGE_MESSAGES.providerOfCourse('Realty Academy of Texas'),
    });
    expect(judgeReading(cut({ course_name: 'Property Tax Appeals' }), ctx).fields.provider.check).toBe('check');
    // The catalogue's provider itself, in capitals and with its company suffix, is green.
    const whole = reading({ course_name: 'Contract Law Update 2026', hours: 4, provider: 'LONE STAR REAL ESTATE SCHOOL, LLC' });
    whole.fields.provider.confidence = 0.85;
    expect(judgeReading(whole, ctx).fields.provider.check).toBe('confirmed');
  });

  it('suggests no look-alike for a course not in the catalogue, and says so', () => {
    const j = judgeReading(reading({ course_name: 'Brokerage Office Policies 2026', provider: 'Coastal CE Online', hours: 1.5 }), ctx);
    expect(j.suggestion.course_id).toBeNull();
    expect(j.warnings).toContainEqual({
      code: 'course_not_in_catalogue',
      message: JUDGE_MESSAGES.notInCatalogue('Brokerage Office Policies 2026'),
    });
    expect(j.fields.course_name.check).toBe('check');
    // Nothing to compare the provider and hours with: to check, not green.
    expect(j.fields.provider.check).toBe('check');
    expect(j.fields.hours.check).toBe('check');
    expect(j.suggestion.hours).toBe(1.5);
  });

  it('says when the hours differ from the course’s and caps the suggestion at them', () => {
    const j = judgeReading(reading({ ...full, hours: 6 }), ctx);
    expect(j.fields.hours).toMatchObject({ value: 6, check: 'check', note: JUDGE_MESSAGES.hoursDiffer(3, 6) });
    expect(j.fields.hours.note).toBe("The course's catalogue hours are 3, the certificate says 6; at most 3 can be recorded");
    expect(j.warnings.map((w) => w.code)).toEqual(['hours_differ']);
    expect(j.suggestion.hours).toBe(3);
  });

  it('confirms the completion date only when labelled, not in the future and inside a cycle of a license', () => {
    const outside = judgeReading(reading({ ...full, completion_date: '2024-05-01' }), ctx);
    expect(outside.fields.completion_date).toMatchObject({
      check: 'check',
      note: JUDGE_MESSAGES.dateOutsideCycle('2024-05-01', 'SA-123456'),
    });
    expect(outside.warnings.map((w) => w.code)).toEqual(['date_outside_cycle']);
    const future = judgeReading(reading({ ...full, completion_date: '2026-06-16' }), ctx);
    expect(future.fields.completion_date).toMatchObject({ check: 'check', note: 'The date 2026-06-16 is in the future' });
    expect(future.warnings.map((w) => w.code)).toEqual(['date_in_future']);
    const unlabelled = judgeReading(reading(full, { unlabelledDate: true }), ctx);
    expect(unlabelled.fields.completion_date).toMatchObject({ check: 'check', note: JUDGE_MESSAGES.dateUnlabelled });
    // A reader that does not say: a completion label's full score (1 × the line) confirms, an issue date's (0.85) does not.
    const unsaid = (confidence: number) => {
      const r = reading(full);
      r.fields.completion_date = { value: '2026-03-03', confidence };
      return judgeReading(r, ctx).fields.completion_date.check;
    };
    expect([unsaid(1), unsaid(0.85)]).toEqual(['confirmed', 'check']);
    // The ledger's cycles when given (a renewed license: the old cycle counts too).
    const renewed: JudgeContext = {
      ...ctx,
      owner: {
        ...ctx.owner,
        licenses: [
          {
            ...ctx.owner.licenses[0]!,
            cycles: [
              { start_date: '2023-01-01', end_date: '2024-12-31', counts_from: '2023-01-01' },
              { start_date: '2024-12-31', end_date: '2026-12-31', counts_from: '2025-01-01' },
            ],
          },
        ],
      },
    };
    expect(judgeReading(reading({ ...full, completion_date: '2024-05-01' }), renewed).fields.completion_date.check).toBe('confirmed');
  });

  it('flags another person’s certificate in words, and tolerates the owner’s name in its other forms', () => {
    const other = judgeReading(reading({ ...full, holder_name: 'MARIA GONZALEZ' }), ctx);
    expect(other.fields.holder_name.check).toBe('check');
    expect(other.warnings).toEqual([{ code: 'other_person', message: 'The name on the certificate is Maria Gonzalez, not Jane Smith' }]);
    expect(judgeReading(reading({ ...full, holder_name: 'Gonzalez, Maria' }), ctx).warnings[0]!.message).toBe(
      'The name on the certificate is Maria Gonzalez, not Jane Smith',
    );
    for (const name of ['SMITH, JANE', 'Jane Q. Smith', 'Smith, Jane Quinn', 'Ms. Jane Smith']) {
      expect([name, judgeReading(reading({ ...full, holder_name: name }), ctx).fields.holder_name.check]).toEqual([name, 'confirmed']);
    }
    // OCR slips (one in the last name, two in the first beside an exact last name): to check, not another person.
    for (const name of ['Jane Smlth', 'Jnae Smith']) {
      const slip = judgeReading(reading({ ...full, holder_name: name }), ctx);
      expect([name, slip.fields.holder_name.check, slip.warnings]).toEqual([name, 'check', []]);
    }
    // Another person of the same last name is another person; so is one with a designation after the name.
    expect(judgeReading(reading({ ...full, holder_name: 'Carla Smith' }), ctx).warnings.map((w) => w.code)).toEqual(['other_person']);
    expect(judgeReading(reading({ ...full, holder_name: 'Robert Whitfield, REALTOR' }), ctx).warnings).toEqual([
      { code: 'other_person', message: 'The name on the certificate is Robert Whitfield, not Jane Smith' },
    ]);
    // An organisation read where the name should be is a misreading, to check.
    const org = judgeReading(reading({ ...full, holder_name: 'National Realty Institute' }), ctx);
    expect(org.fields.holder_name).toMatchObject({ check: 'check', note: JUDGE_MESSAGES.notAName });
    expect(org.warnings).toEqual([]);
  });

  it('flags a license number that is none of the owner’s and suggests no license for it', () => {
    const j = judgeReading(reading({ ...full, license_number: 'SA-999999' }), ctx);
    expect(j.fields.license_number.check).toBe('check');
    expect(j.warnings).toEqual([{ code: 'other_license', message: JUDGE_MESSAGES.otherLicense('SA-999999', 'Jane Smith') }]);
    expect(j.suggestion.license_id).toBeNull();
    // The number with more around it ("TX SA-123456"): the owner's license, but to check.
    const prefixed = judgeReading(reading({ ...full, license_number: 'TX SA-123456' }), ctx);
    expect(prefixed.suggestion.license_id).toBe(70);
    expect(prefixed.fields.license_number).toMatchObject({
      check: 'check',
      note: JUDGE_MESSAGES.licenseReadAs('TX SA-123456', 'SA-123456'),
    });
    expect(prefixed.warnings).toEqual([]);
    // No number read: the owner's only Active license, but nothing is green for it.
    const none = judgeReading(reading({ ...full, license_number: undefined }), ctx);
    expect(none.suggestion.license_id).toBe(70);
    expect(none.fields.license_number.check).toBe('missing');
  });

  it('confirms the state only as the suggested course’s approval state (or its license’s, for a course approved nowhere)', () => {
    expect(judgeReading(reading({ ...full, state: 'FL' }), ctx).fields.state.check).toBe('check');
    expect(judgeReading(reading({ ...full, state: 'TX' }), ctx).fields.state.check).toBe('confirmed');
    // Contract Law Update 2026 has no approval state: the suggested license's (TX) confirms.
    expect(judgeReading(reading({ course_name: 'Contract Law Update 2026', state: 'TX' }), ctx).fields.state.check).toBe('confirmed');
    // No course: an address's state proves nothing.
    expect(judgeReading(reading({ holder_name: 'Jane Smith', state: 'TX' }), ctx).fields.state.check).toBe('check');
  });

  it('flags an invoice and prefills no course or hours', () => {
    const j = judgeReading(reading(full, { kind: 'invoice' }), ctx);
    expect(j.kind).toBe('invoice');
    expect(j.warnings[0]).toEqual({ code: 'invoice', message: 'This looks like an invoice, not a certificate' });
    expect(j.suggestion).toMatchObject({ course_id: null, hours: null, completion_date: null });
    expect(Object.values(j.fields).every((f) => f.check !== 'confirmed')).toBe(true);
    const other = judgeReading(reading({ holder_name: 'Jane Smith' }, { kind: 'not_certificate' }), ctx);
    expect(other.warnings[0]).toEqual({ code: 'not_certificate', message: 'This does not look like a CE certificate' });
  });

  it('judges each course of a transcript on its own', () => {
    const c = (course_name: string, hours: number, completion_date: string, approval_number?: string): ReadCourse => ({
      course_name: { value: course_name, confidence: 1 },
      hours: { value: hours, confidence: 1 },
      completion_date: { value: completion_date, confidence: 1, labelled: true },
      approval_number: { value: approval_number ?? null, confidence: approval_number ? 1 : 0 },
    });
    const courses = [
      c('Fair Housing Essentials', 3, '2026-02-01', 'TREC 0012-345'),
      c('Contract Law Update 2026', 6, '2026-02-02'),
      c('Underwater Basket Weaving', 2, '2026-02-03'),
    ];
    const j = judgeReading(
      reading(
        { course_name: 'Fair Housing Essentials', hours: 3, completion_date: '2026-02-01', holder_name: 'Jane Smith' },
        { kind: 'transcript', courses },
      ),
      ctx,
    );
    expect(j.kind).toBe('transcript');
    expect(j.warnings[0]).toEqual({ code: 'several_courses', message: '3 courses found: pick one or record all' });
    expect(j.courses.map((x) => x.suggestion.course_id)).toEqual([1, 2, null]);
    expect(j.courses.map((x) => x.suggestion.hours)).toEqual([3, 4, 2]);
    expect(j.courses[1]!.fields.hours).toMatchObject({ check: 'check', note: JUDGE_MESSAGES.hoursDiffer(4, 6) });
    expect(j.courses[0]!.fields.completion_date.check).toBe('confirmed');
    expect(j.warnings.map((w) => w.code)).toContain('course_not_in_catalogue');
    expect(j.suggestion.course_id).toBe(1);
  });
});
