/**
 * The licenses domain: API schemas, the expiry-band and renewal rules, and the screen's strings
 * (docs/product.md sections 2, 3, 4, 5, 8 and 9).
 */
import { z } from 'zod';
import { singleLine } from './text.ts';
import { dateString, idParam, isCalendarDate, paginationSchema, updatedSinceParam, cursorParam } from './common.ts';
import { addYears, daysBetween } from './dates.ts';
import { CE_TOPICS, LICENSE_STATUSES, LICENSE_TYPES } from './domain-constants.ts';
import { ROLE_NAMES } from './roles.ts';
import { MAX_ID } from './common.ts';
import { COMPLIANCE_STATES, complianceSchema } from './compliance.ts';

// ---------------------------------------------------------------------------------------------
// Rules

/** Renewal extends a license by this many years from its current expiration (docs/product.md section 9). */
export const RENEWAL_YEARS = 2;
/** The expiry bands' edges in days (docs/product.md section 9). */
export const EXPIRY_WARNING_DAYS = 30;
export const EXPIRY_INFO_DAYS = 90;

export type ExpiryColor = 'red' | 'yellow' | 'blue' | 'green';
export interface ExpiryBand {
  /** 'Expired', or the days left ('1 day', 'N days'). */
  label: string;
  /** danger / warning / info / success as Mantine colours. */
  color: ExpiryColor;
  /** Days from today to the expiration date (negative once past). */
  days: number;
}

/**
 * The expiry badge of a license: a past date is 'Expired' (red); 30 days or fewer 'N days' (yellow);
 * 31 to 90 days blue; more than 90 days green. A license expiring today has 0 days left, not expired.
 * `today` is the office's calendar date (YYYY-MM-DD).
 */
export function expiryBand(expirationDate: string, today: string): ExpiryBand {
  const days = daysBetween(today, expirationDate);
  if (days < 0) return { label: 'Expired', color: 'red', days };
  const label = `${days} ${days === 1 ? 'day' : 'days'}`;
  if (days <= EXPIRY_WARNING_DAYS) return { label, color: 'yellow', days };
  if (days <= EXPIRY_INFO_DAYS) return { label, color: 'blue', days };
  return { label, color: 'green', days };
}

/** The new expiration date of a renewal: the cycle length (two years unless a state CE rule says otherwise) after the current expiration date. */
export function renewalDate(currentExpiration: string, years: number = RENEWAL_YEARS): string {
  return addYears(currentExpiration, years);
}

/** Statuses offered by the license form (docs/product.md section 4); 'Pending Renewal' is set by integrations and reports. */
export const LICENSE_FORM_STATUSES = [
  'Active',
  'Inactive',
  'Suspended',
  'Expired',
] as const satisfies readonly (typeof LICENSE_STATUSES)[number][];

/** Two-letter codes offered by the state select: the 50 states and DC. */
export const LICENSE_STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
  'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const; // prettier-ignore

// ---------------------------------------------------------------------------------------------
// Strings (docs/product.md word for word where it gives them)

export const LICENSE_MESSAGES = {
  userRequired: 'User is required',
  numberRequired: 'License number is required',
  stateRequired: 'State is required',
  issueDateRequired: 'Issue date is required',
  expirationDateRequired: 'Expiration date is required',
  holderRole: 'License holder must be an Agent or Broker',
  datesOrder: 'Issue date cannot be after the expiration date',
  stateFormat: 'State must be a two-letter code',
  ceNotNegative: 'CE hours cannot be negative',
  duplicate: (number: string, state: string) => `License number ${number} already exists in ${state}`,
  holderHasCe: (name: string) =>
    `This license has CE recorded for ${name}, and CE belongs to the person who earned it, so its holder cannot change. Add a new license for the new holder instead.`,
} as const;

