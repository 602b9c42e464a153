/**
 * The certificate layouts of the realistic set (docs/ocr.md "Test set"), as HTML pages of US Letter size that
 * Chromium prints or photographs. Modelled on what CE providers really issue: state forms (Texas TREC, Florida
 * DBPR, California DRE styles), online schools with ornate borders and script names, association letters in prose,
 * tables, label-above-value cards, two columns, diplomas dated "this 3rd day of", fax cover sheets, transcripts,
 * and the negatives (invoices, letters that are not certificates).
 */

export interface Person {
  first: string;
  last: string;
}

export interface Course {
  name: string;
  provider: string;
  hours: number;
  approval_number: string | null;
  approval_state: string | null;
}

export interface DocData {
  holder: Person;
  license_number: string | null;
  /** The licensee's state (printed on state forms). */
  state: string;
  course: Course;
  completion_date: string;
  /** Other dates on the page (never the completion date). */
  start_date: string;
  order_date: string;
  printed_date: string;
  letter_date: string;
  courses: Array<Course & { date: string }>;
  certificate_id: string;
  signer: string;
  /** 0..n: picks among variants inside a layout (fonts, date styles). */
  variant: number;
}

/** What a layout prints, for the truth: fields not printed are expected to be read as nothing. */
export interface Printed {
  provider: boolean;
  license_number: boolean;
  approval_number: boolean;
  /** The state the certificate names (its approval or the license), or null. */
  state: string | null;
  holder: boolean;
  /** Course name, hours, completion date: printed unless false (an invoice prints no completion date). */
  course?: boolean;
  hours?: boolean;
  completion_date?: boolean;
}

export interface Layout {
  pages: string[];
  landscape: boolean;
  printed: Printed;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const STATE_NAMES: Record<string, string> = { TX: 'Texas', FL: 'Florida', CA: 'California' };
const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
];

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

export type DateStyle = 'long' | 'us' | 'us_short' | 'iso' | 'dmy' | 'abbr' | 'ordinal' | 'ordinal_of';

export function formatDate(iso: string, style: DateStyle): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const month = MONTHS[m - 1]!;
  switch (style) {
    case 'long':
      return `${month} ${d}, ${y}`;
    case 'us':
      return `${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}/${y}`;
    case 'us_short':
      return `${m}/${d}/${y}`;
    case 'iso':
      return iso;
    case 'dmy':
      return `${d} ${month.slice(0, 3)} ${y}`;
    case 'abbr':
      return `${month.slice(0, 3)}. ${ordinal(d)}, ${y}`;
    case 'ordinal':
      return `this ${ordinal(d)} day of ${month}, ${y}`;
    default:
      return `${ordinal(d)} of ${month}, ${y}`;
  }
}

