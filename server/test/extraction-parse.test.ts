/**
 * Reading what certificates print (docs/ocr.md "Fields"): the parser on layouts as real providers print them
 * (state forms, online schools, association letters, tables, transcripts, receipts, OCR-noisy copies), and the
 * text layer of PDFs printed by Chromium (words split at ligatures) read through readCertificate.
 * A layout is an array of lines; "    " (or " | ") separates the cells a wide gap makes on a line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCertificate, parseDate, readCertificate, stopExtraction } from '../src/modules/documents/extraction/index.ts';
import type { ParsedCertificate } from '../src/modules/documents/extraction/reading.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'certificates');

afterAll(() => stopExtraction());

/** Lines as a text layer gives them (confidence 1), or as OCR does (a lower confidence per line). */
const parse = (lines: string[], confidence = 1): ParsedCertificate => parseCertificate(lines.map((text) => ({ text, confidence })));

type Expected = Partial<Record<keyof ParsedCertificate['fields'], string | number | null>> & { kind?: ParsedCertificate['kind'] };

function expectFields(p: ParsedCertificate, expected: Expected) {
  const { kind = 'certificate', ...fields } = expected;
  const got: Record<string, unknown> = { kind: p.kind };
  const want: Record<string, unknown> = { kind };
  for (const [k, v] of Object.entries(fields)) {
    got[k] = p.fields[k as keyof ParsedCertificate['fields']].value;
    want[k] = v;
  }
  expect(got).toEqual(want);
}

interface Layout {
  name: string;
  lines: string[];
  confidence?: number;
  expected: Expected;
}

