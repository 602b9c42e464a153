import { asc, eq } from 'drizzle-orm';
import { addDays, localDateString, toCents, type CeTopic, type CompletionStatus, type CourseType } from '@lm/shared';
import { completions, courses, licenses, users } from '../db/schema/index.ts';
import type { Tx } from '../db/client.ts';
import { audit } from '../core/audit.ts';
import { seedCeLedger } from './seed-ce.ts';
import type { DemoContext } from './context.ts';

interface DemoCourse {
  course_name: string;
  description: string;
  ce_hours: number;
  course_type: CourseType;
  cost: number;
  is_active?: boolean;
  topic?: CeTopic;
  /** The state's approval number printed on the certificates, and the state (docs/ocr.md "Judge"). */
  approval?: { number: string; state: string };
}

/** Per school, in the order of ctx.schoolIds; the last school's list wraps for any further school. */
const SCHOOL_COURSES: DemoCourse[][] = [
  [
    {
      course_name: 'California Fair Housing Update',
      approval: { number: 'CE-4471', state: 'CA' },
      topic: 'Fair Housing',
      description: 'Fair Housing Act, FEHA and the Unruh Act: protected classes, advertising and steering.',
      ce_hours: 3,
      course_type: 'Online',
      cost: 39,
    },
    {
      course_name: 'Agency Relationships and Disclosures',
      approval: { number: 'CE-4472', state: 'CA' },
      topic: 'Agency',
      description: 'Dual agency, the agency disclosure form and fiduciary duties to buyers and sellers.',
      ce_hours: 3,
      course_type: 'Webinar',
      cost: 45.5,
    },
    {
      course_name: 'Risk Management for Listing Agents',
      approval: { number: 'CE-4519', state: 'CA' },
      topic: 'Risk Management',
      description: 'Transfer disclosure statements, inspections and avoiding misrepresentation claims.',
      ce_hours: 4.5,
      course_type: 'In-Person',
      cost: 129.99,
    },
    {
      course_name: 'Implicit Bias Training',
      approval: { number: 'CE-4603', state: 'CA' },
      topic: 'Implicit Bias',
      description: 'Recognising and countering implicit bias in real estate transactions (AB 2139).',
      ce_hours: 2,
      course_type: 'Online',
      cost: 25,
    },
  ],
  [
    {
      course_name: 'Texas Legal Update I',
      approval: { number: 'TREC 0012-345', state: 'TX' },
      topic: 'Legal Update I',
      description: 'Recent changes to the Real Estate License Act and TREC rules.',
      ce_hours: 4,
      course_type: 'Online',
      cost: 49.99,
    },
    {
      course_name: 'Contract Forms and Addenda',
      approval: { number: 'TREC 0012-388', state: 'TX' },
      topic: 'Contracts',
      description: 'Promulgated contract forms, addenda and common drafting mistakes.',
      ce_hours: 6,
      course_type: 'In-Person',
      cost: 149,
    },
    {
      course_name: 'Property Management Essentials',
      approval: { number: 'TREC 0013-102', state: 'TX' },
      topic: 'Trust Fund Handling',
      description: 'Leases, trust accounts and landlord-tenant law for licensees managing rentals.',
      ce_hours: 3,
      course_type: 'Webinar',
      cost: 59,
    },
    {
      course_name: 'Flood Zones and Coastal Property (retired)',
      approval: { number: 'TREC 0009-877', state: 'TX' },
      description: 'Superseded by the 2025 edition; kept for the completions recorded against it.',
      ce_hours: 2.5,
      course_type: 'Online',
      cost: 19.5,
      is_active: false,
    },
  ],
];

const ADMIN_COURSE: DemoCourse = {
  course_name: 'Brokerage Office Policies and Compliance',
  topic: 'Management and Supervision',
  description: 'In-house course: escrow handling, file retention and the office compliance checklist.',
  ce_hours: 1.5,
  course_type: 'Webinar',
  cost: 0,
};

const STATUS_CYCLE: CompletionStatus[] = ['Approved', 'Pending', 'Approved', 'Rejected', 'Pending', 'Approved'];
const REJECT_NOTES = ['Certificate does not show the licensee name', 'Course finished after the reporting deadline'];

const dateDaysAgo = (days: number) => localDateString(new Date(Date.now() - days * 86_400_000));

/**
 * Demo data: courses from each School (one inactive) and one Admin course; completions for every agent
 * in every status, against the agent's licenses and dated inside their current cycles. seedCeLedger then
 * shapes the cycles (renewed, complete, adjusted) and computes every license's CE cache from the ledger.
 */
