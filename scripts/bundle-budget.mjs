#!/usr/bin/env node
// The first page's budget (docs/performance.md "First page"): what the sign-in page loads before anyone acts,
// i.e. the entry chunk and every chunk it imports statically (index.html preloads them), and its stylesheets,
// read from the build's manifest and measured gzipped. Exits non-zero over the limits. `--json` prints figures.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const LIMITS = { js: 170 * 1024, css: 25 * 1024 };
const root = path.resolve(import.meta.dirname, '..');
const dist = path.resolve(root, process.env.CLIENT_DIST ?? 'client/dist');
const manifestFile = path.join(dist, '.vite/manifest.json');
if (!fs.existsSync(manifestFile)) {
  console.error(`No build manifest at ${path.relative(root, manifestFile)}: run \`npm run build\` first.`);
  process.exit(2);
}
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const chunks = new Set();
const css = new Set();
(function walk(key) {
  if (chunks.has(key)) return;
  chunks.add(key);
  for (const f of manifest[key].css ?? []) css.add(f);
  for (const k of manifest[key].imports ?? []) walk(k);
})(entryKey);

const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const rows = [
  ...[...chunks].map((k) => ({ kind: 'js', file: manifest[k].file, gzip: gz(manifest[k].file) })),
  ...[...css].map((file) => ({ kind: 'css', file, gzip: gz(file) })),
  { kind: 'html', file: 'index.html', gzip: gz('index.html') },
];
const total = (kind) => rows.filter((r) => r.kind === kind).reduce((s, r) => s + r.gzip, 0);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
if (process.argv.includes('--json')) console.log(JSON.stringify({ rows, js: total('js'), css: total('css') }, null, 2));
else for (const r of rows) console.log(`${r.kind.padEnd(4)} ${kb(r.gzip).padStart(9)}  ${r.file}`);
const over = ['js', 'css'].filter((k) => total(k) > LIMITS[k]);
console.log(
  `sign-in page: JS ${kb(total('js'))} of ${kb(LIMITS.js)}, CSS ${kb(total('css'))} of ${kb(LIMITS.css)} (gzip), ${kb(rows.reduce((s, r) => s + r.gzip, 0))} in all`,
);
if (over.length) {
  console.error(`Over budget: ${over.join(', ')}. See docs/performance.md "First page".`);
  process.exit(1);
}
