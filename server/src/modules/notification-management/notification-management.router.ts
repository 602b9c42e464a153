import { z } from 'zod';
import {
  deliveryPageOutput,
  deliveryPageQuery,
  deliveryStatusOutput,
  templatePageOutput,
  templatePageQuery,
  historyInput,
  historyOutput,
  idParam,
  successSchema,
  templateCreateInput,
  templateListOutput,
  templateSchema,
  templateTestInput,
  templateTestOutput,
  templateUpdateInput,
} from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as svc from './notification-management.service.ts';

const tags = ['notification-management'];
const base = '/admin/notification-templates';

/** Notification templates, test sends and delivery history (Admin only). Mounted at admin.notificationManagement. */
export const notificationManagementRouter = router({
  list: policyProcedure('notificationTemplates.read')
    .meta({ openapi: { method: 'GET', path: base, tags, summary: 'All notification templates', protect: true } })
    .input(z.object({}).optional())
    .output(templateListOutput)
    .query(({ ctx }) => svc.listTemplates(ctx)),

  page: policyProcedure('notificationTemplates.read')
    .meta({
      openapi: {
        method: 'GET',
        path: `${base}/page`,
        tags,
        summary:
          'One page of the templates: search (name or subject), type, trigger_event; sort name (default), type, trigger_event, is_active, updated_at with order; page, limit; with the total',
        protect: true,
      },
    })
    .input(templatePageQuery)
    .output(templatePageOutput)
    .query(({ ctx, input }) => svc.pageTemplates(ctx, input)),

  create: policyProcedure('notificationTemplates.create')
    .meta({ openapi: { method: 'POST', path: base, tags, summary: 'Create a notification template', protect: true }, errors: ['CONFLICT'] })
    .input(templateCreateInput)
    .output(templateSchema)
    .mutation(({ ctx, input }) => svc.createTemplate(ctx, input)),

  update: policyProcedure('notificationTemplates.update')
    .meta({
      openapi: { method: 'PUT', path: `${base}/{id}`, tags, summary: 'Update a notification template (fields given)', protect: true },
      errors: ['CONFLICT'],
    })
    .input(templateUpdateInput)
    .output(templateSchema)
    .mutation(({ ctx, input }) => svc.updateTemplate(ctx, input)),

  delete: policyProcedure('notificationTemplates.delete')
    .meta({ openapi: { method: 'DELETE', path: `${base}/{id}`, tags, summary: 'Delete a notification template', protect: true } })
    .input(z.object({ id: idParam }))
    .output(successSchema)
    .mutation(({ ctx, input }) => svc.deleteTemplate(ctx, input.id)),

  sendTest: policyProcedure('notificationTemplates.sendTest')
    .meta({
      openapi: {
        method: 'POST',
        path: `${base}/{id}/test`,
        tags,
        summary: 'Render the template with sample values and email it to test_email (always sends)',
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(templateTestInput)
    .output(templateTestOutput)
    .mutation(({ ctx, input }) => svc.sendTest(ctx, input)),

  history: policyProcedure('notificationHistory.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/notification-history',
        tags,
        summary: 'Delivery statistics and the most recent deliveries',
        protect: true,
      },
    })
    .input(historyInput)
    .output(historyOutput)
    .query(({ ctx, input }) => svc.history(ctx, input?.limit)),

  historyPage: policyProcedure('notificationHistory.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/notification-history/page',
        tags,
        summary:
          'One page of every delivery attempt: search (recipient, template name, subject), status, channel, template_id; sort created_at (default, newest first), recipient, template_name, channel, status, sent_at with order; page, limit; with the total',
        protect: true,
      },
    })
    .input(deliveryPageQuery)
    .output(deliveryPageOutput)
    .query(({ ctx, input }) => svc.pageDeliveries(ctx, input)),

  delivery: policyProcedure('notificationHistory.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/notification-delivery',
        tags,
        summary: 'How notifications leave this server: SMTP or the outbox (and where it is); SMS and push gateways',
        protect: true,
      },
    })
    .input(z.object({}).optional())
    .output(deliveryStatusOutput)
    .query(({ ctx }) => svc.deliveryInfo(ctx)),
});
