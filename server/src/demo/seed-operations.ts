import type { DbOrTx } from '../db/client.ts';
import type { DemoContext } from './seed.ts';

/** Demo data: notification templates and delivery history (filled in by its issue). */
export function seedOperations(_db: DbOrTx, _ctx: DemoContext): void {}
