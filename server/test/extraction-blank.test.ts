/**
 * A blank scanned page read through REST (docs/ocr.md "Images"): it fails as "nothing found" before any OCR, and a
 * typed certificate uploaded after it is not held back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTION_MESSAGES } from '@lm/shared';
import { extractionsSettled, stopExtraction } from '../src/modules/documents/extraction/index.ts';
import { api, useTestEnv, type Roles, type TestEnv, uploadCertificate } from './helpers.ts';
import { blankScan } from './scans.ts';

const typedPdf = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'certificates', 'certificate-typed.pdf'));

describe('REST: a blank page does not hold back the next certificate', { timeout: 60_000 }, () => {
  const t = useTestEnv();
  let env: TestEnv;
  let roles: Roles;
  beforeAll(() => {
    ({ env, roles } = t);
  });
  afterAll(() => stopExtraction());

  const upload = (token: string, name: string, data: Buffer) => uploadCertificate(env, token, name, data);

  it('a blank scanned page fails with "nothing found"; a typed PDF uploaded after it is read', async () => {
    const blankPng = await blankScan();
    const started = performance.now();
    const blank = await upload(roles.agent.token, 'blank.png', blankPng);
    const typedAt = performance.now();
    const typed = await upload(roles.agent.token, 'certificate.pdf', typedPdf);
    // The figures of docs/ocr.md "Images" (no timing assertion): when each reading leaves "pending".
    const settledAt = new Map<number, number>();
    while (settledAt.size < 2 && performance.now() - started < 120_000) {
      for (const id of [blank, typed]) {
        if (settledAt.has(id)) continue;
        const res = await api(env, 'GET', `/api/documents/${id}/extraction`, { token: roles.agent.token });
        if (res.body.status !== 'pending') settledAt.set(id, performance.now());
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await extractionsSettled();
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `blank scan answered ${s(settledAt.get(blank)! - started)} after its upload; ` +
        `typed PDF read ${s(settledAt.get(typed)! - typedAt)} after its upload`,
    );
    const blankRead = await api(env, 'GET', `/api/documents/${blank}/extraction`, { token: roles.agent.token });
    expect(blankRead.status).toBe(200);
    expect(blankRead.body.status).toBe('failed');
    expect(blankRead.body.error).toBe(EXTRACTION_MESSAGES.nothingFound);
    const typedRead = await api(env, 'GET', `/api/documents/${typed}/extraction`, { token: roles.agent.token });
    expect(typedRead.body.status).toBe('done');
    expect(typedRead.body.extraction.source).toBe('text_layer');
  });
});
