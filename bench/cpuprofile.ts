/**
 * Where a server's CPU time went, from a V8 .cpuprofile (node --cpu-prof): self time per function and per
 * package (drizzle-orm, zod, @trpc/server, trpc-to-openapi, fastify, better-sqlite3, pino ...), GC and idle
 * apart. Used by `BENCH_PROFILE=<dir> npm run bench:api`; also runs alone:
 * `tsx bench/cpuprofile.ts <file> [seconds of start-up to leave out]`.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** better-sqlite3's statement and database methods are native: they show with no URL. */
const SQLITE_NATIVE = new Set(['all', 'get', 'run', 'iterate', 'prepare', 'exec', 'pragma', 'raw', 'pluck', 'expand', 'columns', 'bind']);

/** The package a frame belongs to (the last node_modules segment of its URL), or what else it is. */
export function packageOf(frame: ProfileNode['callFrame'], parent?: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)') return '(idle)';
  if (functionName === '(program)') return '(program: V8/native, no JS frame)';
  if (!url) {
    // A native function: better-sqlite3's methods when called from the driver's callers, else a V8 builtin.
    if (SQLITE_NATIVE.has(functionName) && parent && /drizzle-orm|better-sqlite3|server\.mjs|bench\//.test(parent.url))
      return 'better-sqlite3';
    return '(native / V8 builtins)';
  }
  // V8 charges a native (C++) method's time to the JS frame that called it: drizzle's thin wrappers around
  // better-sqlite3's statement methods are, in self time, SQLite running the statement.
  if (/drizzle-orm\/better-sqlite3\/session\.js$/.test(url) && SQLITE_NATIVE.has(functionName === 'values' ? 'all' : functionName)) {
    return 'better-sqlite3 (statement run, in drizzle-orm frame)';
  }
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(url);
  if (m) return m[1]!;
  if (url.startsWith('node:')) return 'node (core)';
  if (url.includes('/server/dist/') || url.includes('/server/src/') || url.includes('/shared/')) return 'product code (server/dist)';
  return url.replace(/^file:\/\//, '');
}

/** `skipSeconds`: leave out the first seconds of the profile (the server's start-up). */
/** Busy time per package (µs) and in all, as summarizeProfile counts it. */
export interface ProfileSummary {
  busyUs: number;
  perPackage: Map<string, number>;
}

export function summarizeProfile(
  file: string,
  log: (line: string) => void,
  opts: { top?: number; skipSeconds?: number } = {},
): ProfileSummary {
  const top = opts.top ?? 30;
  const skipUs = (opts.skipSeconds ?? 0) * 1e6;
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n);
  const self = new Map<number, number>();
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    elapsed += profile.timeDeltas[i] ?? 0;
    if (elapsed >= skipUs) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });

  const perPackage = new Map<string, number>();
  const perFunction = new Map<string, { pkg: string; us: number }>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const pkg = packageOf(node.callFrame, parentOf.get(id)?.callFrame);
    if (pkg === '(idle)') {
      idle += us;
      continue;
    }
    total += us;
    perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + us);
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(server|shared)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    const entry = perFunction.get(key) ?? { pkg, us: 0 };
    entry.us += us;
    perFunction.set(key, entry);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
  const skipped = skipUs > 0 ? ` after the first ${(skipUs / 1e6).toFixed(1)} s (start-up)` : '';
  log(`Busy ${(total / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s${skipped}. Self time by package (share of busy time):`);
  for (const [pkg, us] of [...perPackage].sort((a, b) => b[1] - a[1]).slice(0, 20)) log(`  ${pct(us)}  ${pkg}`);
  log(`\nTop ${top} functions by self time:`);
  for (const [key, { pkg, us }] of [...perFunction].sort((a, b) => b[1].us - a[1].us).slice(0, top)) {
    log(`  ${pct(us)}  [${pkg}] ${key}`);
  }
  return { busyUs: total, perPackage };
}

/**
 * The product's and the baseline's busy time per request served, package by package: what the product spends
 * beyond the bare server on the same work (both profiled in the same run).
 */
export function compareProfiles(
  product: ProfileSummary & { requests: number },
  baseline: ProfileSummary & { requests: number },
  log: (line: string) => void,
): void {
  const per = (s: { requests: number }, us: number) => us / Math.max(1, s.requests);
  const fmt = (us: number) => us.toFixed(1).padStart(8);
  log(`\nCPU per request served, µs (product ${product.requests} requests, baseline ${baseline.requests}):`);
  log(`  ${'package'.padEnd(52)} ${'product'.padStart(8)} ${'baseline'.padStart(8)} ${'extra'.padStart(8)}`);
  const packages = new Set([...product.perPackage.keys(), ...baseline.perPackage.keys()]);
  const rows = [...packages].map((pkg) => {
    const p = per(product, product.perPackage.get(pkg) ?? 0);
    const b = per(baseline, baseline.perPackage.get(pkg) ?? 0);
    return { pkg, p, b };
  });
  for (const { pkg, p, b } of rows.sort((x, y) => y.p - y.b - (x.p - x.b))) {
    if (Math.max(p, b) < 1) continue;
    log(`  ${pkg.slice(0, 52).padEnd(52)} ${fmt(p)} ${fmt(b)} ${fmt(p - b)}`);
  }
  const p = per(product, product.busyUs);
  const b = per(baseline, baseline.busyUs);
  log(`  ${'all'.padEnd(52)} ${fmt(p)} ${fmt(b)} ${fmt(p - b)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, skip] = process.argv.slice(2);
  if (!file) throw new Error('usage: tsx bench/cpuprofile.ts <file.cpuprofile> [seconds of start-up to leave out]');
  summarizeProfile(file, console.log, { skipSeconds: Number(skip ?? 0) });
}