export const LICENSE_STRINGS = {
  title: 'License Management',
  add: 'Add License',
  addTitle: 'Add New License',
  editTitle: 'Edit License',
  create: 'Create License',
  update: 'Update License',
  saving: 'Saving...',
  confirmDelete: 'Are you sure you want to delete this license?',
  created: 'License created successfully!',
  updated: 'License updated successfully!',
  deleted: 'License deleted successfully!',
  renewed: 'License renewed successfully!',
  createFailed: 'Failed to create license',
  updateFailed: 'Failed to update license',
  deleteFailed: 'Failed to delete license',
  renewFailed: 'Failed to renew license',
  things: 'licenses',
  empty: 'No licenses found',
  /** The compliance filter's name and its first choice. */
  complianceFilter: 'Compliance',
  complianceAll: 'All',
  complianceColumn: 'Compliance',
  ceColumn: 'CE Progress',
  /** The compliance badge: 'At risk · 43 h' (hours still to take), or the label alone. */
  complianceBadge: (label: string, hours?: string) => (hours ? `${label} · ${hours}` : label),
  /** The topics a license still needs, under its badge: 'Missing: Ethics 3 h, Agency 2 h'. */
  topicsMissing: (topics: string[]) => `Missing: ${topics.join(', ')}`,
  /** Where the form's "CE Hours Required" comes from. */
  ceFromRule: (state: string, type: string, hours: string, years: number, topics: string[]) =>
    `From the ${state} ${type} CE rule: ${hours} every ${years === 1 ? 'year' : `${years} years`}${
      topics.length ? `, including ${topics.join(', ')}` : ''
    }`,
  ceFromSettings: 'Office default (System Settings)',
} as const;

// ---------------------------------------------------------------------------------------------
// Schemas