/** "three (3)" / "seven and one-half (7.5)". */
export function hoursInWords(h: number): string {
  const whole = Math.floor(h);
  const half = h - whole >= 0.5;
  return `${WORDS[whole] ?? String(whole)}${half ? ' and one-half' : ''} (${h})`;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const full = (p: Person) => `${p.first} ${p.last}`;
const hoursFixed = (h: number) => h.toFixed(1);

const SERIFS = ['DejaVu Serif', 'Liberation Serif', 'Playfair Display'];
const SANS = ['Liberation Sans', 'DejaVu Sans', 'Liberation Sans Narrow'];

function page(landscape: boolean, css: string, body: string): string {
  const [w, h] = landscape ? [1056, 816] : [816, 1056];
  return `<div class="page" style="width:${w}px;height:${h}px;position:relative;overflow:hidden;box-sizing:border-box;${css}">${body}</div>`;
}

// ---------------------------------------------------------------------------------------------------------------
// Certificates

/** 1. Texas state form: boxes, label above value, provider and course numbers, 22 TAC prose, several dates. */
function txForm(d: DocData): Layout {
  const f = SANS[d.variant % SANS.length]!;
  const box = (label: string, value: string, w = '48%') =>
    `<div style="display:inline-block;vertical-align:top;width:${w};border:1px solid #333;margin:0 1% 10px 0;padding:4px 8px;box-sizing:border-box;min-height:58px"><div style="font-size:11px;color:#333">${label}</div><div style="font-size:17px;margin-top:4px">${esc(value)}</div></div>`;
  const body = `
  <div style="text-align:center;font-size:22px;font-weight:bold">TEXAS REAL ESTATE COMMISSION</div>
  <div style="text-align:center;font-size:13px">P.O. Box 12188, Austin, Texas 78711-2188</div>
  <div style="text-align:center;font-size:20px;margin:22px 0 6px">Continuing Education Course Completion Certificate</div>
  <div style="text-align:center;font-size:12px;margin-bottom:26px">Form CE-CC (rev. 05/2025)</div>
  ${box('Licensee Name', `${d.holder.last.toUpperCase()}, ${d.holder.first.toUpperCase()}`)}${box('TREC License Number', d.license_number ?? '')}
  ${box('Course Title', d.course.name, '97%')}
  ${box('Course Provider', d.course.provider)}${box('Provider Number', '0' + d.certificate_id.slice(-3))}
  ${box('TREC Course Number', d.course.approval_number ?? '')}${box('Credit Hours', hoursFixed(d.course.hours))}
  ${box('Course Start Date', formatDate(d.start_date, 'us'))}${box('Course Completion Date', formatDate(d.completion_date, 'us'))}
  <p style="font-size:13px;line-height:1.5;margin-top:26px">The course listed above was offered in accordance with 22 TAC §535.72 and approved by the
  Texas Real Estate Commission for mandatory continuing education credit. The provider certifies that the licensee named above
  attended the classroom hours required and passed the final examination, if any.</p>
  <div style="margin-top:60px;font-size:14px">______________________________<br>${esc(d.signer)}, Education Coordinator</div>
  <div style="position:absolute;bottom:40px;left:60px;font-size:11px">Date printed: ${formatDate(d.printed_date, 'us')}</div>`;
  return {
    pages: [page(false, `padding:60px;font-family:'${f}';color:#111`, body)],
    landscape: false,
    printed: { provider: true, license_number: true, approval_number: true, state: 'TX', holder: true },
  };
}

/** 2. Florida DBPR style: "BROWN, JAMES", hours split by topic with a total, reported-to-DBPR date. */
function flTopics(d: DocData): Layout {
  const f = SERIFS[d.variant % 2]!;
  const h = d.course.hours;
  const topics: Array<[string, number]> =
    h >= 14
      ? [
          ['Core Law', 3],
          ['Ethics and Business Practices', 3],
          ['Specialty Credit', h - 6],
        ]
      : h >= 3
        ? [
            ['Core Law', h - 1],
            ['Ethics', 1],
          ]
        : [['Specialty', h]];
  const rows = topics
    .map(([t, n]) => `<tr><td style="padding:4px 16px 4px 0">${t}</td><td style="text-align:right">${hoursFixed(n)}</td></tr>`)
    .join('');
  const body = `
  <div style="font-size:26px;font-weight:bold;color:#0b4a6f">${esc(d.course.provider)}</div>
  <div style="font-size:12px;color:#555">Florida DBPR Real Estate School Permit ZH100${d.certificate_id.slice(-4)} · 1200 Biscayne Blvd, Miami, FL 33132</div>
  <hr style="border:0;border-top:3px solid #0b4a6f;margin:14px 0 30px">
  <div style="text-align:center;font-size:28px;margin-bottom:30px">Certificate of Course Completion</div>
  <table style="font-size:16px;line-height:1.7">
   <tr><td style="width:230px">Licensee:</td><td>${esc(d.holder.last.toUpperCase())}, ${esc(d.holder.first.toUpperCase())}</td></tr>
   <tr><td>FL License #:</td><td>${esc(d.license_number ?? '')}</td></tr>
   <tr><td>Course:</td><td>${esc(d.course.name)}</td></tr>
   <tr><td>DBPR Course #:</td><td>${esc(d.course.approval_number ?? '')}</td></tr>
   <tr><td>Completion Date:</td><td>${formatDate(d.completion_date, 'us')}</td></tr>
  </table>
  <div style="margin:26px 0 6px;font-size:16px;font-weight:bold">Hours by topic</div>
  <table style="font-size:15px">${rows}<tr><td style="padding-top:6px;font-weight:bold">Total Hours</td><td style="text-align:right;font-weight:bold;padding-top:6px">${hoursFixed(h)}</td></tr></table>
  <p style="font-size:13px;margin-top:30px">Course completion was reported to the Florida Department of Business and Professional Regulation on
  ${formatDate(d.printed_date, 'us')}. Please retain this certificate for five years.</p>
  <div style="margin-top:50px;font-family:'Dancing Script';font-size:30px">${esc(d.signer)}</div>
  <div style="font-size:13px">${esc(d.signer)}, Permit Holder</div>`;
  return {
    pages: [page(false, `padding:64px;font-family:'${f}';color:#111`, body)],
    landscape: false,
    printed: { provider: true, license_number: true, approval_number: true, state: 'FL', holder: true },
  };
}

/** 3. California DRE style: "DRE License ID:", exam date, completion date, printed date. */
function caDre(d: DocData): Layout {
  const f = SANS[(d.variant + 1) % SANS.length]!;
  const line = (label: string, value: string) =>
    `<div style="margin:7px 0"><span style="display:inline-block;width:260px;color:#333">${label}</span><b>${esc(value)}</b></div>`;
  const body = `
  <div style="display:flex;justify-content:space-between;align-items:flex-end"><div style="font-size:24px;font-weight:bold;color:#8a1c1c">${esc(d.course.provider)}</div><div style="font-size:12px">DRE Sponsor ID 6${d.certificate_id.slice(-4)}</div></div>
  <div style="font-size:12px;color:#555;border-bottom:2px solid #8a1c1c;padding-bottom:8px">Approved by the California Department of Real Estate</div>
  <div style="text-align:center;font-size:26px;margin:34px 0 26px">CERTIFICATE OF COMPLETION</div>
  <div style="font-size:15px">
  ${line('Licensee Name:', full(d.holder))}
  ${line('DRE License ID:', d.license_number ?? '')}
  ${line('Course Title:', d.course.name)}
  ${line('DRE Course Approval Number:', d.course.approval_number ?? '')}
  ${line('Credit Hours:', String(d.course.hours))}
  ${line('Final Exam Date:', formatDate(d.completion_date, d.variant % 2 ? 'long' : 'us'))}
  ${line('Course Completion Date:', formatDate(d.completion_date, d.variant % 2 ? 'long' : 'us'))}
  ${line('Date Printed:', formatDate(d.printed_date, d.variant % 2 ? 'long' : 'us'))}
  </div>
  <p style="font-size:12px;margin-top:30px;line-height:1.5">This course is approved for continuing education credit by the California Department of Real Estate.
  However, this approval does not constitute an endorsement of the views or opinions which are expressed by the course sponsor,
  instructors, authors or lecturers. Keep this certificate for four years (10 CCR §3011).</p>
  <div style="margin-top:40px;font-size:13px">Certificate No. ${esc(d.certificate_id)}</div>`;
  return {
    pages: [page(false, `padding:64px;font-family:'${f}';color:#111`, body)],
    landscape: false,
    printed: { provider: true, license_number: true, approval_number: true, state: 'CA', holder: true },
  };
}

/** 4. Online school, ornate border, script name, two-line title, hours in words, order date, signature. */
function ornate(d: DocData): Layout {
  const body = `
  <div style="position:absolute;inset:22px;border:10px double #9a7b2f"></div>
  <div style="position:absolute;inset:44px;border:2px solid #c9a94e;outline:1px dashed #c9a94e;outline-offset:-8px"></div>
  <div style="position:absolute;left:0;right:0;top:86px;text-align:center">
   <div style="font-family:'Playfair Display';font-size:44px;letter-spacing:2px;color:#3b2f10">Certificate of Completion</div>
   <div style="font-family:'DejaVu Serif';font-size:17px;margin-top:22px">This certifies that</div>
   <div style="font-family:'Great Vibes';font-size:58px;color:#1d2a5a;margin-top:6px">${esc(full(d.holder))}</div>
   <div style="font-family:'DejaVu Serif';font-size:17px;margin-top:8px">has successfully completed the online course</div>
   <div style="font-family:'Playfair Display';font-style:italic;font-size:30px;width:${d.course.name.length > 24 ? 470 : 760}px;margin:10px auto 0;line-height:1.25">${esc(d.course.name)}</div>
   <div style="font-family:'DejaVu Serif';font-size:16px;margin-top:14px">for ${hoursInWords(d.course.hours)} hours of continuing education credit</div>
   <div style="font-family:'DejaVu Serif';font-size:16px;margin-top:6px">Completed on ${formatDate(d.completion_date, 'long')}</div>
  </div>
  <div style="position:absolute;left:110px;bottom:92px;width:300px;text-align:center;font-family:'DejaVu Serif';font-size:13px">
   <div style="font-family:'Dancing Script';font-size:30px;border-bottom:1px solid #333">${esc(d.signer)}</div>${esc(d.signer)}<br>Director of Education, ${esc(d.course.provider)}</div>
  <div style="position:absolute;right:110px;bottom:92px;width:300px;text-align:right;font-family:'DejaVu Sans';font-size:11px;color:#444">
   Order #${esc(d.certificate_id)}<br>Order date: ${formatDate(d.order_date, 'long')}<br>Certificate issued ${formatDate(d.printed_date, 'long')}</div>`;
  return {
    pages: [page(true, 'background:#fffdf5', body)],
    landscape: true,
    printed: { provider: true, license_number: false, approval_number: false, state: null, holder: true },
  };
}

/** 5. Association letter in prose: letter date first, ordinal completion date, hours in words. */
function associationLetter(d: DocData): Layout {
  const f = SERIFS[d.variant % 2]!;
  const body = `
  <div style="font-size:24px;font-weight:bold;color:#123">${esc(d.course.provider)}</div>
  <div style="font-size:12px;color:#555;margin-bottom:40px">3693 Southwest Freeway · Houston, Texas 77027 · (713) 629-1900</div>
  <div>${formatDate(d.letter_date, 'long')}</div>
  <div style="margin:26px 0">${d.holder.first === 'Maria' || d.holder.first === 'Priya' || d.holder.first === 'Amelia' || d.holder.first === 'Lena' || d.holder.first === 'Danielle' || d.holder.first === 'Sofia' ? 'Ms.' : 'Mr.'} ${esc(full(d.holder))}<br>License No. ${esc(d.license_number ?? '')}</div>
  <div style="font-weight:bold;margin-bottom:18px">Re: Continuing education attendance</div>
  <p>Dear ${esc(d.holder.first)},</p>
  <p style="line-height:1.6">This letter confirms that you attended ${esc(d.course.name)} at our Westchase office on the
  ${formatDate(d.completion_date, 'ordinal_of')}, and earned ${hoursInWords(d.course.hours)} hours of continuing education credit.
  The course is approved by the Texas Real Estate Commission as course number ${esc(d.course.approval_number ?? '')}. Your attendance
  has been reported to the Commission. Registration for this session was received on ${formatDate(d.order_date, 'long')}.</p>
  <p style="line-height:1.6">Thank you for your commitment to professionalism.</p>
  <p style="margin-top:30px">Sincerely,</p>
  <div style="font-family:'Dancing Script';font-size:28px">${esc(d.signer)}</div>
  <div>${esc(d.signer)}<br>Director, Professional Development</div>`;
  return {
    pages: [page(false, `padding:80px;font-family:'${f}';font-size:15px;color:#111`, body)],
    landscape: false,
    printed: { provider: true, license_number: true, approval_number: true, state: 'TX', holder: true },
  };
}

/** 6. A table "Course | Course # | Hours | Date Completed" of one row. */
function tableRow(d: DocData): Layout {
  const f = SANS[d.variant % SANS.length]!;
  const th = 'style="border:1px solid #444;padding:8px;background:#e8eef4;text-align:left"';
  const td = 'style="border:1px solid #444;padding:8px"';
  const body = `
  <div style="font-size:30px;font-weight:bold">${esc(d.course.provider)}</div>
  <div style="font-size:13px;color:#444;margin-bottom:50px">Continuing Education Division</div>
  <div style="font-size:34px;text-align:center;margin-bottom:30px">Certificate of Completion</div>
  <div style="font-size:17px;text-align:center;margin-bottom:34px">Awarded to <b>${esc(full(d.holder))}</b>, License # ${esc(d.license_number ?? '')}</div>
  <table style="border-collapse:collapse;width:100%;font-size:15px">
   <tr><th ${th}>Course</th><th ${th}>Course #</th><th ${th}>Hours</th><th ${th}>Date Completed</th></tr>
   <tr><td ${td}>${esc(d.course.name)}</td><td ${td}>${esc(d.course.approval_number ?? 'N/A')}</td><td ${td}>${hoursFixed(d.course.hours)}</td><td ${td}>${formatDate(d.completion_date, 'us_short')}</td></tr>
  </table>
  <p style="font-size:13px;margin-top:30px">Approved for continuing education credit by the ${STATE_NAMES[d.state] ?? ''} real estate commission.</p>
  <div style="position:absolute;bottom:50px;left:70px;font-size:12px">Issued ${formatDate(d.printed_date, 'us_short')} · Certificate ${esc(d.certificate_id)}</div>`;
  return {
    pages: [page(true, `padding:60px 70px;font-family:'${f}';color:#111`, body)],
    landscape: true,
    printed: { provider: true, license_number: true, approval_number: !!d.course.approval_number, state: d.state, holder: true },
  };
}

/** 7. Two columns side by side: a naive reader reads across them. */
function twoColumn(d: DocData): Layout {
  const f = SANS[(d.variant + 2) % SANS.length]!;
  const row = (l: string, v: string) => `<div style="margin:10px 0"><span style="color:#555">${l}</span> ${esc(v)}</div>`;
  const body = `
  <div style="text-align:center;font-size:32px;font-family:'Playfair Display';margin-bottom:6px">Continuing Education Certificate</div>
  <div style="text-align:center;font-size:15px;margin-bottom:50px">${esc(d.course.provider)}</div>
  <div style="display:flex;gap:70px;font-size:17px">
   <div style="flex:1;border-top:2px solid #333;padding-top:8px"><div style="font-weight:bold;margin-bottom:10px">STUDENT</div>
    ${row('Name:', full(d.holder))}${row('License No.:', d.license_number ?? '')}${row('State:', STATE_NAMES[d.state] ?? d.state)}${row('Enrolled:', formatDate(d.order_date, 'dmy'))}</div>
   <div style="flex:1;border-top:2px solid #333;padding-top:8px"><div style="font-weight:bold;margin-bottom:10px">COURSE</div>
    ${row('Course:', d.course.name)}${row('Approval:', d.course.approval_number ?? 'not required')}${row('Hours:', String(d.course.hours))}${row('Completed:', formatDate(d.completion_date, 'dmy'))}</div>
  </div>
  <div style="position:absolute;bottom:60px;left:70px;font-family:'Dancing Script';font-size:28px">${esc(d.signer)}</div>
  <div style="position:absolute;bottom:44px;left:70px;font-size:12px">Registrar</div>`;
  return {
    pages: [page(true, `padding:60px 70px;font-family:'${f}';color:#111`, body)],
    landscape: true,
    printed: { provider: true, license_number: true, approval_number: !!d.course.approval_number, state: d.state, holder: true },
  };
}

/** 8. Modern online cards: small uppercase labels above large values. */
function labelAbove(d: DocData): Layout {
  const f = SANS[d.variant % SANS.length]!;
  const card = (label: string, value: string, span = 1) =>
    `<div style="grid-column:span ${span}"><div style="font-size:11px;letter-spacing:1.5px;color:#6b7280">${label}</div><div style="font-size:20px;margin-top:4px;color:#111">${esc(value)}</div></div>`;
  const body = `
  <div style="display:flex;justify-content:space-between;align-items:center"><div style="font-size:22px;font-weight:bold;color:#2563eb">${esc(d.course.provider)}</div><div style="font-size:12px;color:#6b7280">Certificate ID ${esc(d.certificate_id)}</div></div>
  <div style="font-size:36px;margin:60px 0 40px;font-weight:300">Course completion</div>
  <div style="display:grid;grid-template-columns:1fr 1fr 1fr;gap:34px 40px">
   ${card('NAME', full(d.holder))}${card('LICENSE', d.license_number ?? '')}${card('STATE', d.state)}
   ${card('COURSE', d.course.name, 2)}${card('CREDIT HOURS', String(d.course.hours))}
   ${card('COMPLETED', formatDate(d.completion_date, 'abbr'))}${card('PURCHASED', formatDate(d.order_date, 'abbr'))}${card('ISSUED', formatDate(d.printed_date, 'abbr'))}
  </div>
  <div style="margin-top:60px;font-size:12px;color:#6b7280">Verify this certificate at verify.example-ce.com with its ID.</div>`;
  return {
    pages: [page(true, `padding:64px 80px;font-family:'${f}';background:#fff`, body)],
    landscape: true,
    printed: { provider: true, license_number: true, approval_number: false, state: d.state, holder: true },
  };
}

/** 9. A diploma: "Be it known that", "Given this 3rd day of November, 2026", a seal. */
function diploma(d: DocData): Layout {
  const body = `
  <div style="position:absolute;inset:30px;border:4px solid #2d4a2b"></div>
  <div style="position:absolute;inset:40px;border:1px solid #2d4a2b"></div>
  <div style="position:absolute;left:0;right:0;top:90px;text-align:center;font-family:'Liberation Serif';color:#1b1b1b">
   <div style="font-size:22px;letter-spacing:3px">${esc(d.course.provider.toUpperCase())}</div>
   <div style="font-family:'Playfair Display';font-size:40px;margin-top:30px">Be it known that</div>
   <div style="font-family:'Great Vibes';font-size:54px;margin-top:10px">${esc(full(d.holder))}</div>
   <div style="font-size:18px;margin-top:14px;line-height:1.6">having fulfilled the requirements, is awarded ${d.course.hours} hours of credit for the course<br><b>${esc(d.course.name)}</b></div>
   <div style="font-size:17px;margin-top:26px">Given ${formatDate(d.completion_date, 'ordinal')}.</div>
  </div>
  <div style="position:absolute;left:120px;bottom:90px;width:120px;height:120px;border-radius:50%;border:3px solid #8a6d1d;text-align:center;font-size:11px;line-height:120px;color:#8a6d1d;font-family:'DejaVu Sans'">OFFICIAL SEAL</div>
  <div style="position:absolute;right:120px;bottom:100px;width:280px;text-align:center;font-family:'Liberation Serif';font-size:14px"><div style="font-family:'Great Vibes';font-size:32px;border-bottom:1px solid #333">${esc(d.signer)}</div>President</div>`;
  return {
    pages: [page(true, 'background:#fbfaf3', body)],
    landscape: true,
    printed: { provider: true, license_number: false, approval_number: false, state: null, holder: true },
  };
}

/** 10. Certificate of attendance: hours by topic with a total, session dates. */
function attendance(d: DocData): Layout {
  const f = SERIFS[(d.variant + 1) % 3]!;
  const h = d.course.hours;
  const parts = h >= 4 ? [h / 2, h / 4, h / 4] : h >= 2 ? [h - 1, 1] : [h];
  const names = ['Law and rules', 'Ethics', 'Practice'];
  const topics = parts.map((n, i) => `<div>${names[i]}: ${n} hr${n === 1 ? '' : 's'}</div>`).join('');
  const body = `
  <div style="text-align:center;font-size:14px;letter-spacing:2px">${esc(d.course.provider)}</div>
  <div style="text-align:center;font-size:38px;margin:26px 0">Certificate of Attendance</div>
  <div style="text-align:center;font-size:16px">Presented to</div>
  <div style="text-align:center;font-size:30px;margin:10px 0 24px">${esc(full(d.holder))}</div>
  <div style="text-align:center;font-size:16px;line-height:1.6">for attending<br><span style="font-size:22px">${esc(d.course.name)}</span></div>
  <div style="display:flex;justify-content:center;gap:60px;margin-top:30px;font-size:15px">
   <div>${topics}<div style="border-top:1px solid #333;margin-top:4px;padding-top:4px"><b>Total CE hours: ${h}</b></div></div>
   <div>Session dates: ${formatDate(d.start_date, 'us')} – ${formatDate(d.completion_date, 'us')}<br>Date of completion: ${formatDate(d.completion_date, 'long')}<br>${d.course.approval_number ? `Approval #: ${esc(d.course.approval_number)} (${esc(d.course.approval_state ?? '')})` : ''}</div>
  </div>`;
  return {
    pages: [page(true, `padding:60px;font-family:'${f}';color:#111`, body)],
    landscape: true,
    printed: {
      provider: true,
      license_number: false,
      approval_number: !!d.course.approval_number,
      state: d.course.approval_number ? d.course.approval_state : null,
      holder: true,
    },
  };
}

