/**
 * Which database this process runs on (docs/architecture.md "Data layer"): PostgreSQL when DATABASE_URL is
 * a postgres:// URL, otherwise SQLite at DATABASE_PATH. One process runs on one engine; the table objects
 * services import (./schema/index.ts) are that engine's, chosen when the process starts.
 */
export type Engine = 'sqlite' | 'postgres';

export function isPostgresUrl(url: string | undefined): boolean {
  return /^postgres(ql)?:\/\//i.test(url ?? '');
}

export const ENGINE: Engine = isPostgresUrl(process.env.DATABASE_URL) ? 'postgres' : 'sqlite';

/** Picks the implementation for this process's engine (per-dialect query modules: *.sqlite.ts, *.pg.ts). */
export function byEngine<T>(impls: { sqlite: T; postgres: T }): T {
  return impls[ENGINE];
}
