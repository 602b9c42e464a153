/**
 * The child processes a bench starts (servers, a PostgreSQL cluster): every one is stopped whatever happens. On exit
 * they are killed; on SIGINT, SIGTERM or SIGHUP the bench's own clean-up (`onStop`) runs first, for at most 30 s.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../server/src/paths.ts';

/** A port free on 127.0.0.1 now: the one the tests' child servers use. */
export { freePort } from '../server/test/child-server.ts';

/** The processes started and still running: add each one, delete it when it exits. */
export const children = new Set<ChildProcess>();

let cleanUp: () => Promise<void> = async () => undefined;

/** What the bench must undo when it stops (stop the servers, remove copies, drop clones); also call it at its end. */
export function onStop(fn: () => Promise<void>): () => Promise<void> {
  cleanUp = fn;
  return fn;
}

process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the servers.`);
    setTimeout(() => process.exit(130), 30_000).unref();
    void cleanUp().finally(() => process.exit(130));
  });
}

/** The node flags `npm run start:server` starts the product with (package.json), so a bench runs it as shipped. */
export function shippedNodeFlags(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = (pkg.scripts['start:server'] ?? '').split(/\s+/);
  const node = words.indexOf('node');
  const script = words.indexOf('server/dist/server.mjs');
  if (node < 0 || script < node) throw new Error('package.json "start:server" is not "... node <flags> server/dist/server.mjs"');
  return words.slice(node + 1, script);
}
