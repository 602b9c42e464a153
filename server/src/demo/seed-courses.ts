import type { DbOrTx } from '../db/client.ts';
import type { DemoContext } from './seed.ts';

/** Demo data: courses from schools and completions in every status (filled in by its issue). */
export function seedCourses(_db: DbOrTx, _ctx: DemoContext): void {}