const requiredDate = (message: string) =>
  singleLine({ max: 10, required: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the date format YYYY-MM-DD')
    .refine(isCalendarDate, 'Not a valid date');
const ceHours = z.number({ error: 'CE hours must be a number' }).min(0, LICENSE_MESSAGES.ceNotNegative).max(10_000);

export const licenseSchema = z.object({
  license_id: z.number().int(),
  user_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  license_number: z.string(),
  state: z.string(),
  license_type: z.enum(LICENSE_TYPES),
  issue_date: z.string(),
  expiration_date: z.string(),
  /** As of the office's today: an Active license past its expiration date reads Expired (docs/decisions.md "Compliance"). */
  status: z.enum(LICENSE_STATUSES),
  /** The current CE cycle's required hours. */
  ce_hours_required: z.number(),
  /** The current CE cycle's completed hours (the ledger's sum, docs/decisions.md "CE ledger and cycles"). */
  ce_hours_completed: z.number(),
  /** The current CE cycle's start: the issue date, then each renewal's previous expiration date. */
  cycle_start_date: z.string(),
  renewed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The one compliance judgement of the license on the office's today (shared/src/compliance.ts). */
  compliance: complianceSchema,
});
export type License = z.infer<typeof licenseSchema>;

const licenseFields = {
  user_id: z.number({ error: LICENSE_MESSAGES.userRequired }).int(LICENSE_MESSAGES.userRequired).positive(LICENSE_MESSAGES.userRequired),
  license_number: singleLine({ max: 50, required: LICENSE_MESSAGES.numberRequired }),
  state: singleLine({ max: 2, required: LICENSE_MESSAGES.stateRequired })
    .regex(/^[A-Za-z]{2}$/, LICENSE_MESSAGES.stateFormat)
    .toUpperCase(),
  license_type: z.enum(LICENSE_TYPES),
  issue_date: requiredDate(LICENSE_MESSAGES.issueDateRequired),
  expiration_date: requiredDate(LICENSE_MESSAGES.expirationDateRequired),
  status: z.enum(LICENSE_STATUSES),
  ce_hours_required: ceHours,
  ce_hours_completed: ceHours,
};

/** A new license's defaults (docs/product.md section 9); CE hours required comes from settings.default_ce_hours. */
export const LICENSE_DEFAULTS = { license_type: 'Sales', status: 'Active', ce_hours_completed: 0 } as const satisfies {
  license_type: (typeof LICENSE_TYPES)[number];
  status: (typeof LICENSE_STATUSES)[number];
  ce_hours_completed: number;
};

/**
 * POST /licenses. Defaults (docs/product.md section 9): Sales, Active, CE hours completed 0; CE hours required
 * defaults to settings.default_ce_hours (0 unless an Admin changed it). The issue date may not follow the
 * expiration date (the message on expiration_date).
 */
export const createLicenseInput = z
  .object({
    ...licenseFields,
    license_type: licenseFields.license_type.default(LICENSE_DEFAULTS.license_type),
    status: licenseFields.status.default(LICENSE_DEFAULTS.status),
    ce_hours_required: ceHours.optional(),
    ce_hours_completed: ceHours.default(LICENSE_DEFAULTS.ce_hours_completed),
  })
  .refine((l) => l.issue_date <= l.expiration_date, { message: LICENSE_MESSAGES.datesOrder, path: ['expiration_date'] });
export type CreateLicenseInput = z.infer<typeof createLicenseInput>;

/** PUT /licenses/{id}: any subset of the fields; the rest keep their values. */
export const updateLicenseInput = z.object(licenseFields).partial().extend({ id: idParam });
export type UpdateLicenseInput = z.infer<typeof updateLicenseInput>;

/**
 * POST /licenses/{id}/renew. Without a body: expiration one cycle (the state rule's years, else two) after
 * the current one, status Active. With the cycle's CE outstanding it answers 409 unless allow_incomplete.
 */
export const renewLicenseInput = z.object({
  id: idParam,
  expiration_date: dateString.optional(),
  status: z.enum(LICENSE_STATUSES).optional(),
  allow_incomplete: z.boolean().optional(),
});
export type RenewLicenseInput = z.infer<typeof renewLicenseInput>;

export const LICENSE_SORT_COLUMNS = [
  'holder',
  'license_number',
  'state',
  'license_type',
  'issue_date',
  'expiration_date',
  'status',
  'ce_hours_completed',
  'created_at',
  /** At risk first, then expired, on track, complete (COMPLIANCE_STATES), each by expiration date. */
  'compliance',
  'hours_remaining',
] as const;
export type LicenseSortColumn = (typeof LICENSE_SORT_COLUMNS)[number];

/** GET /licenses and /licenses/page query (clients omit empty values). */
export const licenseListQuery = z.object({
  status: z.enum(LICENSE_STATUSES).optional(),
  state: singleLine(2).toUpperCase().optional(),
  license_type: z.enum(LICENSE_TYPES).optional(),
  /** Licenses expiring within N days (Active or Pending Renewal, expiration date from today to today + N). */
  expiring_within: z.coerce.number().int().min(0).max(3650).optional(),
  /** The compliance judgement's state (shared/src/compliance.ts). */
  compliance: z.enum(COMPLIANCE_STATES).optional(),
  /** Holder first/last name or license number, case-insensitive substring. */
  search: singleLine(200).optional(),
  user_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  sort: z.enum(LICENSE_SORT_COLUMNS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).optional(),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(500).optional(),
  /** Only licenses changed after this time (an integrator's sync; docs/api.md "Changes since"). */
  updated_since: updatedSinceParam.optional(),
});
export type LicenseListQuery = z.infer<typeof licenseListQuery>;

export const licensePageOutput = z.object({ licenses: z.array(licenseSchema), pagination: paginationSchema });

/** GET /licenses/compliance-summary: how many licenses of the list's filters (all but compliance) are in each state. */
export const complianceSummarySchema = z.object(
  Object.fromEntries(COMPLIANCE_STATES.map((s) => [s, z.number().int()])) as Record<(typeof COMPLIANCE_STATES)[number], z.ZodNumber>,
);
export type ComplianceSummary = z.infer<typeof complianceSummarySchema>;

/** What the license form starts with for a state and type: the state rule's hours and topics, else settings.default_ce_hours. */
export const licenseDefaultsInput = z
  .object({ state: singleLine(2).toUpperCase().optional(), license_type: z.enum(LICENSE_TYPES).optional() })
  .optional();
export const licenseDefaultsSchema = z.object({
  ce_hours_required: z.number(),
  /** Where ce_hours_required comes from. */
  source: z.enum(['rule', 'settings']),
  rule: z
    .object({
      state: z.string(),
      license_type: z.enum(LICENSE_TYPES),
      hours_required: z.number(),
      cycle_years: z.number().int(),
      topics: z.array(z.object({ topic: z.enum(CE_TOPICS), hours: z.number() })),
    })
    .nullable(),
});
export type LicenseDefaults = z.infer<typeof licenseDefaultsSchema>;
export type LicensePage = z.infer<typeof licensePageOutput>;

/** A user who may hold a license (Agent or Broker), as the holder select lists them. */
export const licenseHolderSchema = z.object({
  user_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  role_name: z.enum(ROLE_NAMES),
  is_active: z.boolean(),
});
export type LicenseHolder = z.infer<typeof licenseHolderSchema>;

/** 'first last (role)', as the holder select shows a user (docs/product.md section 2). */
export function holderLabel(h: Pick<LicenseHolder, 'first_name' | 'last_name' | 'role_name'>): string {
  return `${h.first_name} ${h.last_name} (${h.role_name})`;
}
