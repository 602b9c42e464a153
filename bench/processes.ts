/**
 * The child processes a bench starts (servers, a PostgreSQL cluster): every one is stopped whatever happens. On exit
 * they are killed; on SIGINT, SIGTERM or SIGHUP the bench's own clean-up (`onStop`) runs first, for at most 30 s.
 */
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

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

/** A TCP port free on `host` now (the bench's servers listen on loopback). */
export async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, host, () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
