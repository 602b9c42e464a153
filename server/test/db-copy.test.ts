/**
 * Moving an office from SQLite to PostgreSQL (README "Moving an office from SQLite to PostgreSQL"):
 * an office running on SQLite (a real server in a child process, data made through its API) is brought
 * into PostgreSQL (a) by uploading and restoring one of its backups, (b) with `npm run db:copy`. Both must
 * arrive with the same rows per table and exactly the same values. On the SQLite pass, db:copy must refuse
 * a target that is not PostgreSQL with a clear message.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle as sqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../src/db/engine.ts';
import { openPostgres, type PgDb } from '../src/db/pg/driver.ts';
import { pagesOf, PG_TABLES, SQLITE_TABLES, ALL_TABLES } from '../src/db/portable-tables.ts';
import { countRows, snapshotTo } from '../src/db/portable.ts';
import { createTestEnv, seedUser, tokenFor, type TestEnv, multipartBody } from './helpers.ts';
import { createTestDatabase } from './pg.ts';
import { freePort, REPO_ROOT, serverEnv, sleep } from './child-server.ts';

const CLI = path.join(REPO_ROOT, 'server/src/db/copy-cli.ts');

function runCopy(from: string, to: string) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', CLI, '--from', from, '--to', to], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '' },
    timeout: 120_000,
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe('db:copy on any engine', () => {
  it('refuses a target that is not a PostgreSQL URL, with a clear message, and writes nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-copy-'));
    try {
      const target = path.join(dir, 'target.sqlite');
      const res = runCopy(path.join(dir, 'office.sqlite'), target);
      expect(res.status).toBe(2);
      expect(res.stderr).toContain('--to must be a PostgreSQL URL');
      expect(fs.existsSync(target)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Every row of every table, as the app sees it, keyed by table (through the given schema's column objects). */
async function allRows(d: unknown, tables: Map<string, object>): Promise<Record<string, Array<Record<string, unknown>>>> {
  const out: Record<string, Array<Record<string, unknown>>> = {};
  for (const name of ALL_TABLES) {
    out[name] = [];
    for await (const page of pagesOf(d, tables.get(name)!, 1000)) out[name].push(...page);
  }
  return out;
}