const LAYOUTS: Layout[] = [
  {
    name: 'TREC continuing education form (label beside value, a table of labels)',
    lines: [
      'TEXAS REAL ESTATE COMMISSION',
      'Continuing Education Course Completion Certificate',
      'Provider Name:    Lone Star Real Estate School',
      'Provider #:    0571',
      'Licensee Name:    BROWN, JAMES',
      'License Number:    0654321',
      'Course Title:    Legal Update I: Agency, Fiduciary Duties',
      'TREC Course No.:    44120',
      'Credit Hours:    4',
      'Course Completion Date:    09/18/2026',
      'Delivery Method:    Classroom',
      'The course was listed in accordance with 22 TAC §535.72.',
    ],
    expected: {
      course_name: 'Legal Update I: Agency, Fiduciary Duties',
      provider: 'Lone Star Real Estate School',
      holder_name: 'James Brown',
      license_number: '0654321',
      approval_number: '44120',
      hours: 4,
      completion_date: '2026-09-18',
      state: 'TX',
    },
  },
  {
    name: 'Florida DBPR roster style (DBPR course number, FL license)',
    lines: [
      'Gold Coast School of Real Estate',
      'CERTIFICATE OF COMPLETION',
      'This is to certify that',
      'Maria L. Gonzalez',
      'FL License #: SL3456789',
      'has successfully completed',
      '14 Hour Continuing Education for Real Estate Sales Associates and Brokers',
      'DBPR Course Number: 0012345    Provider #: 0009876',
      'Credit Hours: 14',
      'Date Completed: 10/02/2026',
    ],
    expected: {
      course_name: '14 Hour Continuing Education for Real Estate Sales Associates and Brokers',
      provider: 'Gold Coast School of Real Estate',
      holder_name: 'Maria L. Gonzalez',
      license_number: 'SL3456789',
      approval_number: '0012345',
      hours: 14,
      completion_date: '2026-10-02',
      state: 'FL',
    },
  },
  {
    name: 'California DRE certificate (DRE License ID, course approval #)',
    lines: [
      'Pacific Coast Real Estate Academy',
      'Certificate of Course Completion',
      "Student Name: Kevin O'Neil",
      'DRE License ID: 01987654',
      'Course: Risk Management',
      'DRE Course Approval #: 6170-4421',
      'Hours: 3',
      'Final Exam Passed: November 3rd, 2026',
      'California Department of Real Estate approved sponsor #6170',
    ],
    expected: {
      course_name: 'Risk Management',
      holder_name: "Kevin O'Neil",
      license_number: '01987654',
      approval_number: '6170-4421',
      hours: 3,
      completion_date: '2026-11-03',
      state: 'CA',
    },
  },
  {
    name: 'Online school with labels above values (two columns)',
    lines: [
      'RealEstateU Online',
      'Certificate of Completion',
      'STUDENT    LICENSE NO.',
      'Priya Raman    BK-3021877',
      'COURSE TITLE',
      'Contracts and Disclosures for Brokers',
      'HOURS    DATE COMPLETED',
      '6    12/01/2026',
    ],
    expected: {
      course_name: 'Contracts and Disclosures for Brokers',
      provider: 'RealEstateU Online',
      holder_name: 'Priya Raman',
      license_number: 'BK-3021877',
      hours: 6,
      completion_date: '2026-12-01',
    },
  },
  {
    name: 'Ornate certificate with ordinal date and written-out hours',
    lines: [
      'The Realty Institute',
      'Certificate of Achievement',
      'This certifies that',
      'Samuel T. Whitaker',
      'has completed three (3) hours of continuing education in',
      'Ethics and Professional Conduct',
      'Given this 3rd day of November, 2026',
    ],
    expected: {
      course_name: 'Ethics and Professional Conduct',
      provider: 'The Realty Institute',
      holder_name: 'Samuel T. Whitaker',
      hours: 3,
      completion_date: '2026-11-03',
    },
  },
  {
    name: 'Association letter: letter date first, completion in prose',
    lines: [
      'Greater Austin Association of REALTORS®',
      'October 28, 2026',
      'Dear Ms. Chen,',
      'Thank you for attending our seminar. This letter certifies that Linda Chen attended',
      'Course: Negotiation Strategies for Buyers',
      'Date of Attendance: October 15, 2026',
      'Three Clock Hours of continuing education credit were earned.',
      'Sincerely,',
      'Education Director',
    ],
    expected: {
      course_name: 'Negotiation Strategies for Buyers',
      hours: 3,
      completion_date: '2026-10-15',
      // Austin is a city: no state is named.
      state: null,
    },
  },
  {
    name: 'Receipt-style certificate with an order date before the completion date',
    lines: [
      'Order #A-20931    Order Date: 09/02/2026',
      'Certificate of Completion',
      'Lone Star Real Estate School',
      'This is to certify that Maria Gonzalez, License # 0654321, has completed the following course',
      'Course Title:    Legal Update II: Contracts',
      'Credit Hours:    4',
      'Completion Date:    09/18/2026',
      'Printed 09/20/2026',
    ],
    expected: { course_name: 'Legal Update II: Contracts', completion_date: '2026-09-18', holder_name: 'Maria Gonzalez', hours: 4 },
  },
  {
    name: 'Course name never taken from prose (22 TAC)',
    lines: [
      'Champions School of Real Estate',
      'This certifies that Alan Reyes has successfully completed the following course',
      'listed in accordance with 22 TAC §535.72:',
      'Texas Real Estate Finance',
      '30 classroom hours',
      'Completed on March 14, 2026',
    ],
    expected: {
      course_name: 'Texas Real Estate Finance',
      hours: 30,
      completion_date: '2026-03-14',
      holder_name: 'Alan Reyes',
      state: 'TX',
    },
  },
  {
    name: 'Table of one course (Course | Hours | Date)',
    lines: [
      'Kaplan Real Estate Education',
      'Certificate of Completion',
      'Awarded to: Daniel Kim    License: 0712345',
      'Course    Hours    Date',
      'Fair Housing and Ethics    3    04/22/2026',
      'Total    3',
    ],
    expected: {
      course_name: 'Fair Housing and Ethics',
      hours: 3,
      completion_date: '2026-04-22',
      holder_name: 'Daniel Kim',
      license_number: '0712345',
    },
  },
  {
    name: 'Transcript: a table of several courses',
    lines: [
      'Texas Realty Academy',
      'Continuing Education Transcript',
      'Student: Olivia Park    License #: 0655511',
      'Course Title    Course #    Hours    Date Completed',
      'Legal Update I    44120    4    01/10/2026',
      'Legal Update II    44121    4    01/11/2026',
      'Contract Forms and Addenda    38877    3    02/05/2026',
      'Total Hours    11',
    ],
    expected: {
      kind: 'transcript',
      course_name: 'Legal Update I',
      hours: 4,
      completion_date: '2026-01-10',
      approval_number: '44120',
      holder_name: 'Olivia Park',
      license_number: '0655511',
    },
  },
  {
    name: 'Transcript as a list of lines',
    lines: [
      'Agent CE Record',
      'This transcript certifies the courses completed by Marcus Bell',
      '1. Agency Law — 3 hours — 05/01/2026',
      '2. Property Management Basics — 4 hours — 05/08/2026',
      '3. Real Estate Math — 2 hours — 05/15/2026',
    ],
    expected: { kind: 'transcript', course_name: 'Agency Law', hours: 3, completion_date: '2026-05-01' },
  },
  {
    name: 'Hours split by topic with a total',
    lines: [
      'Certificate of Completion',
      'Course Title: Core Law Update',
      'Fair Housing 2 hrs, Ethics 1 hr, Total 3',
      'Completion Date: 06/30/2026',
    ],
    expected: { course_name: 'Core Law Update', hours: 3, completion_date: '2026-06-30' },
  },
  {
    name: 'Two-line course title after the completion phrase',
    lines: [
      'Certificate of Completion',
      'This certifies that Robert Diaz',
      'has successfully completed the course',
      'Commercial Leasing Fundamentals and',
      'Tenant Representation',
      'Approved for 7.5 hrs of credit',
      'Date: August 9th, 2026',
    ],
    expected: {
      course_name: 'Commercial Leasing Fundamentals and Tenant Representation',
      hours: 7.5,
      completion_date: '2026-08-09',
      holder_name: 'Robert Diaz',
    },
  },
  {
    name: 'Invoice for a course',
    lines: [
      'INVOICE',
      'Realty Academy of Texas',
      'Bill To: Jane Smith',
      'Invoice #: 10442    Invoice Date: 03/01/2026',
      'Qty    Description    Unit Price    Amount',
      '1    Fair Housing Essentials (3 hrs)    $49.00    $49.00',
      'Subtotal    $49.00',
      'Amount Due    $0.00',
    ],
    expected: { kind: 'invoice' },
  },
  {
    name: 'Payment receipt from an online school',
    lines: [
      'Receipt for your order',
      'Order # 88120-B',
      'Paid with Visa ending 4242',
      'Item: Texas SAE Package',
      'Subtotal: $199.00',
      'Sales tax: $0.00',
      'Total paid: $199.00',
    ],
    expected: { kind: 'invoice' },
  },
  {
    name: 'Not a certificate: a renewal reminder',
    lines: [
      'Your license renewal is coming up',
      'Hello Jane, your license expires on 12/31/2026.',
      'Log in to your account to see what you need.',
    ],
    expected: { kind: 'not_certificate', completion_date: null },
  },
  {
    name: 'OCR-noisy scan (O for 0, l for 1, sth for 5th)',
    confidence: 0.82,
    lines: [
      'CERTIFICATE OF COMPLETlON',
      'Awarded to: Teresa Nguyen',
      'License No. TX-7788l2',
      'Course Title: Contract Law Update 2026',
      'Credit Hours: 4',
      'Completed on November sth, 2O26',
    ],
    expected: {
      course_name: 'Contract Law Update 2026',
      hours: 4,
      completion_date: '2026-11-05',
      license_number: 'TX-778812',
      holder_name: 'Teresa Nguyen',
    },
  },
  {
    name: 'OCR of a two-column form read across (no cells)',
    confidence: 0.9,
    lines: [
      'Premier Real Estate Institute',
      'Course: Residential Appraisal Basics Hours: 3',
      'Date Completed: 07/21/2026 Expires: 07/21/2028',
      'Name: Ahmed Farouk License #: SA-882211',
    ],
    expected: {
      course_name: 'Residential Appraisal Basics',
      hours: 3,
      completion_date: '2026-07-21',
      holder_name: 'Ahmed Farouk',
      license_number: 'SA-882211',
    },
  },
  {
    name: 'Broken OCR lines: the label alone on its line',
    confidence: 0.75,
    lines: [
      'Certificate of Completion',
      'Course Name:',
      'Property Tax Essentials',
      'Date of Completion:',
      '02/14/2026',
      'Hours Awarded:',
      '2',
    ],
    expected: { course_name: 'Property Tax Essentials', completion_date: '2026-02-14', hours: 2 },
  },
  {
    name: 'Caption under signature lines (value above its label)',
    lines: [
      'Certificate of Completion',
      'Mid-America Real Estate College',
      'presents this certificate for completing',
      '"Environmental Issues in Real Estate"',
      'Karen Lowe    March 3, 2026',
      'Licensee    Date',
    ],
    expected: { course_name: 'Environmental Issues in Real Estate', holder_name: 'Karen Lowe', completion_date: '2026-03-03' },
  },
  {
    name: 'Issued date and exam registration date beside the completion date',
    lines: [
      'Certificate of Completion',
      'Exam Registration Date: 01/05/2026',
      'Course: Real Estate Law',
      'Course Date: 01/20/2026',
      'Issued: 01/22/2026',
      'Credits: 6',
    ],
    expected: { course_name: 'Real Estate Law', completion_date: '2026-01-20', hours: 6 },
  },
  {
    name: 'Only an issued date (and an expiry)',
    lines: [
      'Certificate of Completion',
      'Course Title: Mold Awareness',
      'Issue Date: 05/05/2026',
      'Certificate expires: 05/05/2028',
      '2 CE Hours',
    ],
    expected: { course_name: 'Mold Awareness', completion_date: '2026-05-05', hours: 2 },
  },
  {
    name: 'Lic. # and a Last, First name',
    lines: [
      'Certificate of Completion',
      'Name: Whitfield, Anne Marie',
      'Lic. # 0455123',
      'Course: Short Sales and Foreclosures',
      'CE Hours: 3',
      'Date: 9/9/2026',
      'Offered by Hondros College of Business',
    ],
    expected: {
      holder_name: 'Anne Marie Whitfield',
      license_number: '0455123',
      course_name: 'Short Sales and Foreclosures',
      hours: 3,
      completion_date: '2026-09-09',
      provider: 'Hondros College of Business',
    },
  },
  {
    name: 'Georgia form with a state label and approval number',
    lines: [
      'Certificate of Continuing Education',
      'School: Atlanta Real Estate Academy',
      'Approval No.: GA-0441',
      'State: Georgia',
      'Course Name: Georgia License Law Review',
      'Approved Hours: 3',
      'Course Completion Date: Dec. 2, 2026',
    ],
    expected: {
      provider: 'Atlanta Real Estate Academy',
      approval_number: 'GA-0441',
      state: 'GA',
      course_name: 'Georgia License Law Review',
      hours: 3,
      completion_date: '2026-12-02',
    },
  },
  {
    name: 'Webinar certificate with a day-first date and hours written out',
    lines: [
      'Certificate of Attendance',
      'presented to',
      'Fiona MacLeod',
      'for attending the webinar',
      'Course Title: Cybersecurity for Real Estate Agents',
      'Two Hours of continuing education',
      'Date of webinar: 21 October 2026',
      'Provided by: SecureAgent Learning',
    ],
    expected: {
      holder_name: 'Fiona MacLeod',
      course_name: 'Cybersecurity for Real Estate Agents',
      hours: 2,
      completion_date: '2026-10-21',
      provider: 'SecureAgent Learning',
    },
  },
  {
    name: 'Provider number is not the course approval number',
    lines: [
      'Certificate of Completion',
      'Provider: Real Estate Express    Provider #: 0010',
      'Course: Texas Agency Law',
      'Course #: 40123',
      'Hours: 2',
      'Date: 2026-08-01',
    ],
    expected: {
      provider: 'Real Estate Express',
      approval_number: '40123',
      course_name: 'Texas Agency Law',
      hours: 2,
      completion_date: '2026-08-01',
    },
  },
  {
    name: 'Arizona ADRE certificate with hours by category in a table and a total',
    lines: [
      'Arizona School of Real Estate & Business',
      'Certificate of Completion',
      'Student Name: HOLLIS, MARGARET',
      'ADRE License #: SA654321000',
      'Course Title: Arizona Real Estate Update 2026',
      'ADRE Course Number: CE-7790-26',
      'Category    Hours',
      'Agency Law    3',
      'Contract Law    3',
      'Total Credit Hours    6',
      'Date of Course: 02/27/2026',
    ],
    expected: {
      holder_name: 'Margaret Hollis',
      license_number: 'SA654321000',
      course_name: 'Arizona Real Estate Update 2026',
      approval_number: 'CE-7790-26',
      hours: 6,
      completion_date: '2026-02-27',
      state: 'AZ',
    },
  },
  {
    name: 'New York State certificate with a two-digit year and fractional hours',
    lines: [
      'New York State Department of State    Division of Licensing Services',
      'Continuing Education Certificate of Completion',
      'Name of Licensee: Victor Castellano',
      'UID #: 10401234567',
      'Course Title: Implicit Bias Awareness',
      'Approved Hours: 2.5',
      'Course Completion: 7/14/26',
      'Sponsor: Empire State Realty Education',
    ],
    expected: {
      holder_name: 'Victor Castellano',
      course_name: 'Implicit Bias Awareness',
      hours: 2.5,
      completion_date: '2026-07-14',
      provider: 'Empire State Realty Education',
      state: 'NY',
    },
  },
  {
    name: 'OCR transcript with a header of words and no cells',
    confidence: 0.85,
    lines: [
      'CE TRANSCRIPT',
      'Licensee: Grace Holm License #: 0612398',
      'Course Title Hours Date Completed',
      'Ethics in Practice 3 03/02/2026',
      'Agency Disclosure 2 03/09/2026',
      'Total Hours: 5',
    ],
    expected: { kind: 'transcript', course_name: 'Ethics in Practice', hours: 3, completion_date: '2026-03-02', holder_name: 'Grace Holm' },
  },
  {
    name: 'Unlabelled completion date beside a labelled expiry',
    lines: [
      'Certificate of Completion',
      'Coastal Realty Training Center',
      'Jordan Ellis',
      'completed the course',
      'Home Inspection Basics',
      'June 12, 2026',
      'Credit valid until June 12, 2028',
      '4 CE Hours',
    ],
    expected: {
      course_name: 'Home Inspection Basics',
      completion_date: '2026-06-12',
      hours: 4,
      provider: 'Coastal Realty Training Center',
    },
  },
  {
    name: 'Title in capitals with a course ID and a name in capitals',
    lines: [
      'ONLINE REAL ESTATE CE',
      'CERTIFICATE OF COMPLETION',
      'PRESENTED TO',
      'JOHN A. SMITH',
      'FOR SUCCESSFUL COMPLETION OF',
      'WATER RIGHTS AND WELLS',
      'COURSE ID: RE-1042    CREDIT HOURS: 3.0    DATE: 01/31/2026',
    ],
    expected: {
      holder_name: 'John A. Smith',
      course_name: 'Water Rights and Wells',
      approval_number: 'RE-1042',
      hours: 3,
      completion_date: '2026-01-31',
    },
  },
  {
    name: 'Course and exam dates: the exam date is not the completion date',
    lines: [
      'Certificate of Completion',
      'Student: Hannah Moore',
      'Course: Pre-License Principles I',
      'Exam Date: 04/30/2026    Course Completed: 04/28/2026',
      'Clock Hours: 30',
    ],
    expected: { course_name: 'Pre-License Principles I', completion_date: '2026-04-28', hours: 30 },
  },
  {
    name: 'National online school (approval number, Nevada license, provider number apart)',
    lines: [
      'McKissock Learning',
      'CERTIFICATE OF COMPLETION',
      'Awarded to',
      'Thomas R. Avery',
      'for successfully completing',
      'The Ethics of Real Estate: Doing the Right Thing',
      'Course Hours: 3',
      'Completion Date: 11/12/2026',
      'Course Approval Number: 1234-5678',
      'License Number: SP.0123456',
      'State: Nevada',
      'Provider Number: CE.0001234-A',
    ],
    expected: {
      course_name: 'The Ethics of Real Estate: Doing the Right Thing',
      provider: 'McKissock Learning',
      holder_name: 'Thomas R. Avery',
      hours: 3,
      completion_date: '2026-11-12',
      approval_number: '1234-5678',
      license_number: 'SP.0123456',
      state: 'NV',
    },
  },
  {
    name: 'Short online certificate: value lines under phrases, state from the regulator',
    lines: [
      'The CE Shop',
      'This certifies that',
      'Olivia Grant',
      'License #: 01234567 (CA)',
      'has completed',
      'Risk Management',
      '3 Hours',
      'on October 1, 2026',
      'Course offering # 2026-0412',
      'Approved by the California Department of Real Estate',
    ],
    expected: {
      course_name: 'Risk Management',
      provider: 'The CE Shop',
      holder_name: 'Olivia Grant',
      license_number: '01234567',
      hours: 3,
      completion_date: '2026-10-01',
      approval_number: '2026-0412',
      state: 'CA',
    },
  },
  {
    name: 'Association ethics training (dotted date, a cycle of years that is no date)',
    lines: [
      'National Association of REALTORS®',
      'Code of Ethics Training',
      'This certificate is presented to',
      'Susan Perez',
      'in recognition of completing the required Code of Ethics training',
      'Completion date: 03.15.2026',
      '2.5 hours',
      'Cycle: 2025-2027',
    ],
    expected: { holder_name: 'Susan Perez', completion_date: '2026-03-15', hours: 2.5 },
  },
  {
    name: 'OCR of an ornate certificate (N0., 0 for O in a name, 2lst day of)',
    confidence: 0.8,
    lines: [
      'C E R T I F I C A T E',
      'of Completion',
      "This is to certify that Michael 0'Brien",
      'License N0. 0598877',
      'has completed the course entitled',
      '"Residential Property Management"',
      'f0r Four (4) hours of credit',
      'on this 2lst day of March, 2026',
      'Instructor: __________',
    ],
    expected: {
      holder_name: "Michael O'Brien",
      license_number: '0598877',
      course_name: 'Residential Property Management',
      hours: 4,
      completion_date: '2026-03-21',
    },
  },
  {
    name: 'Roster table with a course title over two rows',
    lines: [
      'Course Roster Certificate',
      'Name: Lee, Daniel    License #: BK-554433',
      'Course Title    Hours    Completed',
      'Broker Responsibility and',
      'Supervision    4    05/20/2026',
    ],
    expected: {
      course_name: 'Broker Responsibility and Supervision',
      hours: 4,
      completion_date: '2026-05-20',
      holder_name: 'Daniel Lee',
      license_number: 'BK-554433',
    },
  },
  {
    name: 'Shop receipt for a course (an order date, prices)',
    lines: [
      'Thank you for your purchase!',
      'Order number: 559102',
      'Order date: 02/02/2026',
      'Fair Housing Update (3 hours) ........ $39.00',
      'Total: $39.00',
      'Payment method: Mastercard',
    ],
    expected: { kind: 'invoice' },
  },
  {
    name: 'A letter about the renewal, no course',
    lines: [
      'Dear Agent,',
      'Your renewal deadline is 12/31/2026. You need 18 hours of continuing education.',
      'Sincerely, The Licensing Team',
    ],
    expected: { kind: 'not_certificate', hours: null, completion_date: null },
  },
  {
    name: 'Florida commission form with a Last, First name in capitals',
    confidence: 0.9,
    lines: [
      'FLORIDA REAL ESTATE COMMISSION',
      'Approved Continuing Education',
      'Name: RAMIREZ, ANA',
      'License: SL 3344556',
      'Course: Core Law',
      'Course # 0011223',
      'Hours: 3',
      'Date: Aug 14 2026',
    ],
    expected: {
      holder_name: 'Ana Ramirez',
      license_number: 'SL3344556',
      course_name: 'Core Law',
      approval_number: '0011223',
      hours: 3,
      completion_date: '2026-08-14',
      state: 'FL',
      provider: null,
    },
  },
  {
    name: 'Association letter confirming attendance (the date broken over two lines)',
    confidence: 0.88,
    lines: [
      'Dallas Association of REALTORS',
      '2425 Elm Street, Dallas, Texas 75201',
      'March 30, 2026',
      'Mr. Peter Lindqvist',
      'License No. 0633210',
      'Re: Your CE credit',
      'Dear Peter,',
      'We are pleased to confirm that you attended Property Tax Protests at our Uptown center on the 17th of',
      'March, 2026, and earned two (2) hours of continuing education credit under TREC course number 40551.',
      'Sincerely,',
      'Member Services',
    ],
    expected: {
      kind: 'certificate',
      course_name: 'Property Tax Protests',
      completion_date: '2026-03-17',
      hours: 2,
      holder_name: 'Peter Lindqvist',
      license_number: '0633210',
      approval_number: '40551',
      state: 'TX',
    },
  },
  {
    name: 'OCR of a state form without cells (labels on one line, values on the next)',
    confidence: 0.9,
    lines: [
      'TEXAS REAL ESTATE COMMISSION',
      'Continuing Education Course Completion Certificate',
      'Licensee Name TREC License Number',
      'NGUYEN, LINH 0688123',
      'Course Title',
      'Seller Disclosure Essentials',
      'TREC Course Number Credit Hours',
      '40210 3.0',
      'Course Start Date Course Completion Date',
      '05/11/2026 05/12/2026',
    ],
    expected: {
      holder_name: 'Linh Nguyen',
      license_number: '0688123',
      course_name: 'Seller Disclosure Essentials',
      approval_number: '40210',
      hours: 3,
      completion_date: '2026-05-12',
    },
  },
  {
    name: 'Online record with a state code before the license number and several dates',
    lines: [
      'Bay Area CE Online — Course Completion Record',
      'Generated 2026-06-02 10:41',
      'Student: Okafor, Chidi',
      'License: CA 01876543',
      'Course title: Fair Housing in California',
      'Approval no.: 6170-0921',
      'Enrolled: 2026-05-20',
      'Exam passed: 2026-05-28 (score 91%)',
      'Completed: 2026-05-28',
      'Credit: 3 clock hours',
    ],
    expected: {
      provider: 'Bay Area CE Online',
      holder_name: 'Chidi Okafor',
      license_number: '01876543',
      course_name: 'Fair Housing in California',
      approval_number: '6170-0921',
      completion_date: '2026-05-28',
      hours: 3,
      state: 'CA',
    },
  },
  {
    name: 'Receipt that mentions the certificate to come',
    lines: [
      'Prairie Real Estate Academy    RECEIPT',
      'Invoice #: 20931',
      'Order date: 05/02/2026',
      'Bill to',
      'Laura Stein',
      'Description    Qty    Amount',
      'Agency Law Refresher (online)    1    $45.00',
      'Total paid    $45.00',
      'Thank you for your order. Your certificate of completion will be emailed to you after you pass the final exam.',
    ],
    expected: { kind: 'invoice' },
  },
  {
    name: 'A regulator’s course approval letter (not a certificate)',
    lines: [
      'Texas Real Estate Commission',
      'Education Services',
      'May 4, 2026',
      'Prairie Real Estate Academy',
      'Attn: Program Director',
      'Re: Course approval',
      'The Commission has approved the following course for continuing education credit:',
      'Course title: Agency Law Refresher',
      'Course number: 40877',
      'Credit hours: 3',
      'Approval valid through: April 30, 2028',
    ],
    expected: { kind: 'not_certificate' },
  },
  {
    name: 'Diploma wording ("Be it known that", "is awarded ... for the course")',
    confidence: 0.85,
    lines: [
      'WESTERN REALTY COLLEGE',
      'Be it known that',
      'Dmitri Volkov',
      'having fulfilled the requirements, is awarded 4 hours of credit for the course',
      'Commercial Property Valuation',
      'Given this 9th day of June, 2026.',
    ],
    expected: {
      holder_name: 'Dmitri Volkov',
      course_name: 'Commercial Property Valuation',
      hours: 4,
      completion_date: '2026-06-09',
      provider: 'Western Realty College',
    },
  },
];

