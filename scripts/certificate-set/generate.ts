/**
 * Generates the realistic certificate set (docs/ocr.md "Test set") into test-data/certificates/ (or <dir>):
 * certificates in 11 layouts plus fax-covered and transcript layouts, rendered as Chromium PDFs, pdf-lib typed
 * PDFs, phone photos, greyscale and 1-bit scans and image-only PDFs, and the negatives (another person's
 * certificate, invoices, letters that are not certificates, blank pages), with truth.json. Deterministic (seeded).
 *
 *   npx tsx scripts/certificate-set/generate.ts [dir]
 */
import fs from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import {
  CERTIFICATE_LAYOUTS,
  faxCover,
  htmlDocument,
  invoice,
  otherLetter,
  STATE_NAMES,
  transcript,
  type CertificateLayout,
  type Course,
  type DocData,
  type Layout,
} from './layouts.ts';
import { blankScan, fontFaces, imagePdf, phonePhoto, Renderer, scan } from './render.ts';
import { CATALOGUE, OUT_OF_CATALOGUE, OWNERS, STRANGERS, TODAY, rng, type CatalogueCourse, type Owner } from './world.ts';

export type DocumentKind = 'certificate' | 'transcript' | 'invoice' | 'not_certificate' | 'blank';
export type Rendering =
  'chromium_pdf' | 'typed_pdf' | 'photo' | 'scan_grey' | 'scan_1bit' | 'scanned_pdf' | 'fax_pdf' | 'fax_scan' | 'blank_scan' | 'blank_pdf';

export interface ExpectedFields {
  course_name: string | null;
  provider: string | null;
  hours: number | null;
  completion_date: string | null;
  holder_name: string | null;
  license_number: string | null;
  state: string | null;
  approval_number: string | null;
}

export interface TruthDocument {
  file: string;
  mime: string;
  kind: DocumentKind;
  /** Why the document must be refused or flagged, when it must. */
  negative: null | 'other_person' | 'invoice' | 'not_certificate' | 'blank';
  layout: string;
  rendering: Rendering;
  /** How it was made (angles, dpi, quality), for the report. */
  variant: string;
  split: 'dev' | 'holdout';
  /** The values printed on the document (null: not printed); a negative's are what it prints, never a completion date. */
  expected: ExpectedFields;
  /** The catalogue course the reading should suggest (null: not in the catalogue, nothing to suggest). */
  course_id: number | null;
  /** The uploader: the owner the document is uploaded for. */
  owner: Owner;
  /** A transcript's courses, in print order. */
  courses: Array<{ course_name: string; hours: number; completion_date: string; approval_number: string | null; course_id: number | null }>;
}

export interface TruthFile {
  today: string;
  catalogue: CatalogueCourse[];
  documents: TruthDocument[];
}

const SIGNERS = ['Patricia Alvarez', 'Thomas Reed', 'Grace Holloway', 'Daniel Okoro', 'Helen Sato'];

const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const minDate = (a: string, b: string) => (a < b ? a : b);

interface Plan {
  kind: DocumentKind;
  negative: TruthDocument['negative'];
  layout: CertificateLayout | 'transcript' | 'invoice' | 'renewal_letter' | 'approval_letter' | 'blank';
  rendering: Rendering;
  course: Course & { course_id: number | null };
  owner: Owner;
  stranger?: (typeof STRANGERS)[number];
  transcriptCourses?: Array<Course & { course_id: number | null }>;
}

const fromCatalogue = (id: number): Course & { course_id: number | null } => {
  const c = CATALOGUE.find((x) => x.course_id === id)!;
  return {
    name: c.course_name,
    provider: c.provider,
    hours: c.ce_hours,
    approval_number: c.approval_number,
    approval_state: c.approval_state,
    course_id: c.course_id,
  };
};
const outside = (i: number): Course & { course_id: number | null } => {
  const c = OUT_OF_CATALOGUE[i]!;
  return {
    name: c.course_name,
    provider: c.provider,
    hours: c.ce_hours,
    approval_number: c.approval_number,
    approval_state: c.approval_state,
    course_id: null,
  };
};
const owner = (id: number) => OWNERS.find((o) => o.user_id === id)!;

