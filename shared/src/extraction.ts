/**
 * What the server reads from an uploaded CE certificate (docs/ocr.md): each field with a confidence between 0 and
 * 1, where it came from (the PDF's text layer or OCR), and the course and license it matched. A person always
 * confirms: nothing is approved from this alone.
 */
import { z } from 'zod';
import { DOCUMENT_CATEGORIES, EXTRACTION_STATUSES } from './domain-constants.ts';
import { COMPLETION_MESSAGES, completionCreateInput } from './completions.ts';

const field = <T extends z.ZodType>(value: T) =>
  z.object({
    value: value.nullable(),
    /** 0..1; 0 when the field was not found. */
    confidence: z.number().min(0).max(1),
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
});
export type CertificateFields = z.infer<typeof certificateFieldsSchema>;

/** The completion the certificate suggests, matched against the catalogue and the owner's licenses. */
export const completionSuggestionSchema = z.object({
  course_id: z.number().int().nullable(),
  course_name: z.string().nullable(),
  /** 0..1: how closely the read course name matched the catalogue's. */
  course_match: z.number().min(0).max(1),
  license_id: z.number().int().nullable(),
  license_number: z.string().nullable(),
  user_id: z.number().int().nullable(),
  hours: z.number().nullable(),
  completion_date: z.string().nullable(),
});
export type CompletionSuggestion = z.infer<typeof completionSuggestionSchema>;

export const certificateExtractionSchema = z.object({
  source: z.enum(EXTRACTION_SOURCES),
  /** Mean OCR word confidence (1 for a text layer). */
  text_confidence: z.number().min(0).max(1),
  fields: certificateFieldsSchema,
  suggestion: completionSuggestionSchema,
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
} as const;

/** The colour of a confidence (0..1): green when it can be trusted, yellow to check, red when it is a guess. */
export function confidenceColor(confidence: number): 'green' | 'yellow' | 'red' {
  return confidence >= 0.8 ? 'green' : confidence >= 0.5 ? 'yellow' : 'red';
}
