/**
 * The world the realistic certificate set is drawn from (docs/ocr.md "Test set"): a catalogue of several Schools'
 * courses with state approval numbers (two courses share a name), the people who upload (each with licenses), and
 * the documents: certificates in many layouts and renderings, transcripts, and negatives (another person's
 * certificate, invoices, letters that are not certificates, blank pages). Made without looking at the parser:
 * this is the measurement, not a mirror of it.
 */

import type { JudgeContext, JudgeLicense } from '../../server/src/modules/documents/extraction/judge.ts';

export const TODAY = '2026-11-28';

/** A course as the judge sees the catalogue (the set's catalogue is written in the judge's own terms). */
export type CatalogueCourse = JudgeContext['catalogue'][number];

/** A license as the judge sees it (its ledger cycles left out: the judge then takes issue to expiration). */
export type License = JudgeLicense;

export interface Owner {
  user_id: number;
  first_name: string;
  last_name: string;
  licenses: License[];
}

/** Schools (school_id) and their providers' names as printed. */
const LONE_STAR = 'Lone Star Real Estate School';
const REALTY_TX = 'Realty Academy of Texas';
const SUNSHINE = 'Sunshine Realty Institute';
const COASTAL = 'Coastal CE Online';
const GOLDEN = 'Golden State CE Online';
const NATIONAL = 'National Realty Institute';
const APPRAISAL = 'Appraisal Learning Center';
const HOUSTON_ASSOC = 'Houston Association of REALTORS';

export const CATALOGUE: CatalogueCourse[] = [
  {
    course_id: 101,
    course_name: 'Legal Update I',
    provider: LONE_STAR,
    ce_hours: 4,
    school_id: 1,
    approval_number: '38417',
    approval_state: 'TX',
  },
  {
    course_id: 102,
    course_name: 'Legal Update II',
    provider: LONE_STAR,
    ce_hours: 4,
    school_id: 1,
    approval_number: '38418',
    approval_state: 'TX',
  },
  {
    course_id: 103,
    course_name: 'Mortgage Financing Today',
    provider: LONE_STAR,
    ce_hours: 3,
    school_id: 1,
    approval_number: '38502',
    approval_state: 'TX',
  },
  {
    course_id: 104,
    course_name: 'Contract Law Update 2026',
    provider: REALTY_TX,
    ce_hours: 4,
    school_id: 2,
    approval_number: '39102',
    approval_state: 'TX',
  },
  // Two courses named the same, from two Schools in two states.
  {
    course_id: 105,
    course_name: 'Fair Housing Essentials',
    provider: REALTY_TX,
    ce_hours: 3,
    school_id: 2,
    approval_number: '39120',
    approval_state: 'TX',
  },
  {
    course_id: 106,
    course_name: 'Fair Housing Essentials',
    provider: COASTAL,
    ce_hours: 3,
    school_id: 6,
    approval_number: '0031877',
    approval_state: 'FL',
  },
  {
    course_id: 107,
    course_name: 'Property Management Fundamentals',
    provider: REALTY_TX,
    ce_hours: 6,
    school_id: 2,
    approval_number: '39140',
    approval_state: 'TX',
  },
  {
    course_id: 108,
    course_name: 'Florida Core Law',
    provider: SUNSHINE,
    ce_hours: 3,
    school_id: 3,
    approval_number: '0029934',
    approval_state: 'FL',
  },
  {
    course_id: 109,
    course_name: 'Business Ethics for Florida Licensees',
    provider: SUNSHINE,
    ce_hours: 3,
    school_id: 3,
    approval_number: '0029935',
    approval_state: 'FL',
  },
  {
    course_id: 110,
    course_name: 'Florida 14-Hour Continuing Education Package',
    provider: SUNSHINE,
    ce_hours: 14,
    school_id: 3,
    approval_number: '0029001',
    approval_state: 'FL',
  },
  {
    course_id: 111,
    course_name: 'Environmental Issues in Real Estate',
    provider: COASTAL,
    ce_hours: 2.5,
    school_id: 6,
    approval_number: '0031902',
    approval_state: 'FL',
  },
  {
    course_id: 112,
    course_name: 'Risk Management',
    provider: GOLDEN,
    ce_hours: 3,
    school_id: 4,
    approval_number: '5112-0341',
    approval_state: 'CA',
  },
  {
    course_id: 113,
    course_name: 'Agency Relationships and Disclosure',
    provider: GOLDEN,
    ce_hours: 3,
    school_id: 4,
    approval_number: '5112-0342',
    approval_state: 'CA',
  },
  {
    course_id: 114,
    course_name: 'Trust Fund Accounting and Handling',
    provider: GOLDEN,
    ce_hours: 3,
    school_id: 4,
    approval_number: '5112-0350',
    approval_state: 'CA',
  },
  {
    course_id: 115,
    course_name: 'Implicit Bias Training',
    provider: GOLDEN,
    ce_hours: 2,
    school_id: 4,
    approval_number: '5112-0377',
    approval_state: 'CA',
  },
  {
    course_id: 116,
    course_name: 'Ethics in Real Estate Practice',
    provider: NATIONAL,
    ce_hours: 3,
    school_id: 5,
    approval_number: null,
    approval_state: null,
  },
  {
    course_id: 117,
    course_name: 'Commercial Leasing Strategies',
    provider: NATIONAL,
    ce_hours: 4,
    school_id: 5,
    approval_number: null,
    approval_state: null,
  },
  {
    course_id: 118,
    course_name: 'Cybersecurity and Wire Fraud Prevention',
    provider: NATIONAL,
    ce_hours: 2,
    school_id: 5,
    approval_number: null,
    approval_state: null,
  },
  {
    course_id: 119,
    course_name: 'Residential Appraisal Basics',
    provider: APPRAISAL,
    ce_hours: 7.5,
    school_id: 7,
    approval_number: '40211',
    approval_state: 'TX',
  },
  {
    course_id: 120,
    course_name: 'Code of Ethics Training',
    provider: HOUSTON_ASSOC,
    ce_hours: 3,
    school_id: 8,
    approval_number: '38990',
    approval_state: 'TX',
  },
  // In-house courses of a brokerage (no School): look-alikes of courses that are not in the catalogue.
  {
    course_id: 121,
    course_name: 'Fair Housing Update',
    provider: 'Keystone Realty Group',
    ce_hours: 2,
    school_id: null,
    approval_number: null,
    approval_state: null,
  },
  {
    course_id: 122,
    course_name: 'Short Sale Basics',
    provider: 'Keystone Realty Group',
    ce_hours: 2,
    school_id: null,
    approval_number: null,
    approval_state: null,
  },
];