export async function seedCourses(db: Tx, ctx: DemoContext): Promise<void> {
  const ip = '127.0.0.1';
  const created: Array<{ course_id: number; ce_hours: number; school_id: number | null; is_active: boolean }> = [];
  // A school's courses name the school as their provider.
  const schoolName = async (id: number) => {
    const [u] = await db.select({ first: users.first_name, last: users.last_name }).from(users).where(eq(users.user_id, id));
    return u ? `${u.first} ${u.last}` : 'Real Estate School';
  };
  const addCourse = async (c: DemoCourse, schoolId: number | null, daysAgo: number) => {
    const row = (
      await db
        .insert(courses)
        .values({
          course_name: c.course_name,
          description: c.description,
          provider: schoolId === null ? 'In-house training' : await schoolName(schoolId),
          ce_hours: c.ce_hours,
          course_type: c.course_type,
          cost_cents: toCents(c.cost),
          is_active: c.is_active ?? true,
          school_id: schoolId,
          topic: c.topic ?? null,
          approval_number: c.approval?.number ?? null,
          approval_state: c.approval?.state ?? null,
          created_at: ctx.daysAgo(daysAgo),
        })
        .returning()
    )[0]!;
    await audit(db, { userId: schoolId ?? ctx.adminId, ip }, { action: 'create', table: 'courses', id: row.course_id, new: { ...c } });
    created.push({ course_id: row.course_id, ce_hours: row.ce_hours, school_id: schoolId, is_active: row.is_active });
  };

  for (const [i, schoolId] of ctx.schoolIds.entries()) {
    const list = SCHOOL_COURSES[Math.min(i, SCHOOL_COURSES.length - 1)]!;
    for (const [j, c] of list.entries()) await addCourse(c, schoolId, 300 - i * 40 - j * 15);
  }
  await addCourse(ADMIN_COURSE, null, 120);

  let k = 0;
  for (const [a, agentId] of ctx.agentIds.entries()) {
    const agentLicenses = await db
      .select({
        license_id: licenses.license_id,
        cycle_start_date: licenses.cycle_start_date,
        issue_date: licenses.issue_date,
        expiration_date: licenses.expiration_date,
      })
      .from(licenses)
      .where(eq(licenses.user_id, agentId))
      .orderBy(asc(licenses.license_id));
    const perAgent = 2 + (a % 2);
    for (let m = 0; m < perAgent; m++) {
      const course = created[(a * 3 + m * 2) % created.length]!;
      const status = STATUS_CYCLE[k % STATUS_CYCLE.length]!;
      k++;
      const license = agentLicenses.length ? agentLicenses[m % agentLicenses.length]! : null;
      const licenseId = license?.license_id ?? null;
      let daysAgo = 10 + ((a * 37 + m * 53) % 300);
      // Inside the license's current cycle, where the hours count (docs/decisions.md "CE ledger and cycles").
      if (license) {
        const from = license.cycle_start_date === license.issue_date ? license.cycle_start_date : addDays(license.cycle_start_date, 1);
        const latest = license.expiration_date < dateDaysAgo(5) ? license.expiration_date : dateDaysAgo(5);
        const span = Math.max(0, Math.round((Date.parse(latest) - Date.parse(from)) / 86_400_000));
        const back = span === 0 ? 0 : (a * 37 + m * 53) % span;
        daysAgo = Math.round((Date.parse(dateDaysAgo(0)) - Date.parse(addDays(latest, -back))) / 86_400_000);
      }
      const reviewer = course.school_id ?? ctx.adminId;
      const reviewed = status !== 'Pending';
      const row = (
        await db
          .insert(completions)
          .values({
            user_id: agentId,
            course_id: course.course_id,
            license_id: licenseId,
            completion_date: dateDaysAgo(daysAgo),
            hours: course.ce_hours,
            status,
            rating: (k % 5) + 1 === 1 ? null : (k % 5) + 1,
            reviewed_by: reviewed ? reviewer : null,
            reviewed_at: reviewed ? ctx.daysAgo(daysAgo - 3) : null,
            note: status === 'Rejected' ? REJECT_NOTES[k % REJECT_NOTES.length]! : status === 'Approved' ? 'Certificate verified' : null,
            created_at: ctx.daysAgo(daysAgo - 1),
          })
          .returning()
      )[0]!;
      await audit(
        db,
        { userId: agentId, ip },
        { action: 'create', table: 'completions', id: row.completion_id, new: { ...row, status: 'Pending' } },
      );
      if (reviewed) {
        await audit(
          db,
          { userId: reviewer, ip },
          {
            action: status === 'Approved' ? 'update_approve' : 'update_reject',
            table: 'completions',
            id: row.completion_id,
            old: { status: 'Pending' },
            new: { status, note: row.note, license_id: licenseId },
          },
        );
      }
    }
  }
  await seedCeLedger(db, ctx);
}
