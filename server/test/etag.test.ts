import { describe, expect, it } from 'vitest';
import { documents, documentVersions } from '../src/db/schema/index.ts';
import { api, seedUser, useTestEnv } from './helpers.ts';

const t = useTestEnv();

let n = 0;
async function newLicense(): Promise<number> {
  const holder = await seedUser(t.env, 'Agent', { brokerage_id: t.roles.brokerageId });
  const res = await api(t.env, 'POST', '/api/licenses', {
    token: t.roles.admin.token,
    body: {
      user_id: holder.user_id,
      license_number: `ETAG-${Date.now()}-${++n}`,
      state: 'CA',
      issue_date: '2026-01-01',
      expiration_date: '2028-01-01',
    },
  });
  expect(res.status).toBe(200);
  return res.body.license_id as number;
}

describe('ETags and conditional requests', () => {
  it('GET /api/licenses/{id} has a strong ETag and answers 304 to If-None-Match', async () => {
    const id = await newLicense();
    const first = await api(t.env, 'GET', `/api/licenses/${id}`, { token: t.roles.admin.token });
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    const again = await api(t.env, 'GET', `/api/licenses/${id}`, { token: t.roles.admin.token });
    expect(again.headers.etag).toBe(etag);
    const notModified = await api(t.env, 'GET', `/api/licenses/${id}`, { token: t.roles.admin.token, headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    const stale = await api(t.env, 'GET', `/api/licenses/${id}`, { token: t.roles.admin.token, headers: { 'if-none-match': '"other"' } });
    expect(stale.status).toBe(200);
  });

  it('a PUT with a stale If-Match answers 412 and changes nothing; the current ETag updates', async () => {
    const id = await newLicense();
    const read = await api(t.env, 'GET', `/api/licenses/${id}`, { token: t.roles.admin.token });
    const etag = read.headers.etag as string;
    // Someone else changes it.
    const other = await api(t.env, 'PUT', `/api/licenses/${id}`, { token: t.roles.admin.token, body: { state: 'TX' } });
    expect(other.status).toBe(200);
    const stale = await api(t.env, 'PUT', `/api/licenses/${id}`, {
      token: t.roles.admin.token,
      body: { state: 'NY' },
      headers: { 'if-match': etag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('PRECONDITION_FAILED');
    expect(stale.body.error).toMatch(/changed by someone else/);
    const after = await api(t.env, 'GET', `/api/licenses/${id}`, { token: t.roles.admin.token });
    expect(after.body.state).toBe('TX');
    expect(after.headers.etag).not.toBe(etag);

    const fresh = await api(t.env, 'PUT', `/api/licenses/${id}`, {
      token: t.roles.admin.token,
      body: { state: 'NY' },
      headers: { 'if-match': after.headers.etag as string },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.state).toBe('NY');
    const star = await api(t.env, 'PUT', `/api/licenses/${id}`, {
      token: t.roles.admin.token,
      body: { state: 'FL' },
      headers: { 'if-match': '*' },
    });
    expect(star.status).toBe(200);
  });

  it('If-Match on an operation that does not check it is a 400 that changes nothing', async () => {
    const res = await api(t.env, 'PUT', '/api/admin/settings', {
      token: t.roles.admin.token,
      body: { office_name: 'Nope' },
      headers: { 'if-match': '"x"' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/If-Match/);
  });

  it('out-of-scope objects stay 404 with or without If-Match', async () => {
    const id = await newLicense();
    const read = await api(t.env, 'GET', `/api/licenses/${id}`, { token: t.roles.admin.token });
    const res = await api(t.env, 'PUT', `/api/licenses/${id}`, {
      token: t.roles.school.token,
      body: { state: 'NY' },
      headers: { 'if-match': read.headers.etag as string },
    });
    expect([403, 404]).toContain(res.status);
  });
});

describe('every resource with an id', () => {
  it('GET answers an ETag and PUT honours If-Match: brokerages, courses, payments, users', async () => {
    const holder = await seedUser(t.env, 'Agent', { brokerage_id: t.roles.brokerageId });
    const token = t.roles.admin.token;
    const made = {
      brokerages: (await api(t.env, 'POST', '/api/brokerages', { token, body: { name: `ETag Realty ${Date.now()}` } })).body.brokerage_id,
      courses: (
        await api(t.env, 'POST', '/api/courses', {
          token,
          body: { course_name: `ETag course ${Date.now()}`, description: 'D', provider: 'P', ce_hours: 2 },
        })
      ).body.course_id,
      payments: (await api(t.env, 'POST', '/api/payments', { token, body: { user_id: holder.user_id, amount: 25 } })).body.payment_id,
      users: holder.user_id,
    } as Record<string, number>;
    const edits: Record<string, [Record<string, unknown>, Record<string, unknown>]> = {
      brokerages: [{ address: '1 First St' }, { address: '2 Second St' }],
      courses: [{ description: 'First' }, { description: 'Second' }],
      payments: [{ amount: 30 }, { amount: 40 }],
      users: [{ first_name: 'First' }, { first_name: 'Second' }],
    };
    for (const [resource, id] of Object.entries(made)) {
      expect(id, resource).toBeGreaterThan(0);
      const read = await api(t.env, 'GET', `/api/${resource}/${id}`, { token });
      expect(read.status, resource).toBe(200);
      const etag = read.headers.etag as string;
      expect(etag, resource).toMatch(/^"[\w-]{32}"$/);
      const [theirs, ours] = edits[resource]!;
      expect((await api(t.env, 'PUT', `/api/${resource}/${id}`, { token, body: theirs })).status, resource).toBe(200);
      const stale = await api(t.env, 'PUT', `/api/${resource}/${id}`, { token, body: ours, headers: { 'if-match': etag } });
      expect(stale.status, resource).toBe(412);
      const after = await api(t.env, 'GET', `/api/${resource}/${id}`, { token });
      expect(after.body, resource).toMatchObject(theirs);
      const fresh = await api(t.env, 'PUT', `/api/${resource}/${id}`, {
        token,
        body: ours,
        headers: { 'if-match': after.headers.etag as string },
      });
      expect(fresh.status, resource).toBe(200);
    }
  });

  it('documents: GET has an ETag, a PUT with a stale If-Match answers 412 and changes nothing', async () => {
    const token = t.roles.admin.token;
    // The rows an upload writes (the file itself is not read here).
    const id = await t.env.db.transaction(async (tx) => {
      const [doc] = await tx
        .insert(documents)
        .values({ owner_id: t.roles.agent.user_id, category: 'other', title: 'ETag doc' })
        .returning();
      await tx.insert(documentVersions).values({
        document_id: doc!.document_id,
        version: 1,
        file_name: 'etag.pdf',
        mime_type: 'application/pdf',
        size: 1,
        sha256: '0'.repeat(64),
        storage_key: `etag-${Date.now()}`,
      });
      return doc!.document_id;
    });
    const read = await api(t.env, 'GET', `/api/documents/${id}`, { token });
    expect(read.status).toBe(200);
    const etag = read.headers.etag as string;
    expect((await api(t.env, 'PUT', `/api/documents/${id}`, { token, body: { title: 'Theirs' } })).status).toBe(200);
    const stale = await api(t.env, 'PUT', `/api/documents/${id}`, { token, body: { title: 'Ours' }, headers: { 'if-match': etag } });
    expect(stale.status).toBe(412);
    expect((await api(t.env, 'GET', `/api/documents/${id}`, { token })).body.title).toBe('Theirs');
  });

  it('GET /api/completions/{id} and /api/courses/{id} exist with ETags; a missing id is 404', async () => {
    const token = t.roles.admin.token;
    expect((await api(t.env, 'GET', '/api/completions/999999', { token })).status).toBe(404);
    expect((await api(t.env, 'GET', '/api/courses/999999', { token })).status).toBe(404);
    expect((await api(t.env, 'GET', '/api/brokerages/999999', { token })).status).toBe(404);
  });
});
