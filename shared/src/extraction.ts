/**
 * What the server reads from an uploaded CE certificate (docs/ocr.md): each field with a confidence between 0 and
 * 1, where it came from (the PDF's text layer or OCR), and the course and license it matched. A person always
 * confirms: nothing is approved from this alone.
 */
import { z } from 'zod';
import { DOCUMENT_CATEGORIES, EXTRACTION_STATUSES } from './domain-constants.ts';
import { COMPLETION_MESSAGES, completionCreateInput } from './completions.ts';

/**
 * How far a value read from the certificate can be trusted (docs/ocr.md "Honest confidence"):
 * - `confirmed` (green): the reading and a second source agree (the catalogue's course and its hours, the
 *   uploader's own name and license number, a date that fits the course and the license's cycle);
 * - `check` (amber, "check this"): read, but nothing confirms it, or a second source disagrees (`note` says how);
 * - `missing`: not found (the value is null).
 */
export const FIELD_CHECKS = ['confirmed', 'check', 'missing'] as const;
export type FieldCheck = (typeof FIELD_CHECKS)[number];

const field = <T extends z.ZodType>(value: T) =>
  z.object({
    value: value.nullable(),
    /** 0..1: how well the value was read (pattern × line); 0 when the field was not found. Not a colour. */
    confidence: z.number().min(0).max(1),
    check: z.enum(FIELD_CHECKS),
    /** In words, why the value is to be checked ("The course's catalogue hours are 3, the certificate says 6"). */
    note: z.string().nullable(),
  });

export const EXTRACTION_SOURCES = ['text_layer', 'ocr'] as const;

export const certificateFieldsSchema = z.object({
  course_name: field(z.string()),
  provider: field(z.string()),
  hours: field(z.number()),
  /** YYYY-MM-DD */
  completion_date: field(z.string()),
  holder_name: field(z.string()),
  license_number: field(z.string()),
  /** Two-letter code of the state whose approval or license the certificate names. */
  state: field(z.string()),
  /** The course's state approval number as printed ("CE-4471", "0012-345"). */
  approval_number: field(z.string()),
});
export type CertificateFields = z.infer<typeof certificateFieldsSchema>;
export type CertificateField = CertificateFields[keyof CertificateFields];

/** The completion the certificate suggests, matched against the catalogue and the owner's licenses. */
export const completionSuggestionSchema = z.object({
  course_id: z.number().int().nullable(),
  course_name: z.string().nullable(),
  /** The suggested course's provider (two courses may share a name). */
  course_provider: z.string().nullable(),
  /** 0..1: how closely the read course matched the catalogue's (an approval number match is 1). */
  course_match: z.number().min(0).max(1),
  license_id: z.number().int().nullable(),
  license_number: z.string().nullable(),
  user_id: z.number().int().nullable(),
  hours: z.number().nullable(),
  completion_date: z.string().nullable(),
});
export type CompletionSuggestion = z.infer<typeof completionSuggestionSchema>;

/** What the document is: one course's certificate, a transcript of several, or not a certificate at all. */
export const CERTIFICATE_KINDS = ['certificate', 'transcript', 'invoice', 'not_certificate'] as const;
export type CertificateKind = (typeof CERTIFICATE_KINDS)[number];

/** Problems said in words beside the fields (the message names what was read). */
export const EXTRACTION_WARNING_CODES = [
  /** The name on the certificate is not the owner's. */
  'other_person',
  /** The license number on the certificate is none of the owner's. */
  'other_license',
  'invoice',
  'not_certificate',
  /** A transcript: several courses found. */
  'several_courses',
  'course_not_in_catalogue',
  'hours_differ',
  'date_outside_cycle',
  'date_in_future',
] as const;
export type ExtractionWarningCode = (typeof EXTRACTION_WARNING_CODES)[number];

export const extractionWarningSchema = z.object({
  code: z.enum(EXTRACTION_WARNING_CODES),
  message: z.string(),
});
export type ExtractionWarning = z.infer<typeof extractionWarningSchema>;

/** One course of a transcript (or the single course of a certificate): its own fields and suggestion. */
export const certificateCourseSchema = z.object({
  fields: certificateFieldsSchema.pick({ course_name: true, hours: true, completion_date: true, approval_number: true }),
  suggestion: completionSuggestionSchema,
});
export type CertificateCourse = z.infer<typeof certificateCourseSchema>;

