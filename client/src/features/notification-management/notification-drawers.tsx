import type { ReactNode } from 'react';
import { Badge, Code, Drawer, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { NOTIFICATION_MANAGEMENT_STRINGS, DELIVERY_CHANNEL_LABELS, type Delivery, type NotificationTemplate } from '@lm/shared';
import { formatDateTime } from '../../lib/format.ts';
import { QueryError } from '../../components/query-error.tsx';
import { ActiveBadge, DeliveryStatusBadge, TypeBadge, triggerLabel } from './template-badges.tsx';
import { useDeliveriesPage } from './api.ts';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </div>
  );
}

/** How many of a template's deliveries its drawer lists (newest first). */
const TEMPLATE_DELIVERIES_SHOWN = 10;

/** A template's detail: its fields, body, variables and its latest deliveries. */
export function TemplateDrawer({ template, onClose }: { template: NotificationTemplate | null; onClose: () => void }) {
  const deliveries = useDeliveriesPage({ template_id: template?.id, limit: TEMPLATE_DELIVERIES_SHOWN }, template !== null);
  return (
    <Drawer opened={template !== null} onClose={onClose} title={template?.name ?? ''} position="right" size="lg">
      {template && (
        <Stack>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Field label="Type">
              <TypeBadge type={template.type} />
            </Field>
            <Field label="Trigger Event">{triggerLabel(template.trigger_event)}</Field>
            <Field label="Status">
              <ActiveBadge active={template.is_active} />
            </Field>
            <Field label="Updated">{formatDateTime(template.updated_at)}</Field>
          </SimpleGrid>
          <Field label="Subject">{template.subject}</Field>
          <Field label="Body">
            <Code block style={{ whiteSpace: 'pre-wrap' }}>
              {template.body}
            </Code>
          </Field>
          <Field label="Variables">
            <Group gap={4}>
              {template.variables.length
                ? template.variables.map((v) => <Badge key={v} variant="light" tt="none">{`{{${v}}}`}</Badge>)
                : 'None'}
            </Group>
          </Field>
          <Title order={3} size="h5">
            Latest deliveries
          </Title>
          {deliveries.isError ? (
            <QueryError things="deliveries" query={deliveries} />
          ) : deliveries.data && deliveries.data.deliveries.length === 0 ? (
            <Text size="sm" c="dimmed">
              {NOTIFICATION_MANAGEMENT_STRINGS.noDeliveries}
            </Text>
          ) : (
            <Table data-testid="template-deliveries">
              <Table.Tbody>
                {(deliveries.data?.deliveries ?? []).map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>{d.recipient}</Table.Td>
                    <Table.Td>{formatDateTime(d.created_at)}</Table.Td>
                    <Table.Td>
                      <DeliveryStatusBadge delivery={d} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      )}
    </Drawer>
  );
}

/** One delivery attempt in full: who, which template, how it left (or why not). */
export function DeliveryDrawer({ delivery, onClose }: { delivery: Delivery | null; onClose: () => void }) {
  return (
    <Drawer opened={delivery !== null} onClose={onClose} title="Notification details" position="right" size="md">
      {delivery && (
        <Stack>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Field label="Recipient">{delivery.recipient}</Field>
            <Field label="Template">{delivery.template_name}</Field>
            <Field label="Channel">{DELIVERY_CHANNEL_LABELS[delivery.channel]}</Field>
            <Field label="Status">
              <DeliveryStatusBadge delivery={delivery} />
            </Field>
            <Field label="Created">{formatDateTime(delivery.created_at, '', { seconds: true })}</Field>
            <Field label="Sent">{delivery.sent_at ? formatDateTime(delivery.sent_at, '', { seconds: true }) : 'N/A'}</Field>
          </SimpleGrid>
          <Field label="Subject">{delivery.subject ?? 'N/A'}</Field>
          {delivery.error && <Field label="Error">{delivery.error}</Field>}
        </Stack>
      )}
    </Drawer>
  );
}
