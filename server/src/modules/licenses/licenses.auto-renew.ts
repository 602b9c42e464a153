import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { renewalDate } from '@lm/shared';
import { licenses } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../core/audit.ts';

/**
 * settings.auto_renewal_enabled: a license that reaches its expiration date with its CE hours complete
 * is renewed as the Renew button would (two years after the current expiration, status Active).
 * Licenses with CE hours outstanding are left to expire (and get the license_expired notice).
 * Runs in the daily scheduler pass; one transaction, one audit entry per license (actor: the system).
 */
export function autoRenewDueLicenses(db: Db, today: string): number {
  return db.transaction((tx) => {
    const due = tx
      .select()
      .from(licenses)
      .where(
        and(
          inArray(licenses.status, ['Active', 'Pending Renewal']),
          lte(licenses.expiration_date, today),
          gte(licenses.ce_hours_completed, sql`${licenses.ce_hours_required}`),
        ),
      )
      .all();
    const renewedAt = new Date().toISOString();
    for (const old of due) {
      // Renew as many cycles as needed to land in the future (a machine off for years).
      let expiration = renewalDate(old.expiration_date);
      while (expiration <= today) expiration = renewalDate(expiration);
      tx.update(licenses)
        .set({ expiration_date: expiration, status: 'Active', renewed_at: renewedAt })
        .where(eq(licenses.license_id, old.license_id))
        .run();
      audit(
        tx,
        { userId: null, ip: null },
        {
          action: 'update',
          table: 'licenses',
          id: old.license_id,
          old: { expiration_date: old.expiration_date, status: old.status },
          new: { expiration_date: expiration, status: 'Active', renewed_at: renewedAt, reason: 'auto_renewal' },
        },
      );
    }
    return due.length;
  });
}