export const certificateExtractionSchema = z.object({
  source: z.enum(EXTRACTION_SOURCES),
  /** Mean OCR word confidence (1 for a text layer). */
  text_confidence: z.number().min(0).max(1),
  kind: z.enum(CERTIFICATE_KINDS),
  /** The document's fields; for a transcript the course fields are its first course's. */
  fields: certificateFieldsSchema,
  /** The completion to prefill (a transcript: its first course's). */
  suggestion: completionSuggestionSchema,
  /** A transcript: one entry per course (two or more); otherwise empty. */
  courses: z.array(certificateCourseSchema),
  warnings: z.array(extractionWarningSchema),
  /** The text that was read, trimmed to the first 4,000 characters. */
  text: z.string(),
  /** Milliseconds the reading took. */
  duration_ms: z.number().int().nonnegative(),
});
export type CertificateExtraction = z.infer<typeof certificateExtractionSchema>;

/** GET /documents/{id}/extraction: the current version's reading. */
export const documentExtractionSchema = z.object({
  document_id: z.number().int(),
  version: z.number().int(),
  status: z.enum(EXTRACTION_STATUSES),
  extraction: certificateExtractionSchema.nullable(),
  error: z.string().nullable(),
  extracted_at: z.string().nullable(),
});
export type DocumentExtraction = z.infer<typeof documentExtractionSchema>;

export const EXTRACTION_MESSAGES = {
  noTextLayer: 'This PDF has no text layer; upload a photo or scan as an image',
  unsupported: 'Only PDF, PNG and JPEG certificates can be read',
  unreadable: 'The file could not be read as a certificate',
  notCertificate: 'Only a CE certificate can record a completion',
  alreadyLinked: 'This certificate is already linked to a completion',
  nothingFound: 'Nothing was found on this page; it looks blank. Upload a clearer scan or photo, or type the values in yourself',
  /** POST /documents/{id}/completions: the entry refused (1-based) and why; nothing was recorded. */
  entryRefused: (entry: number, reason: string) => `Entry ${entry}: ${reason}. Nothing was recorded`,
} as const;

/**
 * POST /documents/{id}/completion: the person confirms (or corrects) the values read from the certificate.
 * The completion's own rules (course active, hours within the course's, date in a cycle, no duplicate) apply.
 */
export const certificateCompletionInput = z.object({
  course_id: completionCreateInput.shape.course_id,
  license_id: completionCreateInput.shape.license_id,
  hours: z.number({ error: COMPLETION_MESSAGES.hoursPositive }).gt(0, COMPLETION_MESSAGES.hoursPositive),
  completion_date: completionCreateInput.shape.completion_date,
});
export type CertificateCompletionInput = z.input<typeof certificateCompletionInput>;

/** POST /documents/{id}/completions: a transcript's courses recorded together (each a Pending completion). */
export const CERTIFICATE_ENTRIES_MAX = 20;
export const certificateCompletionsInput = z.object({
  entries: z.array(certificateCompletionInput).min(1).max(CERTIFICATE_ENTRIES_MAX),
});
export type CertificateCompletionsInput = z.input<typeof certificateCompletionsInput>;

/** A document linked to a completion, for the reviewer (GET /completions/{id}/certificates). */
export const completionCertificateSchema = z.object({
  document_id: z.number().int(),
  title: z.string(),
  category: z.enum(DOCUMENT_CATEGORIES),
  current_version: z.number().int(),
  mime_type: z.string().nullable(),
  file_name: z.string().nullable(),
});
export type CompletionCertificate = z.infer<typeof completionCertificateSchema>;

export const EXTRACTION_STRINGS = {
  recorded: 'Completion recorded; it waits for approval',
  recordFailed: 'Could not record the completion',
  pending: 'Reading the certificate...',
  noCertificate: 'No certificate uploaded',
  previewFailed: 'Could not load the certificate',
  checkThis: 'Check this',
  confirmed: 'Confirmed',
  notFound: 'Not found',
  recordAll: 'Record all',
  recordOne: 'Record only this course',
  recordedAll: 'Completions recorded; they wait for approval',
} as const;

/** The colour of a field's check: green only when a second source confirms it, amber to check, grey when missing. */
export function fieldCheckColor(check: FieldCheck): 'green' | 'yellow' | 'gray' {
  return check === 'confirmed' ? 'green' : check === 'check' ? 'yellow' : 'gray';
}
