/** Test helper: asks the server for a sign-in challenge and solves it as the login page does (altcha-lib). */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { api, type TestEnv } from './helpers.ts';

export async function solvedChallenge(env: Pick<TestEnv, 'app'>, email: string, ip = '10.200.0.1'): Promise<string> {
  const res = await api(env, 'POST', '/api/auth/login-challenge', { body: { email }, ip });
  if (res.status !== 200) throw new Error(`login-challenge answered ${res.status}: ${JSON.stringify(res.body)}`);
  const challenge = JSON.parse(Buffer.from(res.body.challenge as string, 'base64url').toString()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge was not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64url');
}
