import { eq } from 'drizzle-orm';
import { licenses } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * Adds (or, with a negative delta, takes back) approved CE hours on a license, never below 0. Call it
 * inside the transaction of the change that causes it (a completion review), so both commit together.
 * Returns the hours before and after, or null when the license no longer exists.
 */
export function adjustCeHours(tx: DbOrTx, licenseId: number, deltaHours: number): { before: number; after: number } | null {
  const row = tx.select({ ce_hours_completed: licenses.ce_hours_completed }).from(licenses).where(eq(licenses.license_id, licenseId)).get();
  if (!row) return null;
  // Rounded to 2 decimals so repeated half-hour credits never drift (0.1 + 0.2 style).
  const after = Math.max(0, Math.round((row.ce_hours_completed + deltaHours) * 100) / 100);
  tx.update(licenses).set({ ce_hours_completed: after }).where(eq(licenses.license_id, licenseId)).run();
  return { before: row.ce_hours_completed, after };
}
