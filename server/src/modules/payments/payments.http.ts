/** GET /api/payments/export: the Payments screen's filtered, sorted view as CSV (server/src/http/list-export.ts). */
import { paymentListQuery, type Payment } from '@lm/shared';
import { chunkOf, listExports } from '../../http/list-export.ts';
import { pagePayments } from './payments.service.ts';

export const paymentsExport = listExports({
  path: '/payments/export',
  name: 'payments',
  action: 'payments.read',
  query: paymentListQuery,
  page: async (ctx, q, cursor, limit) => {
    const p = await pagePayments(ctx, { ...q, cursor, limit });
    return chunkOf(p.payments, p);
  },
  rows: 'One row per payment in your scope matching the filters of GET /payments (user_id, license_id, status, payment_type, payment_method, start_date, end_date, search), in its sort and order (newest first by default); Amount in dollars with 2 decimals',
  parameters: [
    'user_id',
    'license_id',
    'status',
    'payment_type',
    'payment_method',
    'start_date',
    'end_date',
    'search',
    'sort',
    'order',
  ].map((name) => ({ name })),
  columns: [
    { header: 'Payment ID', value: (p: Payment) => p.payment_id },
    { header: 'Date', value: (p: Payment) => p.payment_date },
    { header: 'User', value: (p: Payment) => `${p.first_name} ${p.last_name}` },
    { header: 'License Number', value: (p: Payment) => p.license_number ?? '' },
    { header: 'Type', value: (p: Payment) => p.payment_type },
    { header: 'Amount', value: (p: Payment) => p.amount.toFixed(2) },
    { header: 'Method', value: (p: Payment) => p.payment_method },
    { header: 'Status', value: (p: Payment) => p.status },
    { header: 'Description', value: (p: Payment) => p.description ?? '' },
  ],
});
