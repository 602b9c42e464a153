/**
 * CSV exports of the Notification Management lists (Admin only): the templates and the delivery history,
 * each with its list's filters and sort (http/list-export.ts).
 */
import {
  DELIVERY_SORT_COLUMNS,
  deliveryLabel,
  deliveryPageQuery,
  DELIVERY_CHANNEL_LABELS,
  NOTIFICATION_TYPE_LABELS,
  TEMPLATE_SORT_COLUMNS,
  templatePageQuery,
  TRIGGER_EVENT_LABELS,
  type Delivery,
  type NotificationTemplate,
} from '@lm/shared';
import { chunkOf, listExports } from '../../http/list-export.ts';
import { pageDeliveries, pageTemplates } from './notification-management.service.ts';

const order = { name: 'order', schema: { type: 'string', enum: ['asc', 'desc'] } };

export const notificationManagementExports = listExports(
  {
    path: '/admin/notification-templates/export',
    name: 'notification_templates',
    action: 'notificationTemplates.read',
    query: templatePageQuery,
    page: async (ctx, q, cursor, limit) => {
      const p = await pageTemplates(ctx, { ...q, cursor, limit });
      return chunkOf(p.templates, p);
    },
    rows: 'One row per notification template matching the filters of GET /admin/notification-templates/page (search, type, trigger_event), in its sort and order',
    parameters: [
      ...['search', 'type', 'trigger_event'].map((name) => ({ name })),
      { name: 'sort', schema: { type: 'string', enum: [...TEMPLATE_SORT_COLUMNS] } },
      order,
    ],
    columns: [
      { header: 'ID', value: (t: NotificationTemplate) => t.id },
      { header: 'Name', value: (t: NotificationTemplate) => t.name },
      { header: 'Subject', value: (t: NotificationTemplate) => t.subject },
      { header: 'Type', value: (t: NotificationTemplate) => NOTIFICATION_TYPE_LABELS[t.type] },
      { header: 'Trigger Event', value: (t: NotificationTemplate) => TRIGGER_EVENT_LABELS[t.trigger_event] },
      { header: 'Status', value: (t: NotificationTemplate) => (t.is_active ? 'Active' : 'Inactive') },
      { header: 'Variables', value: (t: NotificationTemplate) => t.variables.join(' ') },
      { header: 'Body', value: (t: NotificationTemplate) => t.body },
      { header: 'Updated', value: (t: NotificationTemplate) => t.updated_at },
    ],
  },
  {
    path: '/admin/notification-history/export',
    name: 'notification_history',
    action: 'notificationHistory.read',
    query: deliveryPageQuery,
    page: async (ctx, q, cursor, limit) => {
      const p = await pageDeliveries(ctx, { ...q, cursor, limit });
      return chunkOf(p.deliveries, p);
    },
    rows: 'One row per delivery attempt matching the filters of GET /admin/notification-history/page (search, status, channel, template_id), in its sort and order (default newest first)',
    parameters: [
      ...['search', 'status', 'channel', 'template_id'].map((name) => ({ name })),
      { name: 'sort', schema: { type: 'string', enum: [...DELIVERY_SORT_COLUMNS] } },
      order,
    ],
    columns: [
      { header: 'ID', value: (d: Delivery) => d.id },
      { header: 'Created', value: (d: Delivery) => d.created_at },
      { header: 'Recipient', value: (d: Delivery) => d.recipient },
      { header: 'Template', value: (d: Delivery) => d.template_name },
      { header: 'Channel', value: (d: Delivery) => DELIVERY_CHANNEL_LABELS[d.channel] },
      { header: 'Status', value: (d: Delivery) => deliveryLabel(d) },
      { header: 'Subject', value: (d: Delivery) => d.subject },
      { header: 'Error', value: (d: Delivery) => d.error },
      { header: 'Sent', value: (d: Delivery) => d.sent_at },
    ],
  },
);
