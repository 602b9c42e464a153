/**
 * The access policy is the one place that says who may do what (shared/src/policy.ts, docs/security.md
 * "Access policy"):
 *   - every tRPC procedure and every plain file route names an action of it, and answers as it says (the file
 *     routes are called as each role here; the procedures are called by the authorization suite, authz/);
 *   - the authorization suite's table agrees with it: a role the policy leaves out is refused (403) everywhere;
 *   - no other source file lists roles for an access decision: no role-listing builder, no roles: [...], no
 *     literal list of role names, no role looked up in a list; role predicates (isAdmin(), ROLE.Agent,
 *     role === 'School') only in the files listed below, each for a reason that is not an access decision, and
 *     never beside a 403.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { can, isOpenToEveryRole, isPolicyAction, isPublicAction, POLICY_ACTIONS, ROLE_NAMES, rolesFor, type RoleName } from '@lm/shared';
import { appRouter } from '../src/router.ts';
import type { ProcedureMeta } from '../src/core/trpc.ts';
import { fileRoutes } from '../src/routes.ts';
import { EXPECTATIONS, type Row } from './authz/expectations.ts';
import { api, useTestEnv, type RoleKey } from './helpers.ts';

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta } }>).map(
  ([name, p]) => ({ name, meta: p._def.meta }),
);

describe('every tRPC procedure has a policy action', () => {
  it('names one (meta.policy, set by policyProcedure / authedProcedure)', () => {
    const without = procedures.filter((p) => !isPolicyAction(p.meta?.policy)).map((p) => p.name);
    expect(without).toEqual([]);
    expect(procedures.length).toBeGreaterThan(90);
  });

  it('publishes its action’s roles in meta.access (the OpenAPI document’s 401/403/503)', () => {
    const wrong: string[] = [];
    for (const { name, meta } of procedures) {
      const action = meta!.policy!;
      const access = meta!.access;
      if (isPublicAction(action)) {
        if (access) wrong.push(`${name}: public action ${action} with meta.access`);
      } else if (!access?.authed) {
        wrong.push(`${name}: ${action} is not public but the procedure does not require a sign-in`);
      } else if (access.roles) {
        if (JSON.stringify(access.roles) !== JSON.stringify(rolesFor(action)))
          wrong.push(`${name}: roles ${access.roles} ≠ ${rolesFor(action)}`);
      } else if (!isOpenToEveryRole(action)) {
        wrong.push(`${name}: no role check, but ${action} is for ${rolesFor(action)} only`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('agrees with the authorization suite: a role outside the action’s roles is refused (403) for every object', () => {
    const uniform403 = (row: Row) => row === 403 || (typeof row === 'object' && Object.values(row).every((o) => o === 403));
    const disagree: string[] = [];
    for (const { name, meta } of procedures) {
      const expectation = EXPECTATIONS[name];
      if (!expectation || expectation.public) continue; // authz.test.ts fails a procedure without a row
      for (const role of ROLE_NAMES) {
        const allowed = rolesFor(meta!.policy!).includes(role);
        if (!allowed && !uniform403(expectation[role]))
          disagree.push(`${name} as ${role}: the policy refuses, the table expects ${JSON.stringify(expectation[role])}`);
        if (allowed && expectation[role] === 403) disagree.push(`${name} as ${role}: the policy allows, the table expects 403`);
      }
    }
    expect(disagree).toEqual([]);
  });
});

/** Every operation of the plain file routes, with the action its route declares. */
const operations = fileRoutes.flatMap((routes) =>
  Object.entries(routes.paths).flatMap(([p, ops]) =>
    Object.keys(ops as object).map((method) => {
      const key = `${method.toUpperCase()} ${p}`;
      return { key, method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE', path: p, action: routes.access[key] };
    }),
  ),
);

describe('every file route has a policy action', () => {
  it('declares one for each of its operations (FileRoutes.access), and nothing else', () => {
    expect(operations.filter((o) => !isPolicyAction(o.action)).map((o) => o.key)).toEqual([]);
    const declared = fileRoutes.flatMap((r) => Object.keys(r.access));
    const listed = new Set(operations.map((o) => o.key));
    expect(declared.filter((k) => !listed.has(k))).toEqual([]);
    expect(operations.length).toBeGreaterThan(20);
  });

  const t = useTestEnv();
  const ROLE_KEY: Record<RoleName, RoleKey> = { Admin: 'admin', Broker: 'broker', Agent: 'agent', School: 'school' };
  /** A URL of the operation: ids that do not exist (so an allowed caller gets 404 or 400, never a change). */
  const urlOf = (p: string) =>
    `/api${p.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'token' ? 'A'.repeat(43) : name === 'version' ? '1' : '999999'))}`;

  it.each(operations.map((o) => [o.key, o] as const))('%s answers as its action says, for every role and signed out', async (_key, o) => {
    const action = o.action!; // the test above fails an operation without one
    const got: Record<string, number> = {};
    const want: Record<string, string> = {};
    for (const who of [...ROLE_NAMES, null]) {
      const token = who ? t.roles[ROLE_KEY[who]].token : null;
      const res = await api(t.env, o.method, urlOf(o.path), { token });
      const label = who ?? 'signed out';
      got[label] = res.status === 401 || res.status === 403 ? res.status : 0;
      // 0: let through (its own answer: 200, 400, 404, 415...).
      want[label] = String(isPublicAction(action) ? 0 : who === null ? 401 : rolesFor(action).includes(who) ? 0 : 403);
    }
    expect(Object.fromEntries(Object.entries(got).map(([k, v]) => [k, String(v)]))).toEqual(want);
  });
});

describe('the policy', () => {
  it('has no unused action: each is named by a procedure, a file route, a service or the client', () => {
    const used = new Set<string>(
      [...procedures.map((p) => p.meta?.policy), ...operations.map((o) => o.action)].filter(Boolean) as string[],
    );
    const text = sources
      .filter((f) => f.rel !== POLICY_FILE)
      .map((f) => f.text)
      .join('\n');
    const unused = POLICY_ACTIONS.filter((a) => !used.has(a) && !text.includes(`'${a}'`) && !text.includes(`"${a}"`));
    expect(unused).toEqual([]);
  });

  it('answers by role and object rule', () => {
    const broker = { user_id: 10, role_id: 2, brokerage_id: 1 };
    const admin = { user_id: 1, role_id: 1, brokerage_id: null };
    expect(can(broker, 'users.update', { role_id: 3, brokerage_id: 1 })).toBe(true);
    expect(can(broker, 'users.update', { role_id: 3, brokerage_id: 2 })).toBe(false);
    expect(can(broker, 'users.update', { role_id: 1, brokerage_id: 1 })).toBe(false);
    expect(can(admin, 'users.update', { role_id: 1, brokerage_id: 7 })).toBe(true);
    expect(can(null, 'auth.login')).toBe(true);
    expect(can(null, 'auth.me')).toBe(false);
  });
});

// --- The source scan ---------------------------------------------------------------------------------------------

const ROOT = path.resolve(import.meta.dirname, '../..');
const POLICY_FILE = 'shared/src/policy.ts';

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

/** The product's sources: server, client and shared, without tests, test helpers and the demo's seed data. */
const sources = ['server/src', 'client/src', 'shared/src']
  .flatMap((d) => walk(path.join(ROOT, d)))
  .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
  .filter((rel) => !/\.test\.tsx?$/.test(rel) && !rel.startsWith('client/src/test/') && !rel.startsWith('server/src/demo/'))
  .map((rel) => ({ rel, text: fs.readFileSync(path.join(ROOT, rel), 'utf8') }));

const R = '(?:Admin|Broker|Agent|School)';

/** Ways of writing down which roles may do something: only the policy (and the role list itself) may. */
const ROLE_LISTS: Array<{ what: string; re: RegExp }> = [
  { what: 'a procedure builder that lists roles', re: /\b(?:roleProcedure|adminProcedure)\b/g },
  { what: 'hasRole(...)', re: /\bhasRole\s*\(/g },
  { what: 'a roles: [...] option or roles={[...]} prop', re: new RegExp(`\\broles\\s*[:=]\\s*\\{?\\s*\\[\\s*(?:['"]|ROLE\\.)`, 'g') },
  { what: 'a literal list of role names', re: new RegExp(`\\[\\s*(?:'${R}'|"${R}")(?:\\s*,\\s*(?:'${R}'|"${R}"))*\\s*,?\\s*\\]`, 'g') },
  { what: 'a role looked up in a list', re: /\.includes\(\s*(?:role|roleName)\b/g },
  { what: 'authenticate() given a list', re: /\bauthenticate\([^)]*\[/g },
];
const ROLE_LIST_FILES = new Set([POLICY_FILE, 'shared/src/roles.ts']);

/** A role predicate: a decision by role that is not the policy's. */
const ROLE_PREDICATE = new RegExp(`\\bis${R}\\(|\\bROLE\\.${R}\\b|[!=]==\\s*'${R}'|\\bcase\\s+'${R}'`, 'g');

/**
 * The files that may name a role in a condition, and why it is not an access decision there. A new file with a
 * role predicate fails until it asks the policy instead (can(user, action)) or is added here with its reason.
 */
const ROLE_PREDICATE_FILES: Record<string, string> = {
  [POLICY_FILE]: 'the access policy',
  'shared/src/roles.ts': 'the role ids and names',
  'shared/src/reports.ts': 'the colour of each role in the reports',
  'shared/src/dashboard.ts': 'whom the greeting names (a School account by its whole name)',
  'server/src/core/identity.ts': 'the role predicates',
  'server/src/core/scope.ts': 'the visibility scope: which rows a role sees (404 outside it)',
  'server/src/core/bootstrap.ts': 'the first Admin, created on first start',
  'server/src/modules/users/users.service.ts': 'an active Admin must remain; a Broker’s new users join its brokerage',
  'server/src/modules/completions/completions.service.ts':
    'the completions’ scope (a School: its courses’), holders are Agents and Brokers, a School’s records are approved at once',
  'server/src/modules/courses/courses.service.ts': 'a School’s new course is its own; the owner named must be a School user',
  'server/src/modules/licenses/licenses.service.ts': 'license holders are Agents and Brokers',
  'server/src/modules/dashboard/dashboard.service.ts': 'each role’s own statistics',
  'server/src/modules/documents/documents.service.ts': 'the documents’ visibility scope (a School: certificates of its courses)',
  'server/src/modules/notifications/calendar.service.ts': 'an Admin’s calendar feed holds its own licenses only',
  'server/src/modules/notification-management/reminders.ts': 'who receives which reminder',
  'server/src/modules/brokerages/brokerages.service.ts': 'the Agents counted per brokerage',
  'server/src/modules/reports/reports.queries.ts': 'counts and names by role',
  'client/src/features/courses/completion-form-modal.tsx':
    'the form per role: a School records approved, Admins and Schools hold no licenses',
  'client/src/features/courses/courses-tab.tsx': 'a School is its own courses’ provider (the form’s default)',
  'client/src/features/dashboard/dashboard-page.tsx': 'each role’s own statistics',
  'client/src/features/users/user-form-values.ts': 'the Broker form’s fixed role (what it may give is users.grantRole)',
};

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;
const hits = (text: string, re: RegExp) => [...text.matchAll(new RegExp(re.source, 'g'))];

describe('no role lists for access decisions outside the policy', () => {
  it('the scan reads the product’s sources', () => {
    expect(sources.length).toBeGreaterThan(150);
    for (const f of ['server/src/modules/users/users.router.ts', 'client/src/app/nav.ts', POLICY_FILE]) {
      expect(sources.map((s) => s.rel)).toContain(f);
    }
  });

  it('the patterns catch what they are for, and not the policy’s own calls', () => {
    const bad = [
      "list: roleProcedure('Admin', 'Broker')",
      'delete: adminProcedure',
      "const canManage = hasRole('Admin', 'Broker');",
      "listExports({ path: '/x', roles: ['Admin'] })",
      "<RequireRole roles={['Admin', 'Broker', 'Agent']}>",
      "const ctx = await authenticate(deps, req, ['Admin']);",
      "const WRITERS = ['Admin', 'Broker', 'Agent'] as const;",
      'if (roles && !roles.includes(roleName(ctx.user.role_id))) throw forbidden();',
      'NAV.filter((e) => e.roles.includes(role))',
    ];
    for (const b of bad)
      expect(
        ROLE_LISTS.some((p) => hits(b, p.re).length > 0),
        b,
      ).toBe(true);
    for (const b of ['isAdmin(actor)', 'u.role_id === ROLE.Agent', "role === 'School'"])
      expect(hits(b, ROLE_PREDICATE).length, b).toBeGreaterThan(0);
    const good = [
      "list: policyProcedure('users.read')",
      "me: authedProcedure('auth.me')",
      "const ctx = await authenticate(deps, req, 'licenses.read');",
      'access: { authed: true, roles: [...rolesFor(action)] }',
      "can(ctx.user, 'users.update', row)",
      "['School', course.school_name]",
    ];
    for (const g of good)
      expect(
        [...ROLE_LISTS.map((p) => p.re), ROLE_PREDICATE].every((re) => hits(g, re).length === 0),
        g,
      ).toBe(true);
  });

  it('no file but the policy lists roles', () => {
    const found = sources
      .filter((f) => !ROLE_LIST_FILES.has(f.rel))
      .flatMap((f) => ROLE_LISTS.flatMap((p) => hits(f.text, p.re).map((m) => `${f.rel}:${lineOf(f.text, m.index)} ${p.what}: ${m[0]}`)));
    expect(found).toEqual([]);
  });

  it('role predicates only where they are not access decisions (the files listed, with their reasons)', () => {
    const unlisted = sources
      .filter((f) => !(f.rel in ROLE_PREDICATE_FILES))
      .flatMap((f) =>
        hits(f.text, ROLE_PREDICATE).map((m) => `${f.rel}:${lineOf(f.text, m.index)} ${m[0]} (ask the policy: can(user, action))`),
      );
    expect(unlisted).toEqual([]);
    // The list stays true: a file that no longer decides by role leaves it.
    const stale = Object.keys(ROLE_PREDICATE_FILES).filter((rel) => {
      const f = sources.find((s) => s.rel === rel);
      return !f || hits(f.text, ROLE_PREDICATE).length === 0;
    });
    expect(stale).toEqual([]);
  });

  it('never refuses (403) by a role predicate: a 403 is the policy’s', () => {
    const found = sources
      .filter((f) => f.rel !== POLICY_FILE)
      .flatMap((f) =>
        f.text
          .split('\n')
          .map((line, i) => ({ line, n: i + 1 }))
          .filter(({ line }) => hits(line, ROLE_PREDICATE).length > 0 && /\bforbidden\(|'FORBIDDEN'/.test(line))
          .map(({ line, n }) => `${f.rel}:${n} ${line.trim()}`),
      );
    expect(found).toEqual([]);
  });
});