/** 11. A compact completion record: "Student: Last, First", ISO dates, a two-line course title in a narrow cell. */
function record(d: DocData): Layout {
  const f = d.variant % 2 ? 'Liberation Mono' : 'DejaVu Sans';
  const body = `
  <div style="font-size:18px;font-weight:bold">${esc(d.course.provider)} — Course Completion Record</div>
  <div style="font-size:12px;margin-bottom:30px">Generated ${formatDate(d.printed_date, 'iso')} 09:14</div>
  <table style="font-size:15px;border-collapse:collapse">
   <tr><td style="padding:6px 24px 6px 0;vertical-align:top">Student:</td><td>${esc(d.holder.last)}, ${esc(d.holder.first)}</td></tr>
   <tr><td style="padding:6px 24px 6px 0;vertical-align:top">License:</td><td>${esc(d.state)} ${esc(d.license_number ?? '')}</td></tr>
   <tr><td style="padding:6px 24px 6px 0;vertical-align:top">Course title:</td><td style="width:260px">${esc(d.course.name)}</td></tr>
   <tr><td style="padding:6px 24px 6px 0;vertical-align:top">Approval no.:</td><td>${esc(d.course.approval_number ?? '—')}</td></tr>
   <tr><td style="padding:6px 24px 6px 0;vertical-align:top">Enrolled:</td><td>${formatDate(d.order_date, 'iso')}</td></tr>
   <tr><td style="padding:6px 24px 6px 0;vertical-align:top">Exam passed:</td><td>${formatDate(d.completion_date, 'iso')} (score 88%)</td></tr>
   <tr><td style="padding:6px 24px 6px 0;vertical-align:top">Completed:</td><td>${formatDate(d.completion_date, 'iso')}</td></tr>
   <tr><td style="padding:6px 24px 6px 0;vertical-align:top">Credit:</td><td>${d.course.hours} clock hours</td></tr>
  </table>`;
  return {
    pages: [page(false, `padding:70px;font-family:'${f}';color:#111`, body)],
    landscape: false,
    printed: { provider: true, license_number: true, approval_number: !!d.course.approval_number, state: d.state, holder: true },
  };
}

