import Database from 'better-sqlite3';
import fs from 'node:fs';
import { loadConfig } from './src/config.ts';
import { openDatabase } from './src/db/client.ts';
import { buildApp } from './src/app.ts';
import { createSession } from './src/modules/auth/sessions.ts';
import { users } from './src/db/schema/index.ts';
import { hashPassword } from './src/core/passwords.ts';

const dir = fs.mkdtempSync('/tmp/probe/x');
const config = loadConfig({ DATA_DIR: dir, SCHEDULER: 'off', CLIENT_DIST: dir + '/none' });
const db = await openDatabase(config);
const { app } = await buildApp({ config, db, logger: false });
await app.ready();
const hash = await hashPassword('Passw0rd!Test');
const [admin] = await db.transaction((tx) => tx.insert(users).values({ email: 'a@x.io', password_hash: hash, first_name: 'A', last_name: 'B', role_id: 1 }).returning());
const [agent] = await db.transaction((tx) => tx.insert(users).values({ email: 'b@x.io', password_hash: hash, first_name: 'C', last_name: 'D', role_id: 3 }).returning());
const { token } = await db.transaction((tx) => createSession(tx, admin!.user_id, { ip: '127.0.0.1', userAgent: 'x' }));
const log: string[] = [];
const origExec = Database.prototype.exec;
Database.prototype.exec = function (s: string) { log.push('EXEC ' + s); return origExec.call(this, s); };
const origPrepare = Database.prototype.prepare;
let n = 0;
for (let i = 0; i < 3; i++) {
  log.length = 0;
  const res = await app.inject({ method: 'POST', url: '/api/licenses', headers: { authorization: `Bearer ${token}` }, payload: { user_id: agent!.user_id, license_number: `P-${++n}`, state: 'CA', issue_date: '2026-01-01', expiration_date: '2099-01-01' } });
  if (i === 2) console.log(res.statusCode, log.join('\n'));
}
const res = await app.inject({ method: 'PUT', url: '/api/licenses/1', headers: { authorization: `Bearer ${token}` }, payload: { status: 'Suspended' } });
console.log(res.statusCode);
void origPrepare;
await app.close();
await db.close();
