/**
 * What the server reads from an uploaded CE certificate (docs/ocr.md): each field with a confidence between 0 and
 * 1, where it came from (the PDF's text layer or OCR), and the course and license it matched. A person always
 * confirms: nothing is approved from this alone.
 */
import { z } from 'zod';

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
