/**
 * The payments domain: API schemas, constants and the screen's strings (docs/product.md sections 2, 3, 5, 8, 9).
 * Money travels as dollars with 2 decimals and is stored as integer cents.
 */
import { z } from 'zod';
import { optionalLine, singleLine } from './text.ts';
import { dateString, idParam, paginationSchema, updatedSinceParam, cursorParam } from './common.ts';
import { PAYMENT_METHODS, PAYMENT_STATUSES, PAYMENT_TYPES } from './domain-constants.ts';
import { MAX_ID } from './common.ts';
import { licenseSchema } from './licenses.ts';
import { ROLE_NAMES } from './roles.ts';

export const PAYMENT_MESSAGES = {
  userRequired: 'User is required',
  amountPositive: 'Amount must be greater than 0',
  amountDecimals: 'Amount can have at most 2 decimal places',
  amountTooLarge: 'Amount must be at most 1,000,000.00',
  typeRequired: 'Payment type is required',
  licenseOfUser: "The license must belong to the payment's user",
} as const;

export const PAYMENT_STRINGS = {
  title: 'Payment Management',
  record: 'Record Payment',
  addTitle: 'Record New Payment',
  editTitle: 'Edit Payment',
  create: 'Record Payment',
  update: 'Update Payment',
  saving: 'Saving...',
  confirmDelete: 'Are you sure you want to delete this payment?',
  created: 'Payment recorded successfully!',
  updated: 'Payment updated successfully!',
  deleted: 'Payment deleted successfully!',
  createFailed: 'Failed to create payment',
  updateFailed: 'Failed to update payment',
  deleteFailed: 'Failed to delete payment',
  things: 'payments',
  empty: 'No payments found',
  cards: { revenue: 'Total Revenue', completed: 'Completed', pending: 'Pending', total: 'Total Payments' },
  detailTitle: 'Payment Details',
  detailFailed: 'Failed to load payment details',
} as const;

/**
 * "Total Revenue" is the sum of Completed payments, whatever their date, in the caller's scope (the Payments
 * cards, docs/product.md). The Reports overview's figure over its Start..End period is "Revenue This Period"
 * (docs/decisions.md "Licensing").
 */
export const REVENUE_LABELS = { total: PAYMENT_STRINGS.cards.revenue, period: 'Revenue This Period' } as const;

/** A new payment's defaults (docs/product.md section 9); the date defaults to the office's today. */
export const PAYMENT_DEFAULTS = { payment_type: 'License Fee', payment_method: 'Credit Card', status: 'Completed' } as const satisfies {
  payment_type: (typeof PAYMENT_TYPES)[number];
  payment_method: (typeof PAYMENT_METHODS)[number];
  status: (typeof PAYMENT_STATUSES)[number];
};

export const MAX_PAYMENT_DOLLARS = 1_000_000;

/** True when a dollar amount has no more than 2 decimals (within floating-point noise). */
export function hasAtMostTwoDecimals(amount: number): boolean {
  return Math.abs(amount * 100 - Math.round(amount * 100)) < 1e-6;
}

const amount = z
  .number({ error: PAYMENT_MESSAGES.amountPositive })
  .gt(0, PAYMENT_MESSAGES.amountPositive)
  .max(MAX_PAYMENT_DOLLARS, PAYMENT_MESSAGES.amountTooLarge)
  .refine(hasAtMostTwoDecimals, PAYMENT_MESSAGES.amountDecimals);

