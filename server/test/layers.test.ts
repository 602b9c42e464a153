/**
 * The server's layers point one way (docs/architecture.md "Layers"): a file imports only from its own layer or
 * the ones below it, and no two files import each other, directly or around a circle. Type-only imports count:
 * they tie the files together just the same for the next reader.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|(?:^|\n)\s*import\s+'([^']+)'|import\('([^']+)'\)/g;

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec || !spec.startsWith('.')) continue;
    out.push(path.resolve(path.dirname(file), spec));
  }
  return out;
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => files.includes(t))]));
const rel = (f: string) => path.relative(SRC, f);

/**
 * The layers, lowest first: base/ (the error type, paths), db/, core/ (with config.ts), http/, modules/, then the
 * app that assembles them (app.ts, router.ts, routes.ts, openapi.ts, server.ts, jobs.ts, demo/, the *-cli.ts entries).
 */
const LAYERS: Array<[string, RegExp]> = [
  ['base', /^(base\/|paths\.ts$)/],
  ['db', /^db\//],
  ['core', /^(core\/|config\.ts$)/],
  ['http', /^http\//],
  ['modules', /^modules\//],
  ['app', /^(demo\/|[^/]+\.ts$)/],
];
const layerOf = (f: string) => (/-cli\.ts$/.test(f) ? LAYERS.length - 1 : LAYERS.findIndex(([, pattern]) => pattern.test(rel(f))));

describe('server layers', () => {
  it('puts every file in a layer', () => {
    expect(files.filter((f) => layerOf(f) === -1).map(rel)).toEqual([]);
  });

  it('imports only from its own layer or one below', () => {
    const bad = files.flatMap((f) =>
      graph
        .get(f)!
        .filter((t) => layerOf(t) > layerOf(f))
        .map((t) => `${rel(f)} (${LAYERS[layerOf(f)]![0]}) -> ${rel(t)} (${LAYERS[layerOf(t)]![0]})`),
    );
    expect(bad).toEqual([]);
  });

  it('has no import circles', () => {
    // Tarjan's strongly connected components: any component with more than one file is a circle.
    let index = 0;
    const idx = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (v: string) => {
      idx.set(v, index);
      low.set(v, index++);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v)!) {
        if (!idx.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
      if (low.get(v) === idx.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(rel(w));
        } while (w !== v);
        if (component.length > 1 || graph.get(v)!.includes(v)) circles.push(component.sort());
      }
    };
    for (const f of files) if (!idx.has(f)) visit(f);
    expect(circles).toEqual([]);
  });

  it('finds the imports it checks', () => {
    // Guards the parser: app.ts imports the router, the data layer and the file routes.
    expect(graph.get(path.join(SRC, 'app.ts'))!.map(rel)).toEqual(expect.arrayContaining(['router.ts', 'db/client.ts', 'routes.ts']));
  });
});