/** The state a layout is tied to, and the courses and owners it draws from. */
const LAYOUT_POOL: Record<CertificateLayout, { courses: Array<() => Course & { course_id: number | null }>; owners: number[] }> = {
  tx_form: { courses: [101, 102, 104, 105, 107].map((id) => () => fromCatalogue(id)).concat([() => outside(1)]), owners: [1, 4, 7] },
  fl_topics: { courses: [108, 109, 110, 106].map((id) => () => fromCatalogue(id)).concat([() => outside(2)]), owners: [2, 5, 7] },
  ca_dre: { courses: [112, 113, 114, 115].map((id) => () => fromCatalogue(id)), owners: [3, 6, 8] },
  ornate_online: { courses: [116, 117, 118, 111].map((id) => () => fromCatalogue(id)).concat([() => outside(3)]), owners: [1, 2, 3, 5, 6] },
  association_letter: { courses: [() => fromCatalogue(120)], owners: [1, 4, 7] },
  table_row: { courses: [103, 119, 104, 111].map((id) => () => fromCatalogue(id)), owners: [1, 4, 7, 2] },
  two_column: { courses: [113, 105, 106, 117].map((id) => () => fromCatalogue(id)).concat([() => outside(0)]), owners: [3, 6, 1, 5] },
  label_above: { courses: [118, 116, 114, 102].map((id) => () => fromCatalogue(id)), owners: [6, 8, 4, 1] },
  diploma: { courses: [117, 119, 116, 109].map((id) => () => fromCatalogue(id)), owners: [4, 5, 8, 2] },
  attendance: { courses: [107, 110, 120, 112].map((id) => () => fromCatalogue(id)), owners: [7, 2, 1, 3] },
  record: { courses: [103, 111, 115, 101].map((id) => () => fromCatalogue(id)), owners: [4, 5, 3, 7] },
};

/** The owner's license in the course's state (else the first). */
const licenseFor = (o: Owner, state: string | null) => o.licenses.find((l) => l.state === state) ?? o.licenses[0]!;