export const paymentSchema = z.object({
  payment_id: z.number().int(),
  user_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  license_id: z.number().int().nullable(),
  license_number: z.string().nullable(),
  /** Dollars with 2 decimals. */
  amount: z.number(),
  payment_type: z.enum(PAYMENT_TYPES),
  payment_method: z.enum(PAYMENT_METHODS),
  status: z.enum(PAYMENT_STATUSES),
  description: z.string().nullable(),
  payment_date: z.string(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

const paymentFields = {
  user_id: z.number({ error: PAYMENT_MESSAGES.userRequired }).int(PAYMENT_MESSAGES.userRequired).positive(PAYMENT_MESSAGES.userRequired),
  /** Optional: one of the payment user's licenses. null unlinks. */
  license_id: z.number().int().positive().max(MAX_ID).nullable(),
  amount,
  payment_type: z.enum(PAYMENT_TYPES, { error: PAYMENT_MESSAGES.typeRequired }),
  payment_method: z.enum(PAYMENT_METHODS),
  status: z.enum(PAYMENT_STATUSES),
  description: optionalLine(1000, 'multi'),
  payment_date: dateString,
};

/** POST /payments. Defaults (docs/product.md): License Fee, Credit Card, Completed, payment_date today. */
export const createPaymentInput = z.object({
  ...paymentFields,
  license_id: paymentFields.license_id.optional(),
  payment_type: paymentFields.payment_type.default(PAYMENT_DEFAULTS.payment_type),
  payment_method: paymentFields.payment_method.default(PAYMENT_DEFAULTS.payment_method),
  status: paymentFields.status.default(PAYMENT_DEFAULTS.status),
  description: paymentFields.description.optional(),
  /** Defaults to the office's today. */
  payment_date: dateString.optional(),
});
export type CreatePaymentInput = z.infer<typeof createPaymentInput>;

/** PUT /payments/{id}: any subset of the fields. */
export const updatePaymentInput = z.object(paymentFields).partial().extend({ id: idParam });
export type UpdatePaymentInput = z.infer<typeof updatePaymentInput>;

export const paymentIdInput = z.object({ id: idParam });

/** Every column the Payments list shows sorts on the server (Description: empty first, case-insensitive). */
export const PAYMENT_SORT_COLUMNS = [
  'payment_date',
  'user',
  'amount',
  'payment_type',
  'payment_method',
  'status',
  'description',
  'created_at',
] as const;
export type PaymentSortColumn = (typeof PAYMENT_SORT_COLUMNS)[number];

/** GET /payments, /payments/page and /payments/summary query (clients omit empty values). */
export const paymentListQuery = z.object({
  user_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  license_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  status: z.enum(PAYMENT_STATUSES).optional(),
  payment_type: z.enum(PAYMENT_TYPES).optional(),
  payment_method: z.enum(PAYMENT_METHODS).optional(),
  /** payment_date on or after. */
  start_date: dateString.optional(),
  /** payment_date on or before. */
  end_date: dateString.optional(),
  /** Payer first/last name or description, case-insensitive substring. */
  search: singleLine(200).optional(),
  sort: z.enum(PAYMENT_SORT_COLUMNS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).optional(),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(500).optional(),
  /** Only rows changed after this time (an integrator's sync; docs/api.md "Changes since"). */
  updated_since: updatedSinceParam.optional(),
});
export type PaymentListQuery = z.infer<typeof paymentListQuery>;

export const paymentSummaryQuery = paymentListQuery.omit({ sort: true, order: true, page: true, limit: true });
export type PaymentSummaryQuery = z.infer<typeof paymentSummaryQuery>;

export const paymentPageOutput = z.object({ payments: z.array(paymentSchema), pagination: paginationSchema });
export type PaymentPage = z.infer<typeof paymentPageOutput>;

/**
 * GET /payments/summary. total_revenue is the sum of Completed payments only (pending, failed and
 * refunded money is not revenue), in dollars; the rest are counts.
 */
export const paymentSummarySchema = z.object({
  total_revenue: z.number(),
  completed: z.number().int(),
  pending: z.number().int(),
  failed: z.number().int(),
  refunded: z.number().int(),
  total_payments: z.number().int(),
});
export type PaymentSummary = z.infer<typeof paymentSummarySchema>;

/** The payer as the payment detail shows them (the holder of the linked license, when there is one). */
export const paymentPayerSchema = z.object({
  user_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone_number: z.string().nullable(),
  role_name: z.enum(ROLE_NAMES),
  brokerage_name: z.string().nullable(),
  is_active: z.boolean(),
});
export type PaymentPayer = z.infer<typeof paymentPayerSchema>;

/** GET /payments/{id}/detail: the payment, its payer and its license (null when none is linked). */
export const paymentDetailSchema = z.object({
  payment: paymentSchema,
  payer: paymentPayerSchema,
  license: licenseSchema.nullable(),
});
export type PaymentDetail = z.infer<typeof paymentDetailSchema>;

/** '$1,234.50' */
export function formatPaymentAmount(amount: number): string {
  return amount.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