export const CERTIFICATE_LAYOUTS = {
  tx_form: txForm,
  fl_topics: flTopics,
  ca_dre: caDre,
  ornate_online: ornate,
  association_letter: associationLetter,
  table_row: tableRow,
  two_column: twoColumn,
  label_above: labelAbove,
  diploma,
  attendance,
  record,
} as const;
export type CertificateLayout = keyof typeof CERTIFICATE_LAYOUTS;

/** 12. A fax cover sheet (its own date, "Pages: 2") before the certificate. */
export function faxCover(d: DocData, inner: Layout): Layout {
  const body = `
  <div style="font-size:64px;font-weight:bold;letter-spacing:8px">FAX</div>
  <table style="font-size:18px;margin-top:40px;line-height:2">
   <tr><td style="width:140px">To:</td><td>${esc(full(d.holder))}</td></tr>
   <tr><td>From:</td><td>${esc(d.course.provider)} — Student Services</td></tr>
   <tr><td>Date:</td><td>${formatDate(d.letter_date, 'us')}</td></tr>
   <tr><td>Pages:</td><td>2 (including cover)</td></tr>
   <tr><td>Re:</td><td>Your course certificate</td></tr>
  </table>
  <p style="font-size:16px;margin-top:40px;line-height:1.6">Attached is the certificate you requested. Please keep it with your records.</p>
  <p style="font-size:11px;margin-top:300px">CONFIDENTIALITY NOTICE: This facsimile contains information intended only for the addressee. If you received it in
  error, please notify the sender by telephone and destroy it.</p>`;
  const cover = page(inner.landscape, `padding:80px;font-family:'Liberation Sans';color:#111`, body);
  return { pages: [cover, ...inner.pages], landscape: inner.landscape, printed: inner.printed };
}