function plans(): Plan[] {
  const out: Plan[] = [];
  const renderings: Rendering[] = [
    'chromium_pdf',
    'photo',
    'typed_pdf',
    'scan_grey',
    'photo',
    'chromium_pdf',
    'scan_1bit',
    'photo',
    'scanned_pdf',
    'typed_pdf',
    'fax_pdf',
    'photo',
    'fax_scan',
  ];
  const layouts = Object.keys(CERTIFICATE_LAYOUTS) as CertificateLayout[];
  let k = 0;
  for (const layout of layouts) {
    const pool = LAYOUT_POOL[layout];
    for (let j = 0; j < 4; j++) {
      const course = pool.courses[(j + (j === 3 ? pool.courses.length - 4 : 0)) % pool.courses.length]!();
      let o = owner(pool.owners[j % pool.owners.length]!);
      // A course tied to a state goes to someone licensed there.
      if (course.approval_state && !o.licenses.some((l) => l.state === course.approval_state))
        o = OWNERS.find((x) => x.licenses.some((l) => l.state === course.approval_state))!;
      out.push({ kind: 'certificate', negative: null, layout, rendering: renderings[k++ % renderings.length]!, course, owner: o });
    }
  }
  // Another person's certificate: uploaded by someone of the same state.
  const strangerLayouts: Array<[CertificateLayout, number, Rendering, number]> = [
    ['tx_form', 0, 'chromium_pdf', 101],
    ['fl_topics', 1, 'photo', 108],
    ['ca_dre', 2, 'typed_pdf', 113],
    ['table_row', 3, 'scan_grey', 103],
  ];
  for (const [layout, s, rendering, courseId] of strangerLayouts) {
    const stranger = STRANGERS[s]!;
    const uploader = OWNERS.find((o) => o.licenses[0]!.state === stranger.state)!;
    out.push({
      kind: 'certificate',
      negative: 'other_person',
      layout,
      rendering,
      course: fromCatalogue(courseId),
      owner: uploader,
      stranger,
    });
  }
  // Transcripts of 3-6 courses.
  const extra = (name: string, provider: string, hours: number, approval: string | null, state: string | null) => ({
    name,
    provider,
    hours,
    approval_number: approval,
    approval_state: state,
    course_id: null,
  });
  const transcripts: Array<[number, Rendering, Array<Course & { course_id: number | null }>]> = [
    [1, 'chromium_pdf', [101, 102, 103].map(fromCatalogue)],
    [4, 'photo', [104, 105, 107, 119].map(fromCatalogue).map((c) => ({ ...c, provider: 'Realty Academy of Texas' }))],
    [
      2,
      'typed_pdf',
      [...[108, 109, 110].map(fromCatalogue), extra('Florida Property Tax Basics', 'Sunshine Realty Institute', 2, '0029980', 'FL')],
    ],
    [
      6,
      'scan_grey',
      [
        ...[112, 113, 114, 115].map(fromCatalogue),
        extra('California Finance Update', 'Golden State CE Online', 3, '5112-0399', 'CA'),
        extra('Mold and Indoor Air Quality', 'Golden State CE Online', 2, '5112-0401', 'CA'),
      ],
    ],
    [8, 'scanned_pdf', [116, 117, 118].map(fromCatalogue)],
  ];
  for (const [ownerId, rendering, courses] of transcripts)
    out.push({
      kind: 'transcript',
      negative: null,
      layout: 'transcript',
      rendering,
      course: { ...courses[0]!, provider: ownerId === 4 ? 'Realty Academy of Texas' : courses[0]!.provider },
      owner: owner(ownerId),
      transcriptCourses: courses,
    });
  // Invoices and receipts for a course.
  const invoices: Array<[number, Rendering, number]> = [
    [1, 'chromium_pdf', 104],
    [3, 'photo', 114],
    [5, 'typed_pdf', 111],
    [7, 'scan_1bit', 103],
  ];
  for (const [ownerId, rendering, courseId] of invoices)
    out.push({
      kind: 'invoice',
      negative: 'invoice',
      layout: 'invoice',
      rendering,
      course: fromCatalogue(courseId),
      owner: owner(ownerId),
    });
  // Letters that are not certificates.
  const letters: Array<[number, Rendering, 'renewal_letter' | 'approval_letter', number]> = [
    [1, 'chromium_pdf', 'renewal_letter', 101],
    [4, 'typed_pdf', 'approval_letter', 104],
    [7, 'photo', 'renewal_letter', 102],
    [6, 'scan_grey', 'approval_letter', 112],
  ];
  for (const [ownerId, rendering, layout, courseId] of letters)
    out.push({
      kind: 'not_certificate',
      negative: 'not_certificate',
      layout,
      rendering,
      course: fromCatalogue(courseId),
      owner: owner(ownerId),
    });
  // Blank scanned pages.
  for (const [ownerId, rendering] of [
    [2, 'blank_scan'],
    [5, 'blank_pdf'],
    [8, 'blank_scan'],
  ] as Array<[number, Rendering]>)
    out.push({ kind: 'blank', negative: 'blank', layout: 'blank', rendering, course: fromCatalogue(101), owner: owner(ownerId) });
  return out;
}

