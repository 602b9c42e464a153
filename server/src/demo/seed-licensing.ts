import { asc, inArray } from 'drizzle-orm';
import {
  addDays,
  addYears,
  PAYMENT_METHODS,
  RENEWAL_YEARS,
  toCents,
  type LicenseStatus,
  type LicenseType,
  type PaymentStatus,
  type PaymentType,
} from '@lm/shared';
import { licenses, payments, users } from '../db/schema/index.ts';
import type { Tx } from '../db/client.ts';
import { audit } from '../core/audit.ts';
import { today } from '../core/dates.ts';
import { isBroker } from '../core/identity.ts';
import type { DemoContext } from './context.ts';
import { demoRuleFor, seedCeRules } from './seed-ce.ts';

/** Each brokerage of seedPeople works in one state, in this order. */
const STATES = ['CA', 'TX', 'FL', 'NY'] as const;
type State = (typeof STATES)[number];

/** CE hours a renewal needs where no state rule applies (Associate Broker licenses in the demo). */
const CE_REQUIRED: Record<State, number> = { CA: 45, TX: 18, FL: 14, NY: 22.5 };

/** Days from today to the expiration date, one per expiry band: expired, <=30, 31-90, >90. */
const BANDS: Array<{ days: number[]; statuses: LicenseStatus[] }> = [
  { days: [-12, -47, -96, -160], statuses: ['Expired', 'Expired', 'Expired', 'Inactive'] },
  { days: [6, 14, 23, 29], statuses: ['Active', 'Pending Renewal', 'Active', 'Active'] },
  { days: [38, 52, 71, 88], statuses: ['Active', 'Active', 'Suspended', 'Active'] },
  { days: [135, 260, 410, 640], statuses: ['Active', 'Active', 'Active', 'Active'] },
];

function licenseNumber(state: State, type: LicenseType, n: number): string {
  switch (state) {
    case 'CA':
      return `0${2_140_000 + n * 137}`;
    case 'TX':
      return `${type === 'Sales' ? 7 : 5}${String(410_000 + n * 91)}`;
    case 'FL':
      return `${type === 'Sales' ? 'SL' : 'BK'}${3_380_000 + n * 53}`;
    case 'NY':
      return `${type === 'Sales' ? '10401' : '10491'}${String(204_000 + n * 71)}`;
  }
}

const TYPE_AMOUNTS: Record<PaymentType, number[]> = {
  'License Fee': [245, 350, 195.5],
  'Renewal Fee': [300, 245, 180.25],
  'Course Fee': [39, 45.5, 129.99, 89, 59.95],
  Penalty: [50, 100, 25],
  Other: [15, 35.75, 20],
};
const TYPE_DESCRIPTIONS: Record<PaymentType, Array<string | null>> = {
  'License Fee': ['Initial license application fee', 'License fee', null],
  'Renewal Fee': ['Two-year license renewal', 'Renewal fee', null],
  'Course Fee': ['Fair housing CE course', 'Agency and disclosures webinar', 'Contract law refresher', null],
  Penalty: ['Late renewal penalty', 'Late CE reporting penalty'],
  Other: ['Fingerprinting service', 'License certificate reprint', null],
};
/** Mostly license and course fees, as in a real office. */
const TYPE_CYCLE: PaymentType[] = [
  'Course Fee',
  'License Fee',
  'Course Fee',
  'Renewal Fee',
  'Course Fee',
  'License Fee',
  'Penalty',
  'Course Fee',
  'Renewal Fee',
  'Other',
];

function statusFor(i: number): PaymentStatus {
  if (i % 23 === 5) return 'Refunded';
  if (i % 17 === 3) return 'Failed';
  if (i % 9 === 1 || i < 3) return 'Pending';
  return 'Completed';
}

/**
 * Demo licenses and payments. Every Broker holds a Broker license and every Agent a Sales license in
 * its brokerage's state; the four people of each brokerage fall in the four expiry bands, so CA, TX,
 * FL and NY each show Expired, <=30, 31-90 and >90 days. Some agents hold a second license in another
 * state. Then a year of payments of every type, method and status.
 */
