/**
 * A big backup restored through the server, for the figures of docs/performance.md "Restoring a big backup"
 * (SQLite; run by hand, one step at a time, on a quiet machine):
 *
 *   npx tsx bench/restore-big.ts make <dir>          seeds the bench's data (bench/data.ts) into a fresh database
 *                                                     under <dir>/make and writes <dir>/backup.zip with the app's
 *                                                     own backup (POST /api/admin/backups, without stored files)
 *   npx tsx bench/restore-big.ts serve <dir> <port>   a fresh office under <dir>/serve-<time> listening on <port>;
 *                                                     writes an Admin's token to <dir>/token and, every second,
 *                                                     the process's peak resident memory (VmHWM) to <dir>/peak
 *
 * then upload and restore with any HTTP client that streams the file, e.g.
 *   curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -H "authorization: Bearer $(cat <dir>/token)" \
 *     -F file=@<dir>/backup.zip -F restore=true -F include_users=true … http://127.0.0.1:<port>/api/admin/backups/upload
 * or from the file on the server: `npm run db:restore -- <dir>/backup.zip --as <admin e-mail> --all`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/client.ts';
import { buildApp } from '../server/src/app.ts';
import { createAppServices } from '../server/src/core/context.ts';
import { createSession } from '../server/src/core/sessions.ts';
import { hashPassword } from '../server/src/core/passwords.ts';
import { users } from '../server/src/db/schema/index.ts';
import { ROLE } from '@lm/shared';
import { seedSqlite } from './seed.sqlite.ts';

const [mode, dir, portText] = process.argv.slice(2);
if (!dir || (mode !== 'make' && mode !== 'serve')) {
  console.error('Usage: npx tsx bench/restore-big.ts make <dir> | serve <dir> <port>');
  process.exit(2);
}
fs.mkdirSync(dir, { recursive: true });

/** A fresh office: its own DATA_DIR and SQLite file, migrated, with one Admin signed in. */
async function office(dataDir: string, port = 0) {
  const config = loadConfig({ DATA_DIR: dataDir, SCHEDULER: 'off', PORT: String(port), CLIENT_DIST: path.join(dataDir, 'no-client') });
  const db = await openDatabase(config);
  const { app } = await buildApp({ config, db, services: createAppServices(), logger: false });
  await app.ready();
  const email = `restore-admin-${Date.now()}@bench.test`;
  const password_hash = await hashPassword('Bench!Passw0rd');
  const [admin] = await db.transaction((tx) =>
    tx.insert(users).values({ email, password_hash, first_name: 'Restore', last_name: 'Admin', role_id: ROLE.Admin }).returning(),
  );
  const token = (await db.transaction((tx) => createSession(tx, admin!.user_id, { ip: '127.0.0.1', userAgent: 'bench' }))).token;
  return { config, db, app, token, email };
}

const peakKb = () => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);

if (mode === 'make') {
  const o = await office(path.join(dir, 'make'));
  let started = Date.now();
  await seedSqlite(o.db);
  console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  started = Date.now();
  const res = await o.app.inject({
    method: 'POST',
    url: '/api/admin/backups',
    headers: { authorization: `Bearer ${o.token}` },
    payload: { description: 'restore-big', include_files: false },
  });
  const backup = JSON.parse(res.body) as { id: number; size: number };
  if (res.statusCode !== 200) throw new Error(res.body);
  fs.copyFileSync(path.join(o.config.dataDir, 'backups', `backup_${backup.id}.zip`), path.join(dir, 'backup.zip'));
  console.log(`backup ${backup.id}: ${(backup.size / 1024 / 1024).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await o.app.close();
  await o.db.close();
} else {
  const o = await office(path.join(dir, `serve-${Date.now()}`), Number(portText ?? 3999));
  fs.writeFileSync(path.join(dir, 'token'), o.token);
  fs.writeFileSync(path.join(dir, 'email'), o.email);
  fs.writeFileSync(path.join(dir, 'datadir'), o.config.dataDir);
  setInterval(() => fs.writeFileSync(path.join(dir, 'peak'), `${Math.round(peakKb() / 1024)} MB\n`), 1000).unref();
  await o.app.listen({ port: o.config.port, host: '127.0.0.1' });
  console.log(`listening on ${o.config.port}; peak so far ${Math.round(peakKb() / 1024)} MB`);
  const stop = async () => {
    console.log(`peak resident memory ${Math.round(peakKb() / 1024)} MB`);
    await o.app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}