/** Courses that certificates name but the catalogue does not hold: no suggestion may be made for them. */
export const OUT_OF_CATALOGUE = [
  {
    course_name: 'Fair Housing Compliance for Property Managers',
    provider: 'Apex Property Managers Association',
    ce_hours: 3,
    approval_number: null,
    approval_state: null,
  },
  {
    course_name: 'Water Rights and Wells in Rural Texas',
    provider: 'Hill Country CE',
    ce_hours: 2,
    approval_number: '41007',
    approval_state: 'TX',
  },
  { course_name: 'Short-Term Rental Regulations', provider: COASTAL, ce_hours: 3, approval_number: '0032110', approval_state: 'FL' },
  {
    course_name: 'Short Sales and Foreclosures in Practice',
    provider: 'Desert Sun Academy',
    ce_hours: 4,
    approval_number: null,
    approval_state: null,
  },
];

const lic = (license_id: number, license_number: string, state: string, license_type: string, issue: string, exp: string): License => ({
  license_id,
  license_number,
  state,
  license_type,
  status: 'Active',
  issue_date: issue,
  expiration_date: exp,
});

export const OWNERS: Owner[] = [
  {
    user_id: 1,
    first_name: 'Maria',
    last_name: 'Gonzalez',
    licenses: [lic(11, '0654321', 'TX', 'Sales Agent', '2025-03-01', '2027-02-28')],
  },
  {
    user_id: 2,
    first_name: 'James',
    last_name: 'Brown',
    licenses: [lic(21, 'SL3456789', 'FL', 'Sales Associate', '2025-04-01', '2027-03-31')],
  },
  { user_id: 3, first_name: 'Priya', last_name: 'Patel', licenses: [lic(31, '02145678', 'CA', 'Salesperson', '2024-12-15', '2028-12-14')] },
  { user_id: 4, first_name: 'Carlos', last_name: 'Rivera', licenses: [lic(41, '712345', 'TX', 'Broker', '2025-01-31', '2027-01-31')] },
  { user_id: 5, first_name: 'Amelia', last_name: 'Johnson', licenses: [lic(51, 'BK3189920', 'FL', 'Broker', '2025-10-01', '2027-09-30')] },
  { user_id: 6, first_name: 'Marcus', last_name: 'Chen', licenses: [lic(61, '01987654', 'CA', 'Broker', '2023-06-20', '2027-06-19')] },
  {
    user_id: 7,
    first_name: 'Owen',
    last_name: 'Gallagher',
    licenses: [
      lic(71, '0598123', 'TX', 'Sales Agent', '2025-05-31', '2027-05-31'),
      lic(72, 'SL3300412', 'FL', 'Sales Associate', '2025-04-01', '2027-03-31'),
    ],
  },
  {
    user_id: 8,
    first_name: 'Lena',
    last_name: 'Fischer',
    licenses: [lic(81, '02233441', 'CA', 'Salesperson', '2025-02-01', '2029-01-31')],
  },
];

/** People whose certificates are uploaded by someone else (the negatives "another person's certificate"). */
export const STRANGERS = [
  { first_name: 'Robert', last_name: 'Whitfield', license_number: '0677120', state: 'TX' },
  { first_name: 'Danielle', last_name: 'Okafor', license_number: 'SL3981002', state: 'FL' },
  { first_name: 'Kevin', last_name: 'Nguyen', license_number: '02099887', state: 'CA' },
  { first_name: 'Sofia', last_name: 'Marino', license_number: '0701554', state: 'TX' },
];

/** A small seeded generator (mulberry32), so the set is the same on every run. */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