export async function seedLicensing(db: Tx, ctx: DemoContext): Promise<void> {
  const now = today();
  const actor = { userId: ctx.adminId, ip: '127.0.0.1' };
  const holders = [...ctx.brokerIds, ...ctx.agentIds];
  const people = holders.length
    ? await db
        .select({ user_id: users.user_id, role_id: users.role_id, brokerage_id: users.brokerage_id })
        .from(users)
        .where(inArray(users.user_id, holders))
        .orderBy(asc(users.user_id))
    : [];
  const licensesByUser = new Map<number, number[]>();
  let n = 0;
  await seedCeRules(db, ctx);

  const addLicense = async (userId: number, state: State, type: LicenseType, band: number, slot: number) => {
    n++;
    const spec = BANDS[band]!;
    const rule = demoRuleFor(state, type);
    const years = rule?.cycle_years ?? RENEWAL_YEARS;
    const required = rule?.hours_required ?? CE_REQUIRED[state];
    // Licenses renewed within the last year show in "Renewed This Period" and have a closed cycle
    // (seedCeLedger): their current cycle started on the previous expiration date.
    const renewedDaysAgo = band === 3 && slot % 2 === 0 ? 30 + slot * 40 : null;
    const renewed = renewedDaysAgo === null ? null : ctx.daysAgo(renewedDaysAgo);
    const cycleStart = renewedDaysAgo === null ? null : addDays(now, -renewedDaysAgo - 20);
    const expiration = cycleStart ? addYears(cycleStart, years) : addDays(now, spec.days[slot % spec.days.length]!);
    const issue = addYears(cycleStart ?? expiration, -years);
    const row = (
      await db
        .insert(licenses)
        .values({
          user_id: userId,
          license_number: licenseNumber(state, type, n),
          state,
          license_type: type,
          issue_date: issue,
          expiration_date: expiration,
          status: spec.statuses[slot % spec.statuses.length]!,
          ce_hours_required: required,
          // The ledger's cache: seedCeLedger computes it once completions and adjustments exist.
          ce_hours_completed: 0,
          cycle_start_date: cycleStart ?? issue,
          renewed_at: renewed,
          created_at: ctx.daysAgo(380 - n * 5),
        })
        .returning()
    )[0]!;
    await audit(db, actor, { action: 'create', table: 'licenses', id: row.license_id, new: row });
    ctx.licenseIds.push(row.license_id);
    licensesByUser.set(userId, [...(licensesByUser.get(userId) ?? []), row.license_id]);
  };

  // One license each: the broker and the agents of brokerage i share its state, one per band.
  for (const [i, brokerageId] of ctx.brokerageIds.entries()) {
    const state = STATES[i % STATES.length]!;
    const members = people.filter((p) => p.brokerage_id === brokerageId).sort((a, b) => a.role_id - b.role_id || a.user_id - b.user_id);
    for (const [k, p] of members.entries()) {
      await addLicense(p.user_id, state, isBroker(p) ? 'Broker' : 'Sales', k % BANDS.length, i);
    }
  }
  // A second license in a neighbouring state for every other agent, in a different band.
  for (const [k, agentId] of ctx.agentIds.entries()) {
    if (k % 2 !== 0) continue;
    const home = people.find((p) => p.user_id === agentId);
    const i = Math.max(0, ctx.brokerageIds.indexOf(home?.brokerage_id ?? -1));
    await addLicense(agentId, STATES[(i + 1) % STATES.length]!, k % 4 === 0 ? 'Associate Broker' : 'Sales', (k + 2) % BANDS.length, k + 1);
  }

  // Some payments were recorded by the payer's own Broker, the rest by the Admin.
  const brokerOf = (userId: number) => {
    const brokerageId = people.find((p) => p.user_id === userId)?.brokerage_id;
    return people.find((p) => isBroker(p) && p.brokerage_id === brokerageId && brokerageId !== null)?.user_id ?? ctx.adminId;
  };

  // A year of payments, about three a week, newest today.
  const payers = holders.length ? holders : [ctx.adminId];
  for (let i = 0; i < 150; i++) {
    const userId = payers[(i * 7) % payers.length]!;
    const type = TYPE_CYCLE[i % TYPE_CYCLE.length]!;
    const amounts = TYPE_AMOUNTS[type];
    const descriptions = TYPE_DESCRIPTIONS[type];
    const date = addDays(now, -Math.floor((i * 365) / 150));
    const own = licensesByUser.get(userId) ?? [];
    const linked = type === 'Course Fee' || type === 'Other' || own.length === 0 ? null : own[i % own.length]!;
    const row = (
      await db
        .insert(payments)
        .values({
          user_id: userId,
          license_id: linked,
          amount_cents: toCents(amounts[i % amounts.length]!),
          payment_type: type,
          payment_method: PAYMENT_METHODS[(i * 3) % PAYMENT_METHODS.length]!,
          status: statusFor(i),
          description: descriptions[i % descriptions.length] ?? null,
          payment_date: date,
          created_by: i % 4 === 0 ? brokerOf(userId) : ctx.adminId,
          created_at: `${date}T${String(9 + (i % 8)).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}:00.000Z`,
        })
        .returning()
    )[0]!;
    await audit(db, { userId: row.created_by, ip: '127.0.0.1' }, { action: 'create', table: 'payments', id: row.payment_id, new: row });
  }
}
