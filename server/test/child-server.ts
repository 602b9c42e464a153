/**
 * Pieces shared by the scripts and tests that run the real server as a child process on loopback
 * (`npm run test:crash`, `npm run bench:login-flood`, server/test/instances.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The environment of a production server on 127.0.0.1:port with its own data, no scheduler and no client. */
export function serverEnv(dataDir: string, port: number, admin: { email: string; password: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SCHEDULER: 'off',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    CLIENT_DIST: path.join(dataDir, 'no-client'),
    NODE_ENV: 'production',
  };
}

export interface ChildServer {
  name: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process wrote so far (stdout: JSON log lines and the start-up messages). */
  output: () => string;
  /** Stops it (SIGTERM, then SIGKILL after `graceMs`) and waits for the process to end. */
  stop: (graceMs?: number) => Promise<void>;
}

/**
 * Starts the real server (`server/src/server.ts` under tsx) with `env` and waits until /api/health
 * answers. The process is killed if it does not come up within `timeoutMs`.
 */
export async function startServer(name: string, env: NodeJS.ProcessEnv, options: { timeoutMs?: number } = {}): Promise<ChildServer> {
  const port = Number(env.PORT);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (graceMs = 10_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(killer);
  };
  const server: ChildServer = { name, port, dataDir: String(env.DATA_DIR), child, output: () => out, stop };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server ${name} exited with ${child.exitCode}: ${out}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop(0);
      throw new Error(`server ${name} did not start: ${out}`);
    }
    await sleep(100);
  }
}
