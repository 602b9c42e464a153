/**
 * Where webhooks may go (docs/security.md "Webhooks"): http(s) only, and never to a private, loopback,
 * link-local, unique-local, multicast or reserved address unless WEBHOOK_ALLOW_PRIVATE=true. Checked when an
 * endpoint is saved (its host name resolved) and again on every send, on the very address the connection uses
 * (`guardedLookup`), since DNS can change between the two.
 */
import dns from 'node:dns';
import net from 'node:net';
import { WEBHOOK_MESSAGES } from '@lm/shared';
import { badRequest } from '../../base/errors.ts';

const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10],
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (null if it is not one). */
function ipv6Groups(address: string): number[] | null {
  if (net.isIPv6(address) === false) return null;
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  const groups = tail === undefined ? h : [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
  return groups.length === 8 ? groups : null;
}

/** An IPv4 address carried inside an IPv6 one (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedIpv4(groups: number[]): string | null {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeros(5) && groups[5] === 0xffff) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  return null;
}

/** True for an address a webhook must not reach (private, loopback, link-local, unique-local, multicast, reserved). */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const inner = embeddedIpv4(groups);
  if (inner) return blocked.check(inner, 'ipv4');
  return blocked.check(address.replace(/%.*$/, ''), 'ipv6');
}

/** The host of a URL as an address, when it is one (`[::1]` → `::1`), else null. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) ? bare : null;
}

const LOOKUP_TIMEOUT_MS = 5_000;

function lookupAll(hostname: string): Promise<dns.LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS);
    dns.lookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses);
    });
  });
}

/**
 * When an endpoint is saved: 400 unless the URL's host (an address, or every address its name resolves to) is
 * public, or private addresses are allowed. The scheme and form were checked by the shared schema.
 */
export async function assertDeliverableUrl(url: string, allowPrivate: boolean): Promise<void> {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    throw badRequest(WEBHOOK_MESSAGES.urlInvalid, [{ path: 'url', message: WEBHOOK_MESSAGES.urlInvalid }]);
  }
  if (allowPrivate) return;
  const refuse = () => badRequest(WEBHOOK_MESSAGES.urlPrivate, [{ path: 'url', message: WEBHOOK_MESSAGES.urlPrivate }]);
  const literal = literalAddress(hostname);
  if (literal) {
    if (isPrivateAddress(literal)) throw refuse();
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await lookupAll(hostname);
  } catch {
    throw badRequest(WEBHOOK_MESSAGES.urlUnresolvable, [{ path: 'url', message: WEBHOOK_MESSAGES.urlUnresolvable }]);
  }
  if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) throw refuse();
}

/** The error of a send refused by the address rules (recorded as the attempt's error). */
export class PrivateAddressError extends Error {
  constructor(address: string) {
    super(`Refused: ${address} is a private, loopback or link-local address (WEBHOOK_ALLOW_PRIVATE is off)`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * The `lookup` of an outgoing webhook request: resolves as Node would and fails the connection when any address
 * is private, so the check holds for the address actually connected to.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, options.all ? [] : '', undefined);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new PrivateAddressError(bad.address) as NodeJS.ErrnoException, options.all ? [] : '', undefined);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', undefined);
    callback(null, first.address, first.family);
  });
}
