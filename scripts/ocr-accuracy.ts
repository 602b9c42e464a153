/**
 * npm run ocr:accuracy [-- <count>]: generates the certificate test set into a temp dir (make-certificates.ts),
 * reads every certificate with readCertificate, and prints per-field accuracy by kind and timings
 * (docs/ocr.md "Accuracy"). Offline: the OCR data comes from node_modules.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeCertificates, CATALOGUE, type CertificateKind, type CertificateTruth } from './make-certificates.ts';
import { bestCourse, readCertificate, stopExtraction, tokens } from '../server/src/modules/documents/extraction/index.ts';

const FIELDS = ['course_name', 'course_match', 'provider', 'hours', 'completion_date', 'holder_name', 'license_number'] as const;
type Field = (typeof FIELDS)[number];

const norm = (s: string | null | undefined) => (s ? tokens(s).join(' ') : '');
const normNumber = (s: string | null | undefined) => (s ?? '').replace(/[^A-Za-z0-9]/g, '').toUpperCase();

const count = Number(process.argv[2] ?? 24);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-certs-'));
const truth = await makeCertificates(dir, count);
const catalogue = CATALOGUE.map((c, i) => ({ ...c, course_id: i + 1 }));

type Tally = Record<Field, number> & { n: number; ms: number[]; cpu: number[]; failed: number };
const byKind = new Map<CertificateKind, Tally>();
const misses: string[] = [];

function tallyOf(kind: CertificateKind): Tally {
  let t = byKind.get(kind);
  if (!t) {
    t = { n: 0, ms: [], cpu: [], failed: 0, ...(Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>) };
    byKind.set(kind, t);
  }
  return t;
}

for (const t of truth as CertificateTruth[]) {
  const tally = tallyOf(t.kind);
  tally.n++;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const cpu = () => {
    const used = process.cpuUsage(cpuStarted);
    return (used.user + used.system) / 1000;
  };
  try {
    const r = await readCertificate(fs.readFileSync(path.join(dir, t.file)), t.mime);
    tally.ms.push(performance.now() - started);
    tally.cpu.push(cpu());
    const f = r.fields;
    const matched = bestCourse(f, catalogue).course;
    const ok: Record<Field, boolean> = {
      course_name: norm(f.course_name.value) === norm(t.course_name),
      course_match: matched?.course_name === t.course_name,
      provider: norm(f.provider.value) === norm(t.provider),
      hours: f.hours.value === t.hours,
      completion_date: f.completion_date.value === t.completion_date,
      holder_name: norm(f.holder_name.value) === norm(t.holder_name),
      license_number: normNumber(f.license_number.value) === normNumber(t.license_number),
    };
    for (const field of FIELDS) {
      if (ok[field]) tally[field]++;
      else {
        const got = field === 'course_match' ? matched?.course_name : (f as Record<string, { value: unknown }>)[field]?.value;
        const want = field === 'course_match' ? t.course_name : (t as unknown as Record<string, unknown>)[field];
        misses.push(`${t.file} (${t.variant}) ${field}: read ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
      }
    }
  } catch (err) {
    tally.ms.push(performance.now() - started);
    tally.cpu.push(cpu());
    tally.failed++;
    misses.push(`${t.file} (${t.variant}) failed: ${(err as Error).message}`);
  }
}
await stopExtraction();

const pct = (a: number, n: number) => (n ? `${Math.round((100 * a) / n)}%` : '-');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const header = ['kind', 'n', ...FIELDS, 'failed', 'median ms', 'max ms', 'median CPU ms'];
console.log(`| ${header.join(' | ')} |`);
console.log(`|${header.map(() => '---').join('|')}|`);
const all: Tally = { n: 0, ms: [], cpu: [], failed: 0, ...(Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>) };
for (const [kind, t] of byKind) {
  console.log(
    `| ${kind} | ${t.n} | ${FIELDS.map((f) => pct(t[f], t.n)).join(' | ')} | ${t.failed} | ${Math.round(median(t.ms))} | ${Math.round(Math.max(...t.ms))} | ${Math.round(median(t.cpu))} |`,
  );
  all.n += t.n;
  all.failed += t.failed;
  all.ms.push(...t.ms);
  all.cpu.push(...t.cpu);
  for (const f of FIELDS) all[f] += t[f];
}
console.log(
  `| all | ${all.n} | ${FIELDS.map((f) => pct(all[f], all.n)).join(' | ')} | ${all.failed} | ${Math.round(median(all.ms))} | ${Math.round(Math.max(...all.ms))} | ${Math.round(median(all.cpu))} |`,
);
console.log(
  `\n${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`,
);
if (misses.length) console.log(`\nMisses:\n${misses.map((m) => `  ${m}`).join('\n')}`);
fs.rmSync(dir, { recursive: true, force: true });
