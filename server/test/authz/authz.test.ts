/**
 * The authorization suite, generated from the router: every procedure × every role (and signed out) ×
 * object relation (own, same brokerage, other brokerage, none), on /trpc (createCaller) and on /api
 * (app.inject, where the procedure has REST meta), compared with the one table in expectations.ts
 * (which mirrors docs/decisions.md). After every mutation the tables it wrote are put back as seeded (triggers
 * count the writes to each table), so each case meets the same world.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../src/router.ts';
import { createCallerFactory, type ProcedureMeta } from '../../src/core/trpc.ts';
import { createContextInner } from '../../src/http/context.ts';
import {
  installWriteCounters,
  NOT_SNAPSHOTTED,
  restoreWorld as putBack,
  snapshotWorld,
  writeCounts,
  type WorldSnapshot,
} from '../db-tools.ts';
import { backgroundSettled } from '../../src/core/background.ts';
import { createTestEnv, trpcStatus, type TestEnv } from '../helpers.ts';
import { principal, ROLES, seedWorld, type Person, type Role, type World } from './world.ts';
import { EXPECTATIONS, type Expectation, type ObjectKind, type Outcome, type Relation, type Row } from './expectations.ts';

type Who = Role | 'anonymous';
const WHO: Who[] = [...ROLES, 'anonymous'];
const RELATIONS: Relation[] = ['own', 'same', 'other', 'none'];
const MISSING_ID = 999_999;

interface Procedure {
  name: string;
  type: 'query' | 'mutation';
  meta: ProcedureMeta | undefined;
}

/** Every procedure of the router, by its dotted name. */
const procedures: Procedure[] = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: 'query' | 'mutation'; meta?: ProcedureMeta } }>,
).map(([name, p]) => ({ name, type: p._def.type, meta: p._def.meta }));

let env: TestEnv;
let world: World;
let counter = 0;

/** The id of the object of a kind in a relation to the caller, or undefined when there is none. */
function objectFor(kind: ObjectKind, relation: Relation, who: Who): number | undefined {
  if (relation === 'none') return MISSING_ID;
  const me: Person | undefined = who === 'anonymous' ? undefined : principal(world, who);
  const colleague = who === 'Broker' ? world.agent1 : who === 'Agent' ? world.agent1b : undefined;
  const byUser = (map: Map<number, number>) => {
    if (relation === 'own') return me ? map.get(me.user_id) : undefined;
    if (relation === 'same') return colleague ? map.get(colleague.user_id) : undefined;
    return map.get(world.agent2.user_id);
  };
  switch (kind) {
    case 'user':
      if (relation === 'own') return me?.user_id;
      if (relation === 'same') return colleague?.user_id;
      return world.agent2.user_id;
    case 'brokerage':
      if (relation === 'own') return me?.brokerage_id ?? undefined;
      if (relation === 'same') return undefined;
      return world.brokerage2;
    case 'license':
      return byUser(world.licenseOf);
    case 'payment':
      return byUser(world.paymentOf);
    case 'completion':
      // A School's own completions are those of its course (agent1's, on school1's course).
      if (who === 'School')
        return relation === 'own'
          ? world.completionOf.get(world.agent1.user_id)
          : relation === 'other'
            ? byUser(world.completionOf)
            : undefined;
      return byUser(world.completionOf);
    case 'document':
      // A School sees the certificates of completions of its course (agent1's, on school1's course).
      if (who === 'School')
        return relation === 'own'
          ? world.documentOf.get(world.agent1.user_id)
          : relation === 'other'
            ? byUser(world.documentOf)
            : undefined;
      return byUser(world.documentOf);
    case 'course':
      if (relation === 'own') return who === 'School' ? world.course1 : undefined;
      if (relation === 'same') return undefined;
      return world.course2;
    case 'template':
      return relation === 'other' ? world.template : undefined;
    case 'backup':
      return relation === 'other' ? world.backup : undefined;
    case 'ceRule':
      return relation === 'other' ? world.ceRule : undefined;
  }
}

function expected(e: Expectation, who: Who, relation: Relation): Outcome {
  if (who === 'anonymous' && !e.public) return 401;
  const row: Row = e[who === 'anonymous' ? 'Admin' : who];
  if (typeof row === 'object') {
    const o = row[relation];
    if (o === undefined) throw new Error(`no outcome for ${who} × ${relation}`);
    return o;
  }
  return row === 'ok' && e.object && relation === 'none' ? 404 : row;
}

const classify = (status: number): Outcome | `status ${number}` =>
  status >= 200 && status < 300 ? 'ok' : (([400, 401, 403, 404, 409] as const).find((s) => s === status) ?? `status ${status}`);

// ---------- the two transports ----------

/**
 * Each call comes from a client address of its own: sign-in (10 a minute) and forgot-password (10 per 15
 * minutes) are throttled per address in memory or in login_counters, which restoreWorld does not reset,
 * so a shared address would make the outcome depend on how many calls came before.
 */