/** 13. A transcript of several courses: a table with a total, transcript date. */
export function transcript(d: DocData): Layout {
  const f = SANS[d.variant % SANS.length]!;
  const td = 'style="border-bottom:1px solid #bbb;padding:7px 6px"';
  const rows = d.courses
    .map(
      (c) =>
        `<tr><td ${td}>${esc(c.name)}</td><td ${td}>${esc(c.approval_number ?? '')}</td><td ${td} align="right">${hoursFixed(c.hours)}</td><td ${td}>${formatDate(c.date, 'us')}</td></tr>`,
    )
    .join('');
  const total = d.courses.reduce((s, c) => s + c.hours, 0);
  const body = `
  <div style="font-size:24px;font-weight:bold">${esc(d.course.provider)}</div>
  <div style="font-size:20px;margin:20px 0 24px">Continuing Education Transcript</div>
  <table style="font-size:14px;margin-bottom:24px"><tr><td style="width:150px">Student:</td><td>${esc(full(d.holder))}</td></tr>
   <tr><td>License #:</td><td>${esc(d.license_number ?? '')} (${esc(d.state)})</td></tr><tr><td>Transcript date:</td><td>${formatDate(d.printed_date, 'us')}</td></tr></table>
  <table style="border-collapse:collapse;width:100%;font-size:14px">
   <tr style="background:#eee"><th align="left" style="padding:7px 6px">Course</th><th align="left">Course #</th><th align="right">Hours</th><th align="left" style="padding-left:6px">Completed</th></tr>
   ${rows}
   <tr><td style="padding:9px 6px;font-weight:bold">Total hours</td><td></td><td align="right" style="font-weight:bold">${hoursFixed(total)}</td><td></td></tr>
  </table>
  <p style="font-size:12px;margin-top:30px">This transcript lists courses completed with ${esc(d.course.provider)} only. Courses are reported to the state within 10 days.</p>`;
  return {
    pages: [page(false, `padding:64px;font-family:'${f}';color:#111`, body)],
    landscape: false,
    printed: { provider: true, license_number: true, approval_number: true, state: d.state, holder: true },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Negatives

/** An invoice / receipt for a course: order date, course, hours, price. */
export function invoice(d: DocData): Layout {
  const f = SANS[d.variant % SANS.length]!;
  const price = (d.course.hours * 14.5 + 9).toFixed(2);
  const body = `
  <div style="display:flex;justify-content:space-between"><div style="font-size:26px;font-weight:bold">${esc(d.course.provider)}</div><div style="font-size:30px;color:#555">${d.variant % 2 ? 'RECEIPT' : 'INVOICE'}</div></div>
  <div style="margin-top:30px;font-size:14px;line-height:1.7">Invoice #: INV-${esc(d.certificate_id)}<br>Order date: ${formatDate(d.order_date, 'us')}<br>Payment: Visa ending 4421</div>
  <div style="margin-top:24px;font-size:14px;line-height:1.6"><b>Bill to</b><br>${esc(full(d.holder))}<br>License ${esc(d.license_number ?? '')}</div>
  <table style="border-collapse:collapse;width:100%;font-size:14px;margin-top:30px">
   <tr style="background:#eee"><th align="left" style="padding:8px">Description</th><th align="right">CE Hours</th><th align="right">Qty</th><th align="right" style="padding-right:8px">Amount</th></tr>
   <tr><td style="padding:8px">${esc(d.course.name)} (online, self-paced)</td><td align="right">${d.course.hours}</td><td align="right">1</td><td align="right" style="padding-right:8px">$${price}</td></tr>
   <tr><td style="padding:8px" colspan="3" align="right">Subtotal</td><td align="right" style="padding-right:8px">$${price}</td></tr>
   <tr><td style="padding:8px" colspan="3" align="right"><b>Total paid</b></td><td align="right" style="padding-right:8px"><b>$${price}</b></td></tr>
  </table>
  <p style="font-size:13px;margin-top:40px">Thank you for your purchase. Your certificate of completion will be available in your account after you pass the final exam.</p>`;
  return {
    pages: [page(false, `padding:64px;font-family:'${f}';color:#111`, body)],
    landscape: false,
    printed: { provider: true, license_number: true, approval_number: false, state: null, holder: true, completion_date: false },
  };
}

/** A letter that is not a certificate: a renewal reminder or a course approval letter to a School. */
export function otherLetter(d: DocData): Layout {
  const f = SERIFS[d.variant % 2]!;
  const state = STATE_NAMES[d.state] ?? d.state;
  const reminder = `
  <div style="font-size:22px;font-weight:bold">${state} Real Estate Commission</div>
  <div style="font-size:12px;margin-bottom:40px">Licensing Division</div>
  <div>${formatDate(d.letter_date, 'long')}</div>
  <div style="margin:24px 0">${esc(full(d.holder))}<br>License No. ${esc(d.license_number ?? '')}</div>
  <div style="font-weight:bold;margin-bottom:16px">Re: Your license expires soon</div>
  <p style="line-height:1.6">Our records show that your license expires on ${formatDate('2027-02-28', 'long')}. Before renewing you must complete
  18 hours of continuing education, including a 4-hour Legal Update I course and a 4-hour Legal Update II course, and at least
  3 hours of contract law. Completed courses are reported by the provider; you do not need to send certificates unless audited.</p>
  <p style="line-height:1.6">You can check the hours on file and renew online. Keep your certificates of completion for two years.</p>
  <p style="margin-top:30px">Licensing Services</p>`;
  const approval = `
  <div style="font-size:22px;font-weight:bold">${state} Real Estate Commission</div>
  <div style="font-size:12px;margin-bottom:40px">Education and Examination Services</div>
  <div>${formatDate(d.letter_date, 'long')}</div>
  <div style="margin:24px 0">${esc(d.course.provider)}<br>Attn: ${esc(d.signer)}</div>
  <div style="font-weight:bold;margin-bottom:16px">Re: Course approval</div>
  <p style="line-height:1.6">The Commission has approved the following course for continuing education credit:</p>
  <p style="margin-left:40px;line-height:1.7">Course title: ${esc(d.course.name)}<br>Course number: ${esc(d.course.approval_number ?? '')}<br>Credit hours: ${d.course.hours}<br>Approval valid through: ${formatDate('2028-06-30', 'long')}</p>
  <p style="line-height:1.6">Certificates issued to students must show the course number and the student's license number.</p>
  <p style="margin-top:30px">Education Services</p>`;
  return {
    pages: [page(false, `padding:80px;font-family:'${f}';font-size:15px;color:#111`, d.variant % 2 ? approval : reminder)],
    landscape: false,
    printed:
      d.variant % 2
        ? { provider: true, license_number: false, approval_number: true, state: d.state, holder: false, completion_date: false }
        : {
            provider: false,
            license_number: true,
            approval_number: false,
            state: d.state,
            holder: true,
            course: false,
            hours: false,
            completion_date: false,
          },
  };
}

/** The whole HTML document: the fonts as data URLs, each page a Letter page. */
export function htmlDocument(layout: Layout, fontFaces: string): string {
  const size = layout.landscape ? '11in 8.5in' : '8.5in 11in';
  return `<!doctype html><html><head><meta charset="utf-8"><style>${fontFaces}
  @page { size: ${size}; margin: 0 }
  html,body { margin:0; padding:0; background:#fff }
  .page { page-break-after: always; break-after: page }
  .page:last-child { page-break-after: auto; break-after: auto }
  </style></head><body>${layout.pages.join('')}</body></html>`;
}