describe('layouts as providers print them', () => {
  it.each(LAYOUTS)('$name', ({ lines, confidence, expected }) => {
    expectFields(parse(lines, confidence), expected);
  });

  it('has at least 25 distinct layouts', () => {
    expect(new Set(LAYOUTS.map((l) => l.name)).size).toBeGreaterThanOrEqual(25);
  });
});

describe('dates, kinds and pages', () => {
  it('normalises date formats to YYYY-MM-DD, ordinals and OCR slips included', () => {
    expect(parseDate('March 3, 2026')).toBe('2026-03-03');
    expect(parseDate('03/03/2026')).toBe('2026-03-03');
    expect(parseDate('2026-03-03')).toBe('2026-03-03');
    expect(parseDate('3 Mar 2026')).toBe('2026-03-03');
    expect(parseDate('3rd of March, 2026')).toBe('2026-03-03');
    expect(parseDate('Sept. 14th 2025')).toBe('2025-09-14');
    expect(parseDate('31/12/2025')).toBe('2025-12-31');
    expect(parseDate('2026-02-30')).toBeNull();
    expect(parseDate('this 3rd day of November, 2026')).toBe('2026-11-03');
    expect(parseDate('November 3rd, 2026')).toBe('2026-11-03');
    expect(parseDate('November sth, 2026')).toBe('2026-11-05');
    expect(parseDate('on the 21st day of June in the year 2026')).toBe('2026-06-21');
    expect(parseDate('7/14/26')).toBe('2026-07-14');
    expect(parseDate('Completed 1O/O2/2O26')).toBe('2026-10-02');
    // "s" alone is no day: the word before a year is not read as one.
    expect(parseDate('Hours 2026')).toBeNull();
  });

  it('prefers labelled values and gives guesses a lower confidence', () => {
    const p = parseCertificate([
      { text: 'Valid until 12/31/2027', confidence: 1 },
      { text: 'Date of Completion: 01/15/2026', confidence: 0.9 },
      { text: 'Total: 2.5 hours', confidence: 1 },
    ]);
    expect(p.fields.completion_date).toEqual({ value: '2026-01-15', confidence: 0.9, labelled: true });
    expect(p.fields.hours.value).toBe(2.5);
    expect(p.fields.course_name).toEqual({ value: null, confidence: 0 });
    const guess = parse(['Certificate', 'Coastal Realty Training Center', 'June 12, 2026']);
    expect(guess.fields.completion_date.value).toBe('2026-06-12');
    expect(guess.fields.completion_date.confidence).toBeLessThan(0.7);
    expect(guess.fields.completion_date.labelled).toBe(false);
    expect(guess.fields.provider.confidence).toBeLessThan(0.7);
  });

  it('never takes an order, exam or printed date when a completion date exists, and no expiry at all', () => {
    const p = parse(['Order Date: 09/02/2026', 'Exam Registration Date: 09/03/2026', 'Completion Date: 09/18/2026', 'Printed 09/20/2026']);
    expect(p.fields.completion_date).toEqual({ value: '2026-09-18', confidence: 1, labelled: true });
    expect(parse(['Certificate of Completion', 'Expires: 12/31/2028']).fields.completion_date.value).toBeNull();
    // Only an order date: read, but as a poor guess.
    const order = parse(['Certificate of Completion', 'Order Date: 09/02/2026']).fields.completion_date;
    expect(order.value).toBe('2026-09-02');
    expect(order.confidence).toBeLessThan(0.5);
    expect(order.labelled).toBe(false);
  });

  it('reads the state from the regulator, a license line or a label', () => {
    const state = (lines: string[]) => parse(['Certificate of Completion', ...lines]).fields.state;
    expect(state(['Approved by the State of Texas'])).toMatchObject({ value: 'TX' });
    expect(state(['TREC Provider #0571'])).toMatchObject({ value: 'TX' });
    expect(state(['California DRE sponsor #6170'])).toMatchObject({ value: 'CA' });
    expect(state(['Florida DBPR Course Number: 0012345'])).toMatchObject({ value: 'FL' });
    expect(state(['FL License #: SL3456789'])).toMatchObject({ value: 'FL' });
    expect(state(['License #: 02233441 (CA)'])).toMatchObject({ value: 'CA' });
    expect(state(['State:    Georgia'])).toEqual({ value: 'GA', confidence: 1 });
    // A guess from an address is a low-confidence reading; no state at all is null.
    expect(state(['1200 Main St, Austin, TX 78701']).confidence).toBeLessThan(0.6);
    expect(state(['Course: Fair Housing'])).toEqual({ value: null, confidence: 0 });
  });

  it('reads a transcript’s courses one by one', () => {
    const p = parse(LAYOUTS.find((l) => l.name.startsWith('Transcript: a table'))!.lines);
    expect(p.courses.map((c) => [c.course_name.value, c.hours.value, c.completion_date.value, c.approval_number.value])).toEqual([
      ['Legal Update I', 4, '2026-01-10', '44120'],
      ['Legal Update II', 4, '2026-01-11', '44121'],
      ['Contract Forms and Addenda', 3, '2026-02-05', '38877'],
    ]);
    // A certificate of one course has no courses list.
    expect(parse(LAYOUTS[0]!.lines).courses).toEqual([]);
  });

  it('skips a cover letter page and reads the certificate page', () => {
    const lines = [
      ...[
        'Heritage Real Estate School',
        'November 20, 2026',
        'Dear Ms. Stafford,',
        'Enclosed is your certificate for the course you completed.',
        'Sincerely,',
        'Page 1 of 2',
      ].map((text) => ({ text, confidence: 1, page: 1 })),
      ...[
        'Certificate of Completion',
        'Course Title: Affirmative Fair Housing Marketing',
        'Credit Hours: 2',
        'Date of Completion: 11/05/2026',
      ].map((text) => ({
        text,
        confidence: 1,
        page: 2,
      })),
    ];
    const p = parseCertificate(lines);
    expect(p.kind).toBe('certificate');
    expect(p.fields.completion_date.value).toBe('2026-11-05');
    expect(p.fields.course_name.value).toBe('Affirmative Fair Housing Marketing');
  });
});