/** Half dev, half holdout, by seed, within each group (so both splits hold every kind and negative). */
function splits(ps: Plan[], next: () => number): Array<'dev' | 'holdout'> {
  const groups = new Map<string, number[]>();
  ps.forEach((p, i) => {
    const key = p.negative ?? p.kind;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const out: Array<'dev' | 'holdout'> = new Array(ps.length);
  let flip = 0;
  for (const idx of groups.values()) {
    const shuffled = idx.map((i) => [next(), i] as const).sort((a, b) => a[0] - b[0]);
    shuffled.forEach(([, i], n) => (out[i] = (n + flip) % 2 === 0 ? 'dev' : 'holdout'));
    flip += idx.length % 2;
  }
  return out;
}

export async function generate(dir: string, seed = 2026): Promise<TruthFile> {
  fs.mkdirSync(dir, { recursive: true });
  const next = rng(seed);
  const ps = plans();
  const split = splits(ps, next);
  const faces = fontFaces();
  const renderer = new Renderer();
  await renderer.open();
  const documents: TruthDocument[] = [];
  let photoIndex = 0;
  try {
    for (const [i, p] of ps.entries()) {
      const lic = licenseFor(p.owner, p.course.approval_state);
      const holder = p.stranger
        ? { first: p.stranger.first_name, last: p.stranger.last_name }
        : { first: p.owner.first_name, last: p.owner.last_name };
      const licenseNumber = p.stranger ? p.stranger.license_number : lic.license_number;
      const state = p.stranger ? p.stranger.state : lic.state;
      // A completion date inside the license's cycle, before today.
      const from = lic.issue_date! > '2025-12-01' ? lic.issue_date! : '2025-12-01';
      const span = (Date.parse('2026-11-20') - Date.parse(from)) / 86_400_000;
      const completion = addDays(from, 3 + Math.floor(next() * (span - 3)));
      const tc = (p.transcriptCourses ?? []).map((c, n) => ({ ...c, date: addDays(completion, -n * (5 + Math.floor(next() * 30))) }));
      const d: DocData = {
        holder,
        license_number: licenseNumber,
        state,
        course: p.course,
        completion_date: completion,
        start_date: addDays(completion, -(1 + Math.floor(next() * 14))),
        order_date: addDays(completion, -(3 + Math.floor(next() * 40))),
        printed_date: minDate(addDays(completion, 1 + Math.floor(next() * 20)), TODAY),
        letter_date: minDate(addDays(completion, 2 + Math.floor(next() * 20)), TODAY),
        courses: tc,
        certificate_id: `${String.fromCharCode(65 + (i % 26))}${100000 + Math.floor(next() * 899999)}`,
        signer: SIGNERS[i % SIGNERS.length]!,
        variant: i,
      };
      let layout: Layout | null;
      if (p.layout === 'transcript') layout = transcript(d);
      else if (p.layout === 'invoice') layout = invoice(d);
      else if (p.layout === 'renewal_letter') layout = otherLetter({ ...d, variant: 0 });
      else if (p.layout === 'approval_letter') layout = otherLetter({ ...d, variant: 1 });
      else if (p.layout === 'blank') layout = null;
      else {
        layout = CERTIFICATE_LAYOUTS[p.layout](d);
        if (p.rendering === 'fax_pdf' || p.rendering === 'fax_scan') layout = faxCover(d, layout);
      }
      const base = `${String(i + 1).padStart(2, '0')}-${p.layout.replace(/_/g, '-')}-${p.rendering.replace(/_/g, '-')}`;
      let bytes: Buffer;
      let mime: string;
      let variant = '';
      if (!layout) {
        const white = await blankScan(1275, 1650, next);
        if (p.rendering === 'blank_pdf') {
          bytes = await imagePdf([{ bytes: white, mime: 'image/jpeg' }], false);
          mime = 'application/pdf';
          variant = 'blank page scanned at 150 dpi, image-only PDF';
        } else {
          bytes = white;
          mime = 'image/jpeg';
          variant = 'blank page scanned at 150 dpi, JPEG';
        }
      } else {
        const html = htmlDocument(layout, faces);
        switch (p.rendering) {
          case 'chromium_pdf':
          case 'fax_pdf':
            bytes = await renderer.chromiumPdf(html, layout);
            mime = 'application/pdf';
            variant = `Chromium PDF, ${layout.pages.length} page(s)`;
            break;
          case 'typed_pdf':
            bytes = await renderer.typedPdf(html, layout);
            mime = 'application/pdf';
            variant = 'pdf-lib, standard fonts';
            break;
          case 'photo': {
            const dpi = 100 + Math.round(next() * 50);
            const [shot] = await renderer.screenshots(html, layout, dpi * 1.3);
            const quarters = [0, 0, 90, 0, 180, 0, 270, 0, 0, 90, 0, 0, 180, 0] as const;
            const quarter = quarters[photoIndex % quarters.length]!;
            const o = {
              longSide: Math.round(11 * dpi * 1.18),
              perspective: 0.015 + next() * 0.04,
              tilt: (next() - 0.5) * 8,
              quarter,
              shade: 0.3 + next() * 0.6,
              noise: 0.015 + next() * 0.025,
              blur: 0.4 + next() * 0.6,
              quality: 50 + Math.round(next() * 25),
              exif: photoIndex === 9,
            };
            photoIndex++;
            bytes = await phonePhoto(shot!, o, next);
            mime = 'image/jpeg';
            variant = `photo ~${dpi} dpi, ${o.exif ? `stored turned ${quarter}° with EXIF orientation (upright when applied)` : `turned ${quarter}°`} + ${o.tilt.toFixed(1)}°, perspective ${o.perspective.toFixed(3)}, light ${o.shade.toFixed(2)}, JPEG q${o.quality}`;
            break;
          }
          case 'scan_grey':
          case 'scan_1bit':
          case 'scanned_pdf':
          case 'fax_scan': {
            const oneBit = p.rendering === 'scan_1bit' || p.rendering === 'fax_scan';
            const dpi = oneBit ? 200 : 150;
            const shots = await renderer.screenshots(html, layout, dpi);
            const skew = (next() - 0.5) * 3;
            const opts = {
              skew,
              noise: 0.01 + next() * 0.015,
              blur: oneBit ? 0.5 : 0.7,
              threshold: oneBit ? 150 + Math.round(next() * 40) : undefined,
              upsideDown: p.rendering === 'scan_grey' && i % 3 === 0,
            };
            const images = [];
            for (const shot of shots) images.push(await scan(shot, opts, next));
            if (p.rendering === 'scanned_pdf' || p.rendering === 'fax_scan') {
              bytes = await imagePdf(images, layout.landscape);
              mime = 'application/pdf';
            } else {
              bytes = images[0]!.bytes;
              mime = images[0]!.mime;
            }
            variant = `${oneBit ? '1-bit' : 'greyscale'} scan ${dpi} dpi, skew ${skew.toFixed(1)}°${opts.upsideDown ? ', upside down' : ''}${mime === 'application/pdf' ? `, image-only PDF of ${images.length} page(s)` : ''}`;
            break;
          }
          default:
            throw new Error(`no rendering ${p.rendering}`);
        }
      }
      const ext = mime === 'application/pdf' ? 'pdf' : mime === 'image/png' ? 'png' : 'jpg';
      const file = `${base}.${ext}`;
      fs.writeFileSync(path.join(dir, file), bytes);
      const printed = layout?.printed;
      const isDoc = p.kind === 'certificate' || p.kind === 'transcript';
      // What the page prints. For a negative these are the values as printed (an invoice's course and hours), which a
      // value shown green must equal; no negative prints a completion date.
      const expected: ExpectedFields = {
        course_name: printed && printed.course !== false ? p.course.name : null,
        provider: printed?.provider ? p.course.provider : null,
        hours: printed && printed.hours !== false ? p.course.hours : null,
        completion_date: printed && printed.completion_date !== false ? (p.kind === 'transcript' ? tc[0]!.date : completion) : null,
        holder_name: printed?.holder ? `${holder.first} ${holder.last}` : null,
        license_number: printed?.license_number ? licenseNumber : null,
        // A page that names no state still names one when the course title does ("Business Ethics for Florida Licensees").
        state:
          printed?.state ??
          (isDoc && p.course.approval_state && p.course.name.includes(STATE_NAMES[p.course.approval_state] ?? '?')
            ? p.course.approval_state
            : null),
        approval_number: printed?.approval_number ? p.course.approval_number : null,
      };
      documents.push({
        file,
        mime,
        kind: p.kind,
        negative: p.negative,
        layout: p.layout,
        rendering: p.rendering,
        variant,
        split: split[i]!,
        expected,
        course_id: isDoc ? p.course.course_id : null,
        owner: p.owner,
        courses: tc.map((c) => ({
          course_name: c.name,
          hours: c.hours,
          completion_date: c.date,
          approval_number: c.approval_number,
          course_id: c.course_id,
        })),
      });
      process.stdout.write('.');
    }
  } finally {
    await renderer.close();
  }
  const truth: TruthFile = { today: TODAY, catalogue: CATALOGUE, documents };
  const truthPath = path.join(dir, 'truth.json');
  // In the repository's own format, so `npm run lint` (prettier --check .) passes on the committed set.
  const options = (await prettier.resolveConfig(truthPath)) ?? {};
  fs.writeFileSync(truthPath, await prettier.format(JSON.stringify(truth), { ...options, parser: 'json' }));
  process.stdout.write('\n');
  return truth;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const dir = process.argv[2] ?? path.join(import.meta.dirname, '../../test-data/certificates');
  // Old documents go (a changed plan renames files); the fonts stay.
  if (fs.existsSync(dir))
    for (const f of fs.readdirSync(dir)) if (/\.(pdf|png|jpg)$/.test(f) || f === 'truth.json') fs.rmSync(path.join(dir, f));
  const t = await generate(dir);
  const size = t.documents.reduce((s, d) => s + fs.statSync(path.join(dir, d.file)).size, 0);
  console.log(`${t.documents.length} documents and truth.json in ${dir} (${(size / 1e6).toFixed(1)} MB)`);
}
