/** The OpenAPI document as integrators' tools read it (docs/api.md "The document"; npm run lint:openapi lints it). */
import { describe, expect, it } from 'vitest';
import { openApiDocument, TAG_DESCRIPTIONS } from '../src/openapi.ts';

type Op = {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { example?: unknown }> }>;
  requestBody?: { content?: Record<string, { example?: unknown }> };
};
const doc = openApiDocument() as unknown as {
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Op>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
};
const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op })));

describe('the OpenAPI document', () => {
  it('gives every operation a unique camelCase operationId from its procedure', () => {
    const ids = operations.map((o) => o.op.operationId);
    for (const o of operations) expect(o.op.operationId, `${o.method} ${o.path}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    const id = (m: string, p: string) => doc.paths[p]![m]!.operationId;
    expect(id('get', '/licenses')).toBe('licensesList');
    expect(id('get', '/licenses/{id}')).toBe('licensesGet');
    expect(id('post', '/licenses')).toBe('licensesCreate');
    expect(id('get', '/licenses/export')).toBe('licensesExport');
  });

  it('defines every tag it uses, each with a description', () => {
    const defined = new Map(doc.tags.map((t) => [t.name, t.description]));
    for (const o of operations) {
      for (const tag of o.op.tags ?? []) {
        expect(defined.has(tag), `${o.method} ${o.path}: tag ${tag}`).toBe(true);
        expect(defined.get(tag)).toBeTruthy();
      }
    }
    for (const t of doc.tags) expect(TAG_DESCRIPTIONS[t.name], `a written description for ${t.name}`).toBeDefined();
  });

  it('declares the session token and the API key and applies them to protected operations', () => {
    expect(doc.components.securitySchemes.Authorization).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/licenses']!.get!.security).toEqual([{ Authorization: [] }, { ApiKey: [] }]);
    expect(doc.paths['/auth/login']!.post!.security).toEqual([]);
  });

  it('documents path parameters as required, the conditional and idempotent headers, and examples', () => {
    for (const o of operations) {
      for (const p of o.op.parameters ?? []) if (p.in === 'path') expect(p.required, `${o.method} ${o.path} ${p.name}`).toBe(true);
    }
    const get = doc.paths['/licenses/{id}']!.get!;
    expect(get.parameters!.map((p) => p.name)).toContain('If-None-Match');
    expect(get.responses['200']!.headers!.ETag).toBeDefined();
    expect(get.responses['304']).toBeDefined();
    expect(doc.paths['/licenses/{id}']!.put!.parameters!.map((p) => p.name)).toContain('If-Match');
    expect(doc.paths['/licenses/{id}']!.put!.responses['412']).toBeDefined();
    const create = doc.paths['/licenses']!.post!;
    expect(create.parameters!.map((p) => p.name)).toContain('Idempotency-Key');
    expect(create.requestBody!.content!['application/json']!.example).toBeDefined();
    expect(create.responses['200']!.content!['application/json']!.example).toBeDefined();
    expect(get.responses['200']!.content!['application/json']!.example).toBeDefined();
    expect(doc.paths['/licenses']!.get!.responses['200']!.content!['application/json']!.example).toBeDefined();
  });
});