if (ENGINE === 'postgres') {
  describe('an office moves from SQLite to PostgreSQL', () => {
    const admin = { email: 'office-admin@copy.example', password: 'Office!Passw0rd' };
    let dir: string;
    let child: ChildProcess | undefined;
    let office: string;
    let backupZip: Buffer;
    let officeRows: Record<string, Array<Record<string, unknown>>>;
    let pdf: Buffer;

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-office-'));
      const port = await freePort();
      const env = { ...serverEnv(dir, port, admin), DATABASE_URL: '', TEST_DATABASE_URL: '' };
      child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], { cwd: REPO_ROOT, env, stdio: 'ignore' });
      const base = `http://127.0.0.1:${port}/api`;
      for (let i = 0; ; i++) {
        try {
          if ((await fetch(`${base}/health`)).ok) break;
        } catch {
          // not listening yet
        }
        if (i > 300) throw new Error('the SQLite office did not start');
        await sleep(100);
      }
      const call = async (method: string, url: string, token: string | null, body?: unknown) => {
        const res = await fetch(`${base}${url}`, {
          method,
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
        return res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
      };
      const token = (await call('POST', '/auth/login', null, admin)).token as string;
      const brokerage = await call('POST', '/brokerages', token, { name: 'Harbor Realty', phone: '555-010-2000' });
      const agent = await call('POST', '/users', token, {
        email: 'agent@copy.example',
        password: 'Agent!Passw0rd1',
        first_name: 'Ada',
        last_name: 'Agent',
        role: 'Agent',
        brokerage_id: brokerage.brokerage_id,
      });
      const license = await call('POST', '/licenses', token, {
        user_id: agent.user_id,
        license_number: 'CA-0001',
        state: 'CA',
        issue_date: '2024-01-15',
        // Far ahead, so the daily pass does not mark it Expired between the backup and the copy of the file.
        expiration_date: '2030-01-15',
        ce_hours_required: 45,
      });
      const course = await call('POST', '/courses', token, {
        course_name: 'Ethics',
        description: 'Ethics in real estate',
        provider: 'State School',
        ce_hours: 3,
      });
      const completion = await call('POST', '/completions', token, {
        course_id: course.course_id,
        user_id: agent.user_id,
        license_id: license.license_id,
        completion_date: '2024-06-01',
      });
      await call('POST', `/completions/${completion.completion_id}/review`, token, { status: 'Approved' });
      await call('POST', '/payments', token, {
        user_id: agent.user_id,
        license_id: license.license_id,
        amount: 125.5,
        payment_date: '2024-06-02',
      });
      await call('POST', '/ce-rules', token, {
        state: 'CA',
        license_type: 'Sales',
        hours_required: 45,
        cycle_years: 4,
        topics: [{ topic: 'Contracts', hours: 3 }],
      });
      await call('PUT', '/admin/settings', token, { settings: { app_name: 'Harbor Office', license_expiry_warning_days: 45 } });
      // A document: its file lives in the office's documents folder, not in the database file.
      const doc = await PDFDocument.create();
      doc
        .addPage([300, 200])
        .drawText('Harbor certificate', { x: 20, y: 100, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
      pdf = Buffer.from(await doc.save());
      const form = new FormData();
      form.set('category', 'other');
      form.set('owner_id', String(agent.user_id));
      form.set('file', new Blob([pdf], { type: 'application/pdf' }), 'license.pdf');
      const uploaded = await fetch(`${base}/documents`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      expect(uploaded.status, await uploaded.clone().text()).toBeLessThan(300);
      const backup = await call('POST', '/admin/backups', token, { description: 'moving to PostgreSQL', include_files: false });
      const res = await fetch(`${base}/admin/backups/${backup.id}/download`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      backupZip = Buffer.from(await res.arrayBuffer());
      // A consistent copy of the office's file while it keeps running (as an office would take one).
      office = path.join(dir, 'office-copy.sqlite');
      const live = new Database(path.join(dir, 'license-manager.db'), { readonly: true, fileMustExist: true });
      await live.backup(office);
      live.close();
      const snap = new Database(office, { readonly: true });
      officeRows = await allRows(sqliteDrizzle(snap), SQLITE_TABLES);
      snap.close();
    }, 120_000);

    afterAll(async () => {
      child?.kill('SIGTERM');
      await sleep(200);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('the SQLite office holds data in every group', () => {
      for (const t of ['users', 'brokerages', 'licenses', 'courses', 'completions', 'payments', 'settings', 'audit_logs']) {
        expect(officeRows[t]!.length, t).toBeGreaterThan(0);
      }
    });

    it('(b) npm run db:copy copies every table with equal counts and exactly the same values, and moves the sequences', async () => {
      const target = await createTestDatabase(process.env.TEST_DATABASE_URL!);
      try {
        const res = runCopy(office, target.url);
        expect(res.status, res.stderr).toBe(0);
        expect(res.stdout).toContain('Every table was copied with the same number of rows.');
        const snap = new Database(office, { readonly: true });
        const expected = countRows(snap);
        snap.close();
        for (const t of ALL_TABLES) expect(res.stdout).toMatch(new RegExp(`^${t}\\s+${expected[t]}\\s+${expected[t]}$`, 'm'));

        expect(res.stdout).toContain(`files: 1 copied (${pdf.length} bytes)`);
        const db = await openPostgres(target.url, { migrate: false, poolSize: 2 });
        try {
          // The document's file came too (PostgreSQL keeps files in stored_file_chunks): the same bytes under the
          // version's key. Every other table holds exactly the office's rows.
          const { stored_file_chunks: chunks, ...copied } = await allRows(db, PG_TABLES);
          expect(copied).toEqual({ ...officeRows, stored_file_chunks: undefined });
          expect(chunks).toHaveLength(1);
          const [version] = officeRows.document_versions!;
          expect(Buffer.compare(await db.files.readAll(version!.storage_key as string), pdf)).toBe(0);
          // The next id follows the copied ones.
          const { rows } = await db.pool.query<{ id: number }>(
            "INSERT INTO brokerages (name, created_at, updated_at) VALUES ('Next', now(), now()) RETURNING brokerage_id AS id",
          );
          expect(rows[0]!.id).toBe(Math.max(...officeRows.brokerages!.map((b) => b.brokerage_id as number)) + 1);
          // And a snapshot of the copy (a PostgreSQL backup) holds the very same rows again.
          const back = path.join(dir, `back-${crypto.randomBytes(4).toString('hex')}.sqlite`);
          await db.pool.query("DELETE FROM brokerages WHERE name = 'Next'");
          const facts = await snapshotTo(db, back);
          expect(facts.rowCounts).toEqual(expected);
          const again = new Database(back, { readonly: true });
          const { stored_file_chunks: _chunks, ...snapshotRows } = await allRows(sqliteDrizzle(again), SQLITE_TABLES);
          expect(snapshotRows).toEqual({ ...officeRows, stored_file_chunks: undefined });
          again.close();
        } finally {
          await db.close();
        }

        // A second run finds the target filled and refuses.
        const twice = runCopy(office, target.url);
        expect(twice.status).toBe(2);
        expect(twice.stderr).toContain('The target database is not empty');
      } finally {
        await target.drop();
      }
    });

    it('(a) its backup uploaded and restored into a PostgreSQL deployment gives equal row counts and the same values', async () => {
      const env: TestEnv = await createTestEnv();
      try {
        const me = await seedUser(env, 'Admin');
        const token = await tokenFor(env, me.user_id);
        const groups = ['users', 'brokerages', 'licenses', 'courses', 'payments', 'settings'];
        const { payload, headers } = multipartBody(
          Object.fromEntries(['restore', ...groups.map((g) => `include_${g}`)].map((k) => [k, 'true'])),
          { name: 'office.zip', data: backupZip, type: 'application/zip' },
        );
        const res = await env.app.inject({
          method: 'POST',
          url: '/api/admin/backups/upload',
          headers: { ...headers, authorization: `Bearer ${token}` },
          payload,
        });
        expect(res.statusCode, res.body).toBe(200);
        const result = JSON.parse(res.body).restore;
        const restored = [
          'users',
          'brokerages',
          'licenses',
          'ce_adjustments',
          'license_cycles',
          'ce_rules',
          'courses',
          'completions',
          'payments',
          'settings',
        ];
        const db = env.db as unknown as PgDb;
        const live = await allRows(db, PG_TABLES);
        for (const t of restored) {
          expect(result.row_counts[t], t).toBe(officeRows[t]!.length);
          expect(live[t]!.length, t).toBe(officeRows[t]!.length);
        }
        // A few values exactly: people, licenses with their dates and CE figures, the course flag, money.
        for (const t of ['users', 'brokerages', 'licenses', 'courses', 'payments', 'ce_rules']) expect(live[t], t).toEqual(officeRows[t]);
      } finally {
        await env.close();
      }
    });
  });
}
