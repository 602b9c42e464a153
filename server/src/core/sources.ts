/**
 * Known sign-in sources (docs/security.md "Sign-in"): where an account signed in with the right password
 * before. A browser is known by a long-lived device cookie (random 256 bits, HttpOnly, SameSite=Strict,
 * Secure over HTTPS; only its SHA-256 is stored); an API client by its address. A known source keeps
 * signing in while strangers are locked out of the account, under a counter of its own.
 */
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { and, eq, gt, sql } from 'drizzle-orm';
import { knownSources } from '../db/schema/index.ts';
import type { DbOrTx, Tx } from '../db/client.ts';

export const DEVICE_COOKIE = 'lm_device';
/** Browsers cap cookie lifetimes at 400 days. */
const DEVICE_COOKIE_SECONDS = 400 * 86_400;
/** A known source unused for this long is a stranger again. */
export const KNOWN_SOURCE_DAYS = 90;

import type { DeviceCookie } from './identity.ts';
export type { DeviceCookie } from './identity.ts';

const pending = new WeakMap<object, string>();

/** What a well-formed device cookie looks like (anything else is ignored). */
export const DEVICE_COOKIE_PATTERN = /^[A-Za-z0-9_-]{32,64}$/;

/** The device cookie's value in a Cookie header, if any. */
export function readDeviceCookie(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === DEVICE_COOKIE) return part.slice(eq + 1).trim();
  }
  return null;
}

export function deviceCookieOf(req: FastifyRequest): DeviceCookie {
  const sent = readDeviceCookie(req.headers.cookie);
  const token = sent && DEVICE_COOKIE_PATTERN.test(sent) ? sent : null;
  return {
    token,
    issue() {
      let value = pending.get(req);
      if (!value) {
        value = token ?? crypto.randomBytes(32).toString('base64url');
        pending.set(req, value);
      }
      return value;
    },
  };
}

/** The Set-Cookie header for a request whose sign-in issued the device cookie (app.ts adds it). */
export function deviceCookieHeader(req: FastifyRequest): string | null {
  const value = pending.get(req);
  if (!value) return null;
  const secure = req.protocol === 'https' ? '; Secure' : '';
  return `${DEVICE_COOKIE}=${value}; Path=/; Max-Age=${DEVICE_COOKIE_SECONDS}; HttpOnly; SameSite=Strict${secure}`;
}

export function hashDevice(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export interface LoginSource {
  /** Key of this source in the attempt counters. */
  key: string;
  /** Signed in to this account with the right password before. */
  known: boolean;
}

/**
 * The source of an attempt on `userId` (null for an unknown e-mail): the device when its cookie is
 * known for that account, else the address (known when that account signed in from it before).
 */
export async function resolveSource(db: DbOrTx, userId: number | null, deviceToken: string | null, ip: string): Promise<LoginSource> {
  if (userId !== null) {
    const since = new Date(Date.now() - KNOWN_SOURCE_DAYS * 86_400_000).toISOString();
    const isKnown = async (kind: 'device' | 'address', value: string) =>
      (
        await db
          .select({ id: knownSources.id })
          .from(knownSources)
          .where(
            and(
              eq(knownSources.user_id, userId),
              eq(knownSources.kind, kind),
              eq(knownSources.value, value),
              gt(knownSources.last_used_at, since),
            ),
          )
          .limit(1)
      ).length > 0;
    if (deviceToken) {
      const hash = hashDevice(deviceToken);
      if (await isKnown('device', hash)) return { key: `device:${hash}`, known: true };
    }
    if (await isKnown('address', ip)) return { key: `address:${ip}`, known: true };
  }
  return { key: `address:${ip}`, known: false };
}

/** Remembers (or refreshes) a source after a successful sign-in. */
export async function rememberSource(tx: Tx, userId: number, kind: 'device' | 'address', value: string): Promise<void> {
  const now = new Date().toISOString();
  await tx
    .insert(knownSources)
    .values({ user_id: userId, kind, value, created_at: now, last_used_at: now })
    .onConflictDoUpdate({
      target: [knownSources.user_id, knownSources.kind, knownSources.value],
      set: { last_used_at: sql`excluded.last_used_at` },
    });
}
