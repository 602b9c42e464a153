import { and, eq, inArray, lt, lte } from 'drizzle-orm';
import { licenses } from '../../db/schema/index.ts';
import type { Db, Tx } from '../../db/client.ts';
import { audit, SYSTEM_ACTOR, type Actor } from '../../core/audit.ts';
import { applyRenewal, licenseWithHolder, planRenewal } from './licenses.service.ts';
import { emitEvent } from '../webhooks/events.ts';
import { cycleFigures } from './ce-ledger.ts';

const SYSTEM: Actor = SYSTEM_ACTOR;

export interface AutoRenewResult {
  /** Licenses renewed by one cycle. */
  renewed: number;
  /** Active licenses past their expiration date, written as Expired. */
  expired: number;
}

/**
 * Expired is a fact (docs/decisions.md "Compliance"): every answer already reads an Active license past its
 * expiration date as Expired; the daily pass also writes the status, once per license, audited as the system, so
 * the stored rows (backups, copies, integrators' exports of the table) say it too. Suspended, Inactive and
 * Pending Renewal licenses keep what an Admin set. Runs whatever settings.auto_renewal_enabled says.
 */
export async function expireLapsedLicenses(tx: Tx, today: string): Promise<number> {
  const lapsed = await tx
    .select()
    .from(licenses)
    .where(and(eq(licenses.status, 'Active'), lt(licenses.expiration_date, today)))
    .orderBy(licenses.license_id);
  for (const old of lapsed) {
    const figures = (await cycleFigures(tx, old.license_id))!;
    await tx.update(licenses).set({ status: 'Expired' }).where(eq(licenses.license_id, old.license_id));
    await audit(tx, SYSTEM, {
      action: 'update',
      table: 'licenses',
      id: old.license_id,
      old: { status: old.status },
      new: {
        status: 'Expired',
        reason: figures.complete ? 'expired' : 'expired_ce_outstanding',
        expiration_date: old.expiration_date,
        ce_hours_completed: figures.completed,
        ce_hours_required: figures.required,
      },
    });
    await emitEvent(tx, 'license.expired', () => licenseWithHolder(tx, old.license_id));
  }
  return lapsed.length;
}

/**
 * The daily pass over licenses, in one transaction. With settings.auto_renewal_enabled (`renew`), a license
 * (Active or Pending Renewal) that has reached its expiration date with its closing cycle complete (hours and
 * every rule topic) is first renewed as the Renew button would: the cycle is closed into its history and the next
 * opened, one cycle after the current expiration, at most one cycle per license per run. Then every Active license
 * still past its date is written Expired (expireLapsedLicenses), and gets the license_expired notice.
 */
export async function autoRenewDueLicenses(db: Db, today: string, renew = true): Promise<AutoRenewResult> {
  return db.transaction(async (tx) => {
    let renewed = 0;
    if (renew) {
      const due = await tx
        .select()
        .from(licenses)
        .where(and(inArray(licenses.status, ['Active', 'Pending Renewal']), lte(licenses.expiration_date, today)))
        .orderBy(licenses.license_id);
      for (const old of due) {
        const plan = await planRenewal(tx, old);
        if (plan.figures.complete && old.cycle_start_date < old.expiration_date) {
          await applyRenewal(tx, SYSTEM, plan, { status: 'Active', outstanding: false, reason: 'auto_renewal' });
          renewed++;
        }
      }
    }
    return { renewed, expired: await expireLapsedLicenses(tx, today) };
  });
}
