/**
 * Documents (docs/decisions.md "Documents"): files a person keeps with their licenses and CE completions
 * (license copies, CE certificates, E&O insurance, agreements), each with its versions.
 */
import { z } from 'zod';
import { singleLine } from './text.ts';
import { idParam, MAX_ID, paginationSchema, updatedSinceParam, cursorParam } from './common.ts';
import { DOCUMENT_CATEGORIES, EXTRACTION_STATUSES, type DocumentCategory } from './domain-constants.ts';
import { certificateExtractionSchema } from './extraction.ts';

export const DOCUMENT_CATEGORY_LABELS: Record<DocumentCategory, string> = {
  license_copy: 'License copy',
  ce_certificate: 'CE certificate',
  eo_insurance: 'E&O insurance',
  agreement: 'Agreement',
  other: 'Other',
};

export const DOCUMENT_SORT_COLUMNS = ['created_at', 'title', 'category', 'owner'] as const;

/** Types a browser may show inline (preview): images and PDF; everything else is always an attachment. */
export const INLINE_MIME_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export const DOCUMENT_STRINGS = {
  title: 'Documents',
  upload: 'Upload document',
  uploadVersion: 'Upload new version',
  uploaded: 'Document uploaded',
  versionUploaded: 'New version uploaded',
  updated: 'Document updated',
  deleted: 'Document deleted',
  deleteConfirm: 'Delete this document? It disappears from every list; an Admin can still find it in the audit log.',
  empty: 'No documents yet',
  emptyHint: 'Upload a license copy, a CE certificate or your E&O insurance with "Upload document".',
  things: 'documents',
  noFile: 'Choose a file to upload',
  noOwners: 'No Agents or Brokers found',
  noLicenses: 'No licenses found',
} as const;

const optionalId = z.coerce.number().int().positive().max(MAX_ID);

export const documentVersionSchema = z.object({
  version_id: z.number().int(),
  version: z.number().int(),
  file_name: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  created_at: z.string(),
  uploaded_by: z.number().int().nullable(),
  uploaded_by_name: z.string().nullable(),
  extraction_status: z.enum(EXTRACTION_STATUSES),
  extraction: certificateExtractionSchema.nullable(),
  extraction_error: z.string().nullable(),
});
export type DocumentVersion = z.infer<typeof documentVersionSchema>;

/** One document as lists show it (no versions). */
export const documentSchema = z.object({
  document_id: z.number().int(),
  owner_id: z.number().int(),
  owner_name: z.string(),
  license_id: z.number().int().nullable(),
  license_number: z.string().nullable(),
  completion_id: z.number().int().nullable(),
  completion_course_name: z.string().nullable(),
  category: z.enum(DOCUMENT_CATEGORIES),
  title: z.string(),
  current_version: z.number().int(),
  /** The current version's file. */
  file_name: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  extraction_status: z.enum(EXTRACTION_STATUSES),
  uploaded_by_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DocumentItem = z.infer<typeof documentSchema>;

export const documentDetailSchema = documentSchema.extend({ versions: z.array(documentVersionSchema) });
export type DocumentDetail = z.infer<typeof documentDetailSchema>;

export const documentListQuery = z.object({
  owner_id: optionalId.optional(),
  category: z.enum(DOCUMENT_CATEGORIES).optional(),
  license_id: optionalId.optional(),
  completion_id: optionalId.optional(),
  /** Title, case-insensitive substring. */
  search: singleLine(200).optional(),
  sort: z.enum(DOCUMENT_SORT_COLUMNS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).optional(),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(500).optional(),
  /** Only rows changed after this time (an integrator's sync; docs/api.md "Changes since"). */
  updated_since: updatedSinceParam.optional(),
});
export type DocumentListQuery = z.infer<typeof documentListQuery>;

export const documentPageOutput = z.object({ documents: z.array(documentSchema), pagination: paginationSchema });
export type DocumentPage = z.infer<typeof documentPageOutput>;

export const documentIdInput = z.object({ id: idParam });

/** The form fields of POST /api/documents (multipart, beside the "file" part). */
export const documentUploadFields = z.object({
  category: z.enum(DOCUMENT_CATEGORIES, { error: 'Choose a category' }),
  license_id: z.preprocess((v) => (v === '' ? undefined : v), optionalId.optional()),
  completion_id: z.preprocess((v) => (v === '' ? undefined : v), optionalId.optional()),
  owner_id: z.preprocess((v) => (v === '' ? undefined : v), optionalId.optional()),
});
export type DocumentUploadFields = z.infer<typeof documentUploadFields>;

export const updateDocumentInput = z.object({
  id: idParam,
  category: z.enum(DOCUMENT_CATEGORIES).optional(),
  license_id: z.number().int().positive().max(MAX_ID).nullable().optional(),
  completion_id: z.number().int().positive().max(MAX_ID).nullable().optional(),
  title: singleLine({ max: 255, required: 'Title is required', tooLong: 'Title must be at most 255 characters' }).optional(),
});
export type UpdateDocumentInput = z.infer<typeof updateDocumentInput>;

/** Download name of an audit pack. */
export const auditPackFileName = (licenseNumber: string) => `audit-pack_${licenseNumber.replace(/[^A-Za-z0-9._-]+/g, '_')}.zip`;
