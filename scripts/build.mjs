#!/usr/bin/env node
// `npm start` builds only what changed (docs/performance.md "Assets"): the web app (Vite, with brotli and gzip
// copies) and the server (one ES module bundle run by plain Node, so starting does not transpile TypeScript).
// A SHA-256 of each part's input files is kept beside its output and compared before building.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');

function files(p) {
  const abs = path.join(root, p);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [abs];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => files(path.join(p, e.name)));
}

function stampOf(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(files).sort()) {
    hash.update(path.relative(root, file));
    hash.update(fs.readFileSync(file));
  }
  return hash.digest('hex');
}

async function buildIfChanged(name, { inputs, output, stampFile, build }) {
  const stamp = stampOf(inputs);
  if (fs.existsSync(output) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) {
    console.log(`${name} unchanged since the last build: not rebuilding.`);
    return;
  }
  await build();
  fs.writeFileSync(stampFile, stamp);
}

const clientDist = path.resolve(root, process.env.CLIENT_DIST ?? 'client/dist');
await buildIfChanged('Web app', {
  inputs: ['client/src', 'client/public', 'client/index.html', 'client/vite.config.ts', 'shared/src', 'package-lock.json'],
  output: path.join(clientDist, 'index.html'),
  stampFile: path.join(clientDist, '.build-stamp'),
  build: () => execFileSync('npx', ['vite', 'build', '--config', 'client/vite.config.ts'], { cwd: root, stdio: 'inherit' }),
});

const serverOut = path.join(root, 'server/dist/server.mjs');
await buildIfChanged('Server', {
  inputs: ['server/src', 'shared/src', 'package-lock.json', 'scripts/build.mjs'],
  output: serverOut,
  stampFile: path.join(root, 'server/dist/.build-stamp'),
  build: async () => {
    // The certificate reader's worker thread is an entry of its own, beside server.mjs (docs/ocr.md "Off the event loop").
    const entries = [
      ['server/src/server.ts', serverOut],
      ['server/src/modules/documents/extraction/reader-worker.ts', path.join(root, 'server/dist/reader-worker.mjs')],
    ];
    for (const [entry, outfile] of entries) {
      await esbuild.build({
        entryPoints: [path.join(root, entry)],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        sourcemap: true,
        logLevel: 'warning',
        // Packages stay in node_modules (native drivers, argon2); the workspace's own TypeScript is bundled.
        plugins: [
          {
            name: 'external-packages',
            setup(b) {
              b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@lm/') ? undefined : { path: args.path, external: true }));
            },
          },
        ],
      });
    }
    console.log(`Server built: ${path.relative(root, serverOut)}`);
  },
});
