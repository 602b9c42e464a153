/**
 * The repository explains itself (docs/product.md): comments and docs cite files that exist in it, never the
 * kit the project was started from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIRS = ['client/src', 'server/src', 'server/test', 'shared/src', 'e2e', 'bench', 'docs', 'integrator/src'];
const SKIP = new Set(['node_modules', 'dist', 'test-results']);

function files(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return files(rel);
    return /\.(ts|tsx|md)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

const all = [...DIRS.flatMap(files), 'README.md'];
// Built from parts so this file does not match itself.
const OUTSIDE = new RegExp(['SPEC', 'DECISIONS', 'STACK'].map((n) => `\\b${n}\\.md\\b`).join('|'));

describe('citations', () => {
  it('nothing cites the files outside the repository', () => {
    const hits = all.flatMap((f) =>
      fs
        .readFileSync(path.join(ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${f}:${i + 1}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it('every docs/<name>.md that code cites exists', () => {
    const cited = new Set(
      all.flatMap((f) => [...fs.readFileSync(path.join(ROOT, f), 'utf8').matchAll(/\bdocs\/([\w/-]+\.md)/g)].map((m) => m[1]!)),
    );
    expect(cited.size).toBeGreaterThan(3);
    expect([...cited].filter((name) => !fs.existsSync(path.join(ROOT, 'docs', name)))).toEqual([]);
  });
});
