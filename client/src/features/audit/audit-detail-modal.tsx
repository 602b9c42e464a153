import type { ReactNode } from 'react';
import { Badge, Code, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { AUDIT_STRINGS, auditActionColor, auditUserLabel, formatAuditJson, type AuditLog } from '@lm/shared';
import { formatDateTime } from '../../lib/format.ts';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

/** One entry in full: who (as stored with the entry), what, where, and the old and new values as formatted JSON. */
export function AuditDetailModal({ log, onClose }: { log: AuditLog | null; onClose: () => void }) {
  return (
    <Modal opened={log !== null} onClose={onClose} title={AUDIT_STRINGS.detailTitle} size="lg">
      {log && (
        <Stack>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Field label="Log ID">{log.log_id}</Field>
            <Field label="Timestamp">{formatDateTime(log.timestamp, '', { seconds: true })}</Field>
            <Field label="User">{auditUserLabel(log)}</Field>
            <Field label="Email">{log.actor_email ?? 'N/A'}</Field>
            <Field label="Action">
              <Badge color={auditActionColor(log.action)} variant="light">
                {log.action}
              </Badge>
            </Field>
            <Field label="IP Address">{log.ip_address ?? 'N/A'}</Field>
            <Field label="Target Table">{log.target_table ?? 'N/A'}</Field>
            <Field label="Target ID">{log.target_id ?? 'N/A'}</Field>
          </SimpleGrid>
          <Field label="Old Values">
            <Code block data-testid="old-values" mah={240} style={{ overflow: 'auto' }}>
              {formatAuditJson(log.old_values)}
            </Code>
          </Field>
          <Field label="New Values">
            <Code block data-testid="new-values" mah={240} style={{ overflow: 'auto' }}>
              {formatAuditJson(log.new_values)}
            </Code>
          </Field>
        </Stack>
      )}
    </Modal>
  );
}
