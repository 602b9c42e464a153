/** Webhook endpoints and their delivery log (docs/api.md "Webhooks"): Admin only. */
import { z } from 'zod';
import {
  createdWebhookSchema,
  createWebhookInput,
  redeliverInput,
  successSchema,
  updateWebhookInput,
  webhookDeliveriesOutput,
  webhookDeliveriesQuery,
  webhookDeliverySchema,
  webhookIdInput,
  webhookListOutput,
  webhookSchema,
} from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as webhooks from './webhooks.service.ts';

const tags = ['webhooks'];
const none = z.object({}).optional();

export const webhooksRouter = router({
  list: policyProcedure('webhooks.read')
    .meta({ openapi: { method: 'GET', path: '/webhooks', tags, summary: 'Webhook endpoints (never their secrets)', protect: true } })
    .input(none)
    .output(webhookListOutput)
    .query(({ ctx }) => webhooks.listWebhooks(ctx)),

  get: policyProcedure('webhooks.read')
    .meta({ openapi: { method: 'GET', path: '/webhooks/{id}', tags, summary: 'One webhook endpoint', protect: true } })
    .input(webhookIdInput)
    .output(webhookSchema)
    .query(({ ctx, input }) => webhooks.getWebhook(ctx, input.id)),

  create: policyProcedure('webhooks.manage')
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks',
        tags,
        summary: 'Add an endpoint: {url, events, description}; answers its signing secret (whsec_…) this once',
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(createWebhookInput)
    .output(createdWebhookSchema)
    .mutation(({ ctx, input }) => webhooks.createWebhook(ctx, input)),

  update: policyProcedure('webhooks.manage')
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/webhooks/{id}',
        tags,
        summary: 'Change url, events, description or enabled (enabling clears the failing state)',
        protect: true,
      },
    })
    .input(updateWebhookInput)
    .output(webhookSchema)
    .mutation(({ ctx, input }) => webhooks.updateWebhook(ctx, input)),

  replace: policyProcedure('webhooks.manage')
    .meta({ openapi: { method: 'PUT', path: '/webhooks/{id}', tags, summary: 'Same as PATCH /webhooks/{id}', protect: true } })
    .input(updateWebhookInput)
    .output(webhookSchema)
    .mutation(({ ctx, input }) => webhooks.updateWebhook(ctx, input)),

  delete: policyProcedure('webhooks.manage')
    .meta({ openapi: { method: 'DELETE', path: '/webhooks/{id}', tags, summary: 'Delete an endpoint and its deliveries', protect: true } })
    .input(webhookIdInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => webhooks.deleteWebhook(ctx, input.id)),

  deliveries: policyProcedure('webhooks.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/webhooks/{id}/deliveries',
        tags,
        summary: 'The delivery log, newest first: event, webhook-id, attempts, last status, duration, next attempt, delivered',
        protect: true,
      },
    })
    .input(webhookDeliveriesQuery)
    .output(webhookDeliveriesOutput)
    .query(({ ctx, input }) => webhooks.listDeliveries(ctx, input)),

  redeliver: policyProcedure('webhooks.manage')
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/deliveries/{delivery_id}/redeliver',
        tags,
        summary: 'Send a delivery again now (same webhook-id and body)',
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(redeliverInput)
    .output(webhookDeliverySchema)
    .mutation(({ ctx, input }) => webhooks.redeliver(ctx, input.id, input.delivery_id)),

  test: policyProcedure('webhooks.manage')
    .meta({
      openapi: { method: 'POST', path: '/webhooks/{id}/test', tags, summary: 'Queue a webhook.test event to this endpoint', protect: true },
      errors: ['CONFLICT'],
    })
    .input(webhookIdInput)
    .output(webhookDeliverySchema)
    .mutation(({ ctx, input }) => webhooks.sendTest(ctx, input.id)),
});
