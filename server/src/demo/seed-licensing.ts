import type { DbOrTx } from '../db/client.ts';
import type { DemoContext } from './seed.ts';

/** Demo data: licenses in several states across every expiry band, and a year of payments (filled in by its issue). */
export function seedLicensing(_db: DbOrTx, _ctx: DemoContext): void {}
