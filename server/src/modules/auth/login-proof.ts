/**
 * Sign-in challenges for new devices (docs/security.md "Sign-in", "New devices while an account is locked").
 *
 * Strangers lock an account against unknown sources after max_login_attempts; the owner on a new device (new laptop,
 * phone network, cleared cookies) is a stranger too. Instead of waiting out the lock, such a device asks for a
 * proof-of-work challenge (POST /auth/login-challenge, altcha-lib, PBKDF2/SHA-256), solves it (the login page does so
 * by itself) and sends the solution with its password. A solved attempt skips the strangers' account lock, the address
 * limit and the sign-in gate's places; it is counted per account under its own key, and each failed solved attempt
 * doubles the next challenge's work (capped at a few seconds in a browser), so an attacker who solves gets few guesses,
 * and past PROOF_MAX_ATTEMPTS solved attempts in a lock window only the e-mailed sign-in link remains.
 *
 * A challenge is signed with an HMAC key derived from the server's secret (config.loginChallengeSecret, else one per
 * process), is bound to the e-mail it was asked for, expires after PROOF_VALID_SECONDS and works once (a counter
 * row per challenge, shared by every instance). Creating one costs one 100-iteration PBKDF2; checking a signature
 * (the gate) costs two HMACs, no derivation (the derived key is signed too).
 */
import crypto from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Config } from '../../config.ts';
import type { DbOrTx, Db } from '../../db/client.ts';
import { loginCounters as loginCountersTable } from '../../db/schema/index.ts';

const ALGORITHM = 'PBKDF2/SHA-256';
/** PBKDF2 iterations per try: the work of one try is the same for a browser (WebCrypto) and for native code. */
const COST = 100;
/** The tries a first challenge takes on average is about 3/4 of this; each failed solved attempt doubles it. */
export const PROOF_BASE_TRIES = 1_000;
/** At most this many tries (a few seconds in a browser). */
export const PROOF_MAX_TRIES = 64_000;
export const PROOF_VALID_SECONDS = 300;
/** Solved attempts per account within lockout_duration_minutes; past it only the e-mailed link signs in from a new device. */
export const PROOF_MAX_ATTEMPTS = 30;

/** The counter of an account's solved attempts (failed ones stay counted; a success gives its attempt back). */
export const proofAttemptsKey = (email: string) => `proof:${email}`;
const usedKey = (signature: string) => `proof-used:${signature}`;

const processSecret = crypto.randomBytes(32).toString('hex');
const secrets = new Map<string, { challenge: string; key: string }>();
/** The two HMAC keys (challenge, derived key), derived from the server's secret. */
function keysOf(config: Pick<Config, 'loginChallengeSecret'>) {
  const secret = config.loginChallengeSecret ?? processSecret;
  let keys = secrets.get(secret);
  if (!keys) {
    const derive = (label: string) => crypto.createHmac('sha256', secret).update(label).digest('hex');
    keys = { challenge: derive('lm login challenge'), key: derive('lm login challenge key') };
    secrets.set(secret, keys);
  }
  return keys;
}

/** Which account a challenge is for, without writing the e-mail into it. */
const accountOf = (email: string) => crypto.createHash('sha256').update(`login:${email}`).digest('base64url').slice(0, 22);

/** The account's solved attempts still counted now (0 when none). */
async function solvedAttempts(db: DbOrTx, email: string, now: number): Promise<number> {
  const [row] = await db
    .select({ count: loginCountersTable.count })
    .from(loginCountersTable)
    .where(and(eq(loginCountersTable.key, proofAttemptsKey(email)), gt(loginCountersTable.reset_at, now)));
  return row?.count ?? 0;
}

/** How many tries the next challenge for this account takes at most. */
export function triesFor(failures: number): number {
  return Math.min(PROOF_MAX_TRIES, PROOF_BASE_TRIES * 2 ** Math.min(failures, 16));
}

/** A new challenge for signing in to `email`'s account, as base64url JSON. */
export async function createLoginChallenge(db: DbOrTx, config: Pick<Config, 'loginChallengeSecret'>, email: string): Promise<string> {
  const now = Date.now();
  const max = triesFor(await solvedAttempts(db, email, now));
  const keys = keysOf(config);
  const challenge = await createChallenge({
    algorithm: ALGORITHM,
    cost: COST,
    counter: randomInt(max, Math.floor(max / 2)),
    deriveKey,
    expiresAt: Math.floor(now / 1000) + PROOF_VALID_SECONDS,
    data: { purpose: 'login', account: accountOf(email) },
    hmacSignatureSecret: keys.challenge,
    hmacKeySignatureSecret: keys.key,
  });
  return Buffer.from(JSON.stringify(challenge)).toString('base64url');
}

interface Proof {
  challenge: Challenge;
  solution: Solution;
}

/** The solved challenge in a sign-in's `solution` field, or null when it is not one. */
function decode(value: unknown): Proof | null {
  if (typeof value !== 'string' || value.length > 4096) return null;
  try {
    const proof = JSON.parse(Buffer.from(value, 'base64url').toString()) as Partial<Proof>;
    const c = proof.challenge as Partial<Challenge> | undefined;
    if (!c || typeof c !== 'object' || typeof c.signature !== 'string' || !c.parameters || typeof c.parameters !== 'object') return null;
    if (c.parameters.algorithm !== ALGORITHM || !proof.solution || typeof proof.solution !== 'object') return null;
    return proof as Proof;
  } catch {
    return null;
  }
}

/** Signature, expiry and solution (two HMACs, no key derivation): what the gate checks before letting a proof through. */
async function verified(config: Pick<Config, 'loginChallengeSecret'>, proof: Proof): Promise<boolean> {
  const keys = keysOf(config);
  try {
    const result = await verifySolution({
      challenge: proof.challenge,
      solution: proof.solution,
      deriveKey,
      hmacSignatureSecret: keys.challenge,
      hmacKeySignatureSecret: keys.key,
    });
    return result.verified;
  } catch {
    return false;
  }
}

/** Whether a sign-in's `solution` field holds a solved, unexpired challenge of this server (for any account). */
export async function looksSolved(config: Pick<Config, 'loginChallengeSecret'>, value: unknown): Promise<boolean> {
  const proof = decode(value);
  return proof !== null && (await verified(config, proof));
}

/**
 * Accepts a sign-in's solution for `email`: solved, unexpired, for this account, and not used before (the use is
 * recorded now, so a second attempt with it is an attempt without a solution).
 */
export async function acceptSolution(
  db: Db,
  config: Pick<Config, 'loginChallengeSecret'>,
  email: string,
  value: unknown,
): Promise<boolean> {
  const proof = decode(value);
  if (!proof || proof.challenge.parameters.data?.account !== accountOf(email) || proof.challenge.parameters.data.purpose !== 'login') {
    return false;
  }
  if (!(await verified(config, proof))) return false;
  const [use] = await db.counters.hit([{ key: usedKey(proof.challenge.signature!), max: 1, windowMs: PROOF_VALID_SECONDS * 1000 }]);
  return !use!.over;
}
