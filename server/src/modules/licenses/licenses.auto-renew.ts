import { and, eq, inArray, lte } from 'drizzle-orm';
import { licenses } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { audit, type Actor } from '../../core/audit.ts';
import { applyRenewal, planRenewal } from './licenses.service.ts';

const SYSTEM: Actor = { userId: null, ip: null };

export interface AutoRenewResult {
  /** Licenses renewed by one cycle. */
  renewed: number;
  /** Licenses past their expiration date with CE outstanding, set to Expired. */
  expired: number;
}

/**
 * settings.auto_renewal_enabled (docs/decisions.md "CE ledger and cycles"): a license (Active or Pending
 * Renewal) that has reached its expiration date with its closing cycle complete (hours and every rule
 * topic) is renewed as the Renew button would: the cycle is closed into its history and the next opened,
 * one cycle after the current expiration. At most one cycle per license per run. A license past its
 * expiration date with CE outstanding is left to expire: status Expired (it then gets the license_expired
 * notice). Licenses expiring today with CE outstanding keep today. One transaction; audited as the system.
 */
export async function autoRenewDueLicenses(db: Db, today: string): Promise<AutoRenewResult> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(licenses)
      .where(and(inArray(licenses.status, ['Active', 'Pending Renewal']), lte(licenses.expiration_date, today)))
      .orderBy(licenses.license_id);
    const result: AutoRenewResult = { renewed: 0, expired: 0 };
    for (const old of due) {
      const plan = await planRenewal(tx, old);
      if (plan.figures.complete && old.cycle_start_date < old.expiration_date) {
        await applyRenewal(tx, SYSTEM, plan, { status: 'Active', outstanding: false, reason: 'auto_renewal' });
        result.renewed++;
      } else if (old.expiration_date < today) {
        await tx.update(licenses).set({ status: 'Expired' }).where(eq(licenses.license_id, old.license_id));
        await audit(tx, SYSTEM, {
          action: 'update',
          table: 'licenses',
          id: old.license_id,
          old: { status: old.status },
          new: {
            status: 'Expired',
            reason: 'auto_expire_ce_outstanding',
            ce_hours_completed: plan.figures.completed,
            ce_hours_required: plan.figures.required,
          },
        });
        result.expired++;
      }
    }
    return result;
  });
}
