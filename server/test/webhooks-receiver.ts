/**
 * A local webhook receiver for the webhooks tests: node:http on 127.0.0.1 (a free port), recording every request
 * (headers and raw body) and answering with the status `answer` picks (200 unless told otherwise).
 */
import http from 'node:http';
import type net from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: Record<string, string>;
  body: string;
  /** The status this receiver answered. */
  status: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Sets how the next requests are answered (by the request's index, 0-based). */
  answer: (fn: (index: number, req: Received) => number) => void;
  /** Waits until `predicate` holds for the requests so far (polling), or fails after `ms`. */
  waitFor: (predicate: (received: Received[]) => boolean, ms?: number) => Promise<Received[]>;
  /** The bodies that verify with `secret` (standardwebhooks), parsed. */
  verified: (secret: string) => Array<{ type: string; timestamp: string; data: any; id: string }>;
  close: () => Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let answer = (_i: number, _r: Received) => 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
      const entry: Received = { headers, body: Buffer.concat(chunks).toString('utf8'), status: 0 };
      entry.status = answer(received.length, entry);
      received.push(entry);
      res.writeHead(entry.status, { 'content-type': 'text/plain' });
      res.end(entry.status >= 300 ? 'receiver says no' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hooks`,
    port: actual,
    received,
    answer: (fn) => (answer = fn),
    waitFor: async (predicate, ms = 10_000) => {
      const deadline = Date.now() + ms;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${ms} ms (${received.length} received)`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return received;
    },
    verified: (secret) =>
      received.flatMap((r) => {
        try {
          const body = new Webhook(secret).verify(r.body, r.headers) as { type: string; timestamp: string; data: unknown };
          return [{ ...body, data: body.data as any, id: r.headers['webhook-id']! }];
        } catch {
          return [];
        }
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
