/**
 * The contract between reading a certificate (reader.ts, ocr.ts, parse.ts: bytes → text → values) and judging
 * it (judge.ts: values + the catalogue + the uploader → what is confirmed, what to check, what is wrong).
 * The reader knows nothing of the database; the judge reads no bytes (docs/ocr.md "Pipeline").
 */
import type { CertificateExtraction, CertificateFields, CertificateKind } from '@lm/shared';

/** One value as read: how well its pattern matched times the reading confidence of its line (0..1). */
export interface ReadValue<T> {
  value: T | null;
  confidence: number;
  /**
   * The value stood beside a label that names this field (for the completion date: a completion label such as
   * "Date of Completion", "Completed on", "this 3rd day of"; not an order, exam, letter or expiry date). The judge
   * confirms a date only when it is labelled. Absent: judged from the confidence (a labelled value scores 1 ×
   * the line's confidence, docs/ocr.md).
   */
  labelled?: boolean;
}

export type ReadFields = { [K in keyof CertificateFields]: ReadValue<NonNullable<CertificateFields[K]['value']>> };

/** One course of a transcript, as read. */
export type ReadCourse = Pick<ReadFields, 'course_name' | 'hours' | 'completion_date' | 'approval_number'>;

/** What the parser makes of a document's text. */
export interface ParsedCertificate {
  /** What the text looks like (a certificate, a transcript of several courses, an invoice, something else). */
  kind: CertificateKind;
  /** The document's values; for a transcript the course values are its first course's. */
  fields: ReadFields;
  /** A transcript: every course found (two or more); otherwise empty. */
  courses: ReadCourse[];
}

/** readCertificate's answer: the parse plus how the text was obtained. */
export type CertificateReading = ParsedCertificate & Pick<CertificateExtraction, 'source' | 'text_confidence' | 'text' | 'duration_ms'>;