describe('PDFs printed by a browser', () => {
  it('joins the words Chromium splits at ligatures, and reads a two-column block cell by cell', async () => {
    const r = await readCertificate(fs.readFileSync(path.join(FIXTURES, 'chromium-ligatures.pdf')), 'application/pdf');
    expect(r.source).toBe('text_layer');
    expect(r.text).toContain('Pacific Realty Institute');
    expect(r.text).toContain('Office of Continuing Education');
    expect(r.text).toContain('This certifies that');
    expect(r.text).toContain('Official certificate issued by the Office of the Registrar');
    expect(r.text).not.toMatch(/\b(?:Paci fi|O ffi|certi fi|Cli ff)/);
    // Letter-spaced capitals, a superscript ordinal and justified text (stretched spaces) read as printed.
    expect(r.text).toContain('CERTIFICATE OF ACHIEVEMENT');
    expect(r.text).toContain('Given this 16th day of October, 2026');
    expect(r.text).toContain('The official affidavit of fulfillment was filed');
    expectFields(r, {
      course_name: 'Ethics in Financing and Offers',
      provider: 'Pacific Realty Institute',
      holder_name: 'Clifford Huffman',
      hours: 3,
      completion_date: '2026-10-14',
      license_number: 'SA-660142',
      approval_number: 'CE-4471',
      state: 'TX',
    });
  });

  it('prefills the completion date, not the earlier order date', async () => {
    const r = await readCertificate(fs.readFileSync(path.join(FIXTURES, 'order-date.pdf')), 'application/pdf');
    expect(r.text).toContain('Order Date: 09/02/2026');
    expectFields(r, {
      completion_date: '2026-09-18',
      course_name: 'Legal Update I: Fiduciary Duties',
      hours: 4,
      approval_number: '44120',
      holder_name: 'Maria Gonzalez',
      license_number: '0654321',
    });
    expect(r.fields.completion_date.confidence).toBe(1);
  });

  it('skips a fax cover page and reads the certificate on page 2', async () => {
    const r = await readCertificate(fs.readFileSync(path.join(FIXTURES, 'fax-cover.pdf')), 'application/pdf');
    expectFields(r, {
      completion_date: '2026-11-05',
      course_name: 'Affirmative Fair Housing Marketing',
      provider: 'Heritage Real Estate School',
      holder_name: 'Jennifer Stafford',
      hours: 2,
      approval_number: '39201',
    });
  });

  it('still reads the typed fixture as before', async () => {
    const r = await readCertificate(fs.readFileSync(path.join(FIXTURES, 'certificate-typed.pdf')), 'application/pdf');
    expectFields(r, {
      course_name: 'Fair Housing Essentials',
      provider: 'Realty Academy of Texas',
      hours: 3,
      completion_date: '2026-03-03',
      holder_name: 'Jane Q. Smith',
      license_number: 'SA-123456',
    });
  });
});
