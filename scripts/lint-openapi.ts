/**
 * `npm run lint:openapi`: writes the OpenAPI document the server publishes at /api/openapi.json (built from the app's
 * routers, no server started) to a temporary file and lints it with Spectral (`spectral:oas`, .spectral.yaml) and
 * Redocly (`recommended`). Exits non-zero on any error of either (warnings are printed, not fatal).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../server/src/openapi.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-openapi-'));
const file = path.join(dir, 'openapi.json');
fs.writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));

const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const run = (cmd: string, args: string[]) => spawnSync(bin(cmd), args, { stdio: 'inherit', cwd: root }).status ?? 1;

const spectral = run('spectral', ['lint', '--ruleset', path.join(root, '.spectral.yaml'), '--fail-severity', 'error', file]);
const redocly = run('redocly', ['lint', '--extends', 'recommended', file]);
fs.rmSync(dir, { recursive: true, force: true });
if (spectral !== 0 || redocly !== 0) {
  console.error(`lint:openapi failed (spectral ${spectral}, redocly ${redocly})`);
  process.exit(1);
}
