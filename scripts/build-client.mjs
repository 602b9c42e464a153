#!/usr/bin/env node
// `npm start` builds the web app only when its sources changed since the last build (docs/performance.md
// "Assets"): a SHA-256 of every input file is kept in the build folder and compared before building.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.resolve(root, process.env.CLIENT_DIST ?? 'client/dist');
const stampFile = path.join(dist, '.build-stamp');
const inputs = ['client/src', 'client/public', 'client/index.html', 'client/vite.config.ts', 'shared/src', 'package-lock.json'];

function files(p) {
  const abs = path.join(root, p);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [abs];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => files(path.join(p, e.name)));
}

const hash = createHash('sha256');
for (const file of inputs.flatMap(files).sort()) {
  hash.update(path.relative(root, file));
  hash.update(fs.readFileSync(file));
}
const stamp = hash.digest('hex');

if (fs.existsSync(path.join(dist, 'index.html')) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) {
  console.log('Web app unchanged since the last build: not rebuilding.');
} else {
  execFileSync('npx', ['vite', 'build', '--config', 'client/vite.config.ts'], { cwd: root, stdio: 'inherit' });
  fs.writeFileSync(stampFile, stamp);
}
