import { z } from 'zod';
import {
  createPaymentInput,
  paymentDetailSchema,
  paymentIdInput,
  paymentListQuery,
  paymentPageOutput,
  paymentSchema,
  paymentSummaryQuery,
  paymentSummarySchema,
  successSchema,
  updatePaymentInput,
} from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as payments from './payments.service.ts';

const tags = ['payments'];

export const paymentsRouter = router({
  list: policyProcedure('payments.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/payments',
        tags,
        summary: 'Payments in your scope, newest first, with payer names (array; filters, optional page/limit)',
        protect: true,
      },
    })
    .input(paymentListQuery.optional())
    .output(z.array(paymentSchema))
    .query(({ ctx, input }) => payments.listPayments(ctx, input)),

  page: policyProcedure('payments.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/payments/page',
        tags,
        summary: 'One page of payments with {payments, pagination} (same filters as GET /payments)',
        protect: true,
      },
    })
    .input(paymentListQuery.optional())
    .output(paymentPageOutput)
    .query(({ ctx, input }) => payments.pagePayments(ctx, input)),

  summary: policyProcedure('payments.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/payments/summary',
        tags,
        summary: 'Totals in your scope: total_revenue (sum of Completed, dollars) and counts by status',
        protect: true,
      },
    })
    .input(paymentSummaryQuery.optional())
    .output(paymentSummarySchema)
    .query(({ ctx, input }) => payments.paymentSummary(ctx, input)),

  get: policyProcedure('payments.read')
    .meta({ openapi: { method: 'GET', path: '/payments/{id}', tags, summary: 'One payment', protect: true } })
    .input(paymentIdInput)
    .output(paymentSchema)
    .query(({ ctx, input }) => payments.getPayment(ctx, input.id)),

  detail: policyProcedure('payments.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/payments/{id}/detail',
        tags,
        summary: 'One payment with its payer (name, e-mail, phone, role, brokerage) and its linked license (or null)',
        protect: true,
      },
    })
    .input(paymentIdInput)
    .output(paymentDetailSchema)
    .query(({ ctx, input }) => payments.getPaymentDetail(ctx, input.id)),

  create: policyProcedure('payments.create')
    .meta({
      openapi: {
        method: 'POST',
        path: '/payments',
        tags,
        summary: 'Record a payment (defaults License Fee, Credit Card, Completed, today)',
        protect: true,
      },
      errors: ['NOT_FOUND'],
    })
    .input(createPaymentInput)
    .output(paymentSchema)
    .mutation(({ ctx, input }) => payments.createPayment(ctx, input)),

  update: policyProcedure('payments.update')
    .meta({
      openapi: { method: 'PUT', path: '/payments/{id}', tags, summary: 'Update a payment (any subset of fields)', protect: true },
      errors: ['PRECONDITION_FAILED'],
    })
    .input(updatePaymentInput)
    .output(paymentSchema)
    .mutation(({ ctx, input }) => payments.updatePayment(ctx, input)),

  delete: policyProcedure('payments.delete')
    .meta({ openapi: { method: 'DELETE', path: '/payments/{id}', tags, summary: 'Delete a payment', protect: true } })
    .input(paymentIdInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => payments.deletePayment(ctx, input.id)),
});