let calls = 0;
const nextAddress = () => {
  calls++;
  return `10.77.${(calls >> 8) & 255}.${calls & 255}`;
};

const createCaller = createCallerFactory(appRouter);

async function viaTrpc(p: Procedure, who: Who, input: unknown): Promise<number> {
  const token = who === 'anonymous' ? null : principal(world, who).token;
  const caller = createCaller(
    await createContextInner({ db: env.db, config: env.config, services: env.services, ip: nextAddress(), token }),
  );
  const fn = p.name.split('.').reduce<any>((o, k) => o[k], caller) as (i: unknown) => Promise<unknown>;
  return trpcStatus(fn(input));
}

async function viaRest(p: Procedure, who: Who, input: unknown): Promise<number> {
  const openapi = p.meta!.openapi!;
  const rest: Record<string, unknown> = { ...((input as Record<string, unknown>) ?? {}) };
  const url =
    '/api' +
    openapi.path.replace(/\{(\w+)\}/g, (_, k: string) => {
      const v = rest[k];
      delete rest[k];
      return encodeURIComponent(String(v));
    });
  const headers: Record<string, string> = {};
  if (who !== 'anonymous') headers.authorization = `Bearer ${principal(world, who).token}`;
  const bodyMethod = openapi.method !== 'GET' && openapi.method !== 'DELETE';
  const query = bodyMethod ? '' : new URLSearchParams(Object.entries(rest).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const res = await env.app.inject({
    method: openapi.method,
    url: query ? `${url}?${query}` : url,
    headers: bodyMethod ? { ...headers, 'content-type': 'application/json' } : headers,
    remoteAddress: nextAddress(),
    ...(bodyMethod ? { payload: JSON.stringify(rest) } : {}),
  });
  return res.statusCode;
}

// ---------- putting the world back ----------

let snap: WorldSnapshot;
/** The write count of every snapshotted table when the world was last as seeded. */
let seeded: Map<string, number>;
async function takeSnapshot() {
  snap = await snapshotWorld(env.db, path.join(env.dir, 'authz-world.sqlite'));
  await installWriteCounters(env.db, new Set(NOT_SNAPSHOTTED));
  seeded = await writeCounts(env.db);
}

/**
 * Copies back from the snapshot the tables written since the world was last as seeded (audit_logs only grows, so
 * it is left as it is). Most cases are refused and write nothing, so most restores copy nothing. Where the counts
 * cannot be read (a backup restore that reopened the connection took the counters along), every table is copied
 * and the counters are installed again.
 */
async function restoreWorld() {
  const now = await writeCounts(env.db).catch(() => undefined);
  const written = now && [...seeded.keys()].filter((t) => now.get(t) !== seeded.get(t));
  if (written?.length === 0) return;
  await putBack(env.db, snap, written);
  if (!now) await installWriteCounters(env.db, new Set(NOT_SNAPSHOTTED));
  seeded = await writeCounts(env.db);
}

beforeAll(async () => {
  env = await createTestEnv();
  world = await seedWorld(env);
  await takeSnapshot();
}, 60_000);
afterAll(async () => env?.close());

describe('authorization: every procedure × role × object relation, on /trpc and /api', () => {
  it('has a row in expectations.ts for every procedure of the router', () => {
    const missing = procedures.map((p) => p.name).filter((n) => !(n in EXPECTATIONS));
    expect(missing, `Procedures without a row in server/test/authz/expectations.ts: ${missing.join(', ')}`).toEqual([]);
    const stale = Object.keys(EXPECTATIONS).filter((n) => !procedures.some((p) => p.name === n));
    expect(stale, `Rows in expectations.ts for procedures that no longer exist: ${stale.join(', ')}`).toEqual([]);
  });

  it.each(procedures.filter((p) => p.name in EXPECTATIONS).map((p) => [p.name, p] as const))('%s', async (_name, p) => {
    const e = EXPECTATIONS[p.name]!;
    const rest = Boolean(p.meta?.openapi);
    const mismatches: string[] = [];
    let cases = 0;
    for (const who of WHO) {
      for (const relation of e.object ? RELATIONS : (['none'] as const)) {
        const id = e.object ? objectFor(e.object, relation, who) : 0;
        if (id === undefined) continue; // this relation does not exist for this caller
        const want = expected(e, who, relation);
        for (const transport of rest ? (['trpc', 'rest'] as const) : (['trpc'] as const)) {
          const input = await e.input(id, world, ++counter);
          const status = transport === 'trpc' ? await viaTrpc(p, who, input) : await viaRest(p, who, input);
          cases++;
          const got = classify(status);
          if (got !== want) mismatches.push(`${who} × ${relation} on ${transport}: expected ${want}, got ${got}`);
          if (p.type === 'mutation') {
            // E-mails (welcome, password links) are sent after the answer: let them finish before the world is put back.
            await backgroundSettled();
            await restoreWorld();
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(0);
    expect(mismatches, `${p.name}:\n  ${mismatches.join('\n  ')}`).toEqual([]);
  });
});
