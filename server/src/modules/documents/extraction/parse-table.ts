/**
 * Courses in a table ("Course | Hours | Date" then a row per course) or a list ("Fair Housing – 3 hrs –
 * 03/03/2026" per line): a transcript's courses, or the one course of a certificate printed as a table
 * (docs/ocr.md "Fields"). Pure.
 */
import type { ReadValue } from './reading.ts';
import { findDates } from './parse-dates.ts';
import { clean, digits, isProse, looksLikeLabel, plausible, titleCase, titleLike, type Row } from './parse-text.ts';

export interface TableCourse {
  course_name: ReadValue<string>;
  hours: ReadValue<number>;
  completion_date: ReadValue<string>;
  approval_number: ReadValue<string>;
}

type Column = 'name' | 'hours' | 'date' | 'approval' | 'other';

function columnOf(header: string): Column {
  const h = header.toLowerCase();
  if (/expir|order|purchas|regist|price|amount|fee|status|grade|score|instructor|provider|delivery|method|type/.test(h)) return 'other';
  if (/\b(?:hours?|hrs|credits?|ceus?|credit\s+hours)\b/.test(h)) return 'hours';
  if (/\bdate\b|complet/.test(h)) return 'date';
  if (/#|\bno\b\.?|number|approval|\bid\b|code/.test(h)) return 'approval';
  if (/course|title|description|class|program|seminar|subject/.test(h)) return 'name';
  return 'other';
}

const HEADER_WORDS = /\b(?:course|title|description|class|hours?|hrs|credits?|date|completed|approval|number|#)\b|#/gi;

/** A header row: a course column and an hours or date column. */
function headerColumns(row: Row): Array<{ column: Column; x: number | null }> | null {
  if (row.cells.length >= 2) {
    const cols = row.cells.map((c) => ({ column: columnOf(c.text), x: c.x, len: c.text.length }));
    // Header cells are words: a cell with a value ("Course: Fair Housing", "Hours 3") makes a form line, not a header.
    if (cols.some((c) => c.len > 40) || row.cells.some((c) => /\d|:\s*\S/.test(c.text))) return null;
    const kinds = new Set(cols.map((c) => c.column));
    if (kinds.has('name') && (kinds.has('hours') || kinds.has('date'))) return cols.map(({ column, x }) => ({ column, x }));
    return null;
  }
  // One cell (OCR): the header's words alone.
  const words = row.text.match(HEADER_WORDS) ?? [];
  const rest = row.text.replace(HEADER_WORDS, '').replace(/[^A-Za-z]/g, '');
  if (
    words.length >= 3 &&
    rest.length <= 12 &&
    /course|title|description|class/i.test(row.text) &&
    /hours?|hrs|credits?|date/i.test(row.text)
  )
    return [];
  return null;
}

const APPROVAL_TOKEN = /(?:^|\s)#?([A-Z]{0,5}-?\d{3,}[A-Z0-9-]*)(?=\s|$)/;
const HOURS_TOKEN = /(?:^|\s)(\d{1,2}(?:\.\d{1,2})?)\s*(?:ce\s+|credit\s+|clock\s+)?(?:hours?|hrs?\.?|credits?)?(?=\s|$|[,;])/i;

/** A row read by its text alone: the date, an approval number, the hours, the rest the course's name. */
function rowByText(text: string, conf: number, score: number): TableCourse | null {
  let rest = ` ${text} `;
  const course: TableCourse = {
    course_name: { value: null, confidence: 0 },
    hours: { value: null, confidence: 0 },
    completion_date: { value: null, confidence: 0 },
    approval_number: { value: null, confidence: 0 },
  };
  const dates = findDates(rest);
  if (dates.length) {
    course.completion_date = { value: dates[0]!.value, confidence: score * conf };
    for (const d of [...dates].reverse()) rest = `${rest.slice(0, d.index)} ${rest.slice(d.end)}`;
  }
  const hoursSuffixed = /(?:^|\s)(\d{1,2}(?:\.\d{1,2})?)\s*(?:ce\s+|credit\s+|clock\s+)?(?:hours?|hrs?\.?|credits?)(?=\s|$|[,;.])/i.exec(
    rest,
  );
  if (hoursSuffixed) {
    course.hours = { value: Number(hoursSuffixed[1]), confidence: score * conf };
    rest = rest.replace(hoursSuffixed[0], ' ');
  }
  const approval = APPROVAL_TOKEN.exec(rest);
  if (approval && /\d{3,}/.test(approval[1]!)) {
    course.approval_number = { value: approval[1]!, confidence: score * 0.9 * conf };
    rest = rest.replace(approval[0], ' ');
  }
  if (course.hours.value === null) {
    const h = HOURS_TOKEN.exec(rest);
    const n = h ? Number(digits(h[1]!)) : NaN;
    if (h && n > 0 && n <= 60) {
      course.hours = { value: n, confidence: score * 0.9 * conf };
      rest = rest.replace(h[0], ' ');
    }
  }
  const name = clean(
    rest
      .replace(/^\s*\d{1,2}[.)]\s+/, '')
      .replace(/[–—-]\s*$/, '')
      .replace(/\s[–—-]\s/g, ' '),
  );
  // A title's first row may stop mid-phrase ("Broker Responsibility and"): the prose test ignores that.
  if (plausible(name, 4) && !isProse(name.replace(/\s+(?:and|of|in|for|the|to|&)$/i, '')))
    course.course_name = { value: titleCase(name), confidence: score * conf };
  return course.course_name.value ? course : null;
}

const STOP = /^\s*(?:total|grand\s+total|sum|signature|authorized|page\s+\d|this\s+transcript|note)/i;

function byColumns(row: Row, columns: Array<{ column: Column; x: number | null }>, conf: number): TableCourse | null {
  const course: TableCourse = {
    course_name: { value: null, confidence: 0 },
    hours: { value: null, confidence: 0 },
    completion_date: { value: null, confidence: 0 },
    approval_number: { value: null, confidence: 0 },
  };
  const withX = columns.every((c) => c.x !== null) && row.cells.every((c) => c.x !== null);
  if (!withX && row.cells.length !== columns.length) return rowByText(row.text, conf, 0.8);
  row.cells.forEach((cell, i) => {
    let col = columns[i];
    if (withX) {
      // The header cell whose left edge is nearest (cells of numbers may be centred or right-aligned).
      col = columns.reduce((a, b) => (Math.abs(b.x! - cell.x!) < Math.abs(a.x! - cell.x!) ? b : a));
    }
    const text = cell.text.trim();
    if (!col) return;
    if (col.column === 'name' && plausible(text, 4) && !isProse(text) && !looksLikeLabel(text)) {
      course.course_name = {
        value: course.course_name.value ? `${course.course_name.value} ${text}` : titleCase(clean(text)),
        confidence: 0.95 * conf,
      };
    } else if (col.column === 'hours') {
      // The cell holds a number alone ("4", "3.0", "2 hrs"; OCR's "O" and "l" repaired), not a word with an S in it.
      const m = /^\s*([\dOolIS]{1,3}(?:[.,]\d{1,2})?)\s*(?:hours?|hrs?\.?|credits?)?\s*$/i.exec(text);
      const n = m && /\d/.test(m[1]!) ? Number(digits(m[1]!)) : NaN;
      if (n > 0 && n <= 60) course.hours = { value: n, confidence: 0.95 * conf };
    } else if (col.column === 'date') {
      const d = findDates(text)[0];
      if (d) course.completion_date = { value: d.value, confidence: 0.95 * conf };
    } else if (col.column === 'approval') {
      const a = /#?\s*([A-Z0-9][A-Z0-9./-]*\d[A-Z0-9./-]*)/i.exec(text);
      if (a) course.approval_number = { value: a[1]!.toUpperCase(), confidence: 0.95 * conf };
    }
  });
  if (!course.course_name.value) return null;
  // Two columns printed edge to edge read as one cell ("3.0 09/03/2026"): the row's text fills what is missing.
  if (course.hours.value === null || course.completion_date.value === null) {
    const byText = rowByText(row.text, conf, 0.8);
    if (byText && course.hours.value === null) course.hours = byText.hours;
    if (byText && course.completion_date.value === null) course.completion_date = byText.completion_date;
  }
  return course;
}

/** A row that goes on with a title: a few words of a title, not a sentence. */
function titleGoesOn(text: string): boolean {
  return text.split(/\s+/).length <= 8 && !/[.!?]$/.test(text.trim()) && titleLike(text) && !isProse(text);
}

/** The courses of a table or a list, in order (none when there is neither). */
export function readTable(rows: Row[]): TableCourse[] {
  for (let h = 0; h < rows.length; h++) {
    const columns = headerColumns(rows[h]!);
    if (!columns) continue;
    const courses: TableCourse[] = [];
    for (let r = h + 1; r < rows.length; r++) {
      const row = rows[r]!;
      if (STOP.test(row.text) || row.page !== rows[h]!.page || looksLikeLabel(row.text)) break;
      const course = columns.length ? byColumns(row, columns, row.confidence) : rowByText(row.text, row.confidence, 0.8);
      const hasValues =
        course && (course.hours.value !== null || course.completion_date.value !== null || course.approval_number.value !== null);
      if (course && hasValues) {
        courses.push(course);
        continue;
      }
      // A title over two rows (only the name column filled): it opens the next row's title, or closes the last.
      if (course && !hasValues && row.cells.length === 1 && titleGoesOn(row.text.replace(/\s+(?:and|of|in|for|the|to|&)$/i, ''))) {
        const last = courses[courses.length - 1];
        const nextRow = rows[r + 1];
        if (
          nextRow &&
          /^[A-Za-z]/.test(nextRow.text) &&
          (/\b(?:and|of|in|for|the|to|&)$/i.test(row.text) || !last) &&
          !STOP.test(nextRow.text)
        ) {
          const following = columns.length
            ? byColumns(nextRow, columns, nextRow.confidence)
            : rowByText(nextRow.text, nextRow.confidence, 0.8);
          if (following && (following.hours.value !== null || following.completion_date.value !== null)) {
            following.course_name = { ...following.course_name, value: `${course.course_name.value} ${following.course_name.value}` };
            courses.push(following);
            r++;
            continue;
          }
        }
        if (last) {
          last.course_name = { ...last.course_name, value: `${last.course_name.value} ${course.course_name.value}` };
          continue;
        }
      }
      break;
    }
    if (courses.length) return courses;
  }
  // A list: two or more lines each with a course name, its hours and its date.
  const listed: TableCourse[] = [];
  for (const row of rows) {
    if (!findDates(row.text).length || !/\d\s*(?:ce\s+|credit\s+)?(?:hours?|hrs?)\b/i.test(row.text)) continue;
    if (/\b(?:total|expir|order|renew|required)\b/i.test(row.text)) continue;
    const course = rowByText(row.text, row.confidence, 0.75);
    if (course && course.hours.value !== null && course.completion_date.value !== null && !/:/.test(course.course_name.value ?? ''))
      listed.push(course);
  }
  const names = new Set(listed.map((c) => c.course_name.value!.toLowerCase()));
  return listed.length >= 2 && names.size >= 2 ? listed : [];
}
