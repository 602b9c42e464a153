/**
 * The PostgreSQL pass of the server suite (TEST_DATABASE_URL=postgres://… npm test): every test
 * environment gets a database of its own, created through the base URL's role (a non-superuser with
 * CREATEDB) and dropped when the environment closes.
 */
import pg from 'pg';

let seq = 0;

/** An empty database of its own; with `template`, a copy of that (migrated) database (server/test/global-setup.ts). */
export async function createTestDatabase(baseUrl: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `lm_t_${process.pid}_${Date.now().toString(36)}_${++seq}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        // FORCE cannot end an autovacuum worker for a non-superuser (42501): it finishes within moments, so try again.
        for (let attempt = 1; ; attempt++) {
          try {
            await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
            return;
          } catch (err) {
            if ((err as { code?: string }).code !== '42501' || attempt >= 20) throw err;
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        }
      } finally {
        await c.end();
      }
    },
  };
}
