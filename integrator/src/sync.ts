/**
 * An integrator's sync (docs/api.md "Changes since", "ETags and If-Match", "Safe retries"): what a back office runs
 * every few minutes against License Manager, with the client generated from /api/openapi.json. The token is a
 * parameter: an API key (`lmk_…`) or a session token, both sent as `Authorization: Bearer`.
 *   1. the licenses changed since the last run (`updated_since`), every page;
 *   2. what was deleted since then (`GET /deletions?since=`);
 *   3. one license read with its ETag, then again with If-None-Match (304: the copy is current);
 *   4. a create sent twice with the same Idempotency-Key (a retry after a timeout): one license;
 *   5. an update with a stale If-Match: 412, nothing changed;
 * and `verifyWebhook`, what its webhook receiver does with each delivery (Standard Webhooks, the standardwebhooks
 * library). It runs against a real server in test/integrator.test.ts.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import type { paths } from './api.d.ts';

export interface SyncInput {
  baseUrl: string;
  /** An API key or a session token. */
  token: string;
  /** The start time of the previous run (ISO 8601). */
  since: string;
  /** A license to create (user_id, number...), as a retried create would send it. */
  create: paths['/licenses']['post']['requestBody']['content']['application/json'];
}

export interface SyncReport {
  changedLicenseIds: number[];
  deleted: Array<{ resource: string; id: number }>;
  etag: string;
  notModifiedStatus: number;
  createdId: number;
  retriedId: number;
  replayed: boolean;
  staleUpdateStatus: number;
  staleUpdateCode: string | undefined;
  /** The start of this run: the next run's `since`. */
  nextSince: string;
}

export async function runSync(input: SyncInput): Promise<SyncReport> {
  const nextSince = new Date().toISOString();
  const client = createClient<paths>({ baseUrl: `${input.baseUrl}/api` });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${input.token}`);
      return request;
    },
  };
  client.use(auth);

  // 1. Changed licenses, page by page.
  const changedLicenseIds: number[] = [];
  for (let page = 1; ; page++) {
    const res = await client.GET('/licenses/page', { params: { query: { updated_since: input.since, page, limit: 500 } } });
    if (res.error) throw new TypeError(`listing changed licenses failed: ${res.error.error}`);
    changedLicenseIds.push(...res.data.licenses.map((l) => l.license_id));
    if (page >= res.data.pagination.pages) break;
  }

  // 2. Deletions since the last run.
  const deleted: SyncReport['deleted'] = [];
  for (let page = 1; ; page++) {
    const res = await client.GET('/deletions', { params: { query: { since: input.since, page, limit: 1000 } } });
    if (res.error) throw new TypeError(`listing deletions failed: ${res.error.error}`);
    deleted.push(...res.data.deletions.map((d) => ({ resource: d.resource, id: d.id })));
    if (page >= res.data.pagination.pages) break;
  }

  // 4 (first half). A create with an Idempotency-Key, sent twice as a retry after a lost answer would.
  const key = `sync-${crypto.randomUUID()}`;
  const first = await client.POST('/licenses', { body: input.create, params: { header: { 'Idempotency-Key': key } } });
  if (first.error) throw new TypeError(`creating a license failed: ${first.error.error}`);
  const retry = await client.POST('/licenses', { body: input.create, params: { header: { 'Idempotency-Key': key } } });
  if (retry.error) throw new TypeError(`the retried create failed: ${retry.error.error}`);
  const id = first.data.license_id;

  // 3. An ETag'd read, then a conditional one.
  const read = await client.GET('/licenses/{id}', { params: { path: { id } } });
  if (read.error) throw new TypeError(`reading license ${id} failed: ${read.error.error}`);
  const etag = read.response.headers.get('etag') ?? '';
  const again = await client.GET('/licenses/{id}', { params: { path: { id }, header: { 'If-None-Match': etag } } });

  // 5. Someone else changes the license; our update, made from the copy we read, must not overwrite it.
  const theirs = await client.PUT('/licenses/{id}', {
    params: { path: { id } },
    body: { license_number: `${input.create.license_number}-B` },
  });
  if (theirs.error) throw new TypeError(`the other update failed: ${theirs.error.error}`);
  const ours = await client.PUT('/licenses/{id}', {
    params: { path: { id }, header: { 'If-Match': etag } },
    body: { license_number: `${input.create.license_number}-C` },
  });

  return {
    changedLicenseIds,
    deleted,
    etag,
    notModifiedStatus: again.response.status,
    createdId: id,
    retriedId: retry.data.license_id,
    replayed: retry.response.headers.get('idempotent-replayed') === 'true',
    staleUpdateStatus: ours.response.status,
    staleUpdateCode: ours.error?.code,
    nextSince,
  };
}

/** A webhook delivery as License Manager sends it (docs/api.md "Webhooks"). */
export interface WebhookEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * A receiver's check of one delivery: the raw body and the webhook-id, webhook-timestamp and webhook-signature
 * headers, verified with the endpoint's `whsec_…` secret (a wrong signature or a timestamp more than 5 minutes off
 * throws). Use the raw body as received: re-serialised JSON would not verify.
 */
export function verifyWebhook(secret: string, rawBody: string, headers: Record<string, string>): WebhookEvent {
  return new Webhook(secret).verify(rawBody, headers) as WebhookEvent;
}
