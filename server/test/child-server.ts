/**
 * Pieces shared by the scripts that run the real server as a child process on loopback
 * (`npm run test:crash`, `npm run bench:login-flood`).
 */
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
