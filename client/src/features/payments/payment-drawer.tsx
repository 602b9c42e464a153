import type { ReactNode } from 'react';
import { Badge, Divider, Drawer, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { PAYMENT_STRINGS, type PaymentDetail } from '@lm/shared';
import { QueryError } from '../../components/query-error.tsx';
import { LicenseStatusBadge } from '../../components/license-status-badge.tsx';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format.ts';
import { usePaymentDetail } from './api.ts';
import { PaymentMethodBadge, PaymentStatusBadge, PaymentTypeBadge } from './payment-badges.tsx';

/** A row of the Payments list opens this: the payment, its payer and its license (docs/product.md "Payments"). */
export function PaymentDrawer({ paymentId, onClose }: { paymentId: number | null; onClose: () => void }) {
  const narrow = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer
      opened={paymentId !== null}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'lg'}
      title={
        <Title order={3} component="span">
          {PAYMENT_STRINGS.detailTitle}
        </Title>
      }
      closeButtonProps={{ 'aria-label': 'Close payment details' }}
    >
      {paymentId !== null && <DetailBody paymentId={paymentId} />}
    </Drawer>
  );
}

function DetailBody({ paymentId }: { paymentId: number }) {
  const query = usePaymentDetail(paymentId);
  if (query.isError) return <QueryError things="the payment" query={query} fallback={PAYMENT_STRINGS.detailFailed} />;
  if (!query.data) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the payment">
        <Skeleton h={56} />
        <Skeleton h={120} />
        <Skeleton h={120} />
      </Stack>
    );
  }
  return <DetailView detail={query.data} />;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={3} size="h4" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function DetailView({ detail }: { detail: PaymentDetail }) {
  const { payment: p, payer, license } = detail;
  return (
    <Stack gap="lg" data-testid="payment-detail">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Text fw={700} fz={28} lh={1.1}>
            {formatMoney(p.amount)}
          </Text>
          <Text size="sm" c="dimmed">
            {formatDate(p.payment_date)} · {p.first_name} {p.last_name}
          </Text>
        </Stack>
        <PaymentStatusBadge status={p.status} />
      </Group>

      <Section id="payment-detail-payment" title="Payment">
        <SimpleGrid cols={2} spacing="sm">
          <Field label="Type">
            <PaymentTypeBadge type={p.payment_type} />
          </Field>
          <Field label="Method">
            <PaymentMethodBadge method={p.payment_method} />
          </Field>
          <Field label="Date">{formatDate(p.payment_date)}</Field>
          <Field label="Payment ID">{p.payment_id}</Field>
          <Field label="Recorded">{formatDateTime(p.created_at)}</Field>
          <Field label="Last updated">{formatDateTime(p.updated_at)}</Field>
        </SimpleGrid>
        <Field label="Description">{p.description || '-'}</Field>
      </Section>

      <Divider />

      <Section id="payment-detail-payer" title="Payer">
        <SimpleGrid cols={2} spacing="sm">
          <Field label="Name">
            <Group gap="xs">
              <span>
                {payer.first_name} {payer.last_name}
              </span>
              {!payer.is_active && (
                <Badge variant="light" color="gray">
                  Inactive
                </Badge>
              )}
            </Group>
          </Field>
          <Field label="Role">{payer.role_name}</Field>
          <Field label="Email">{payer.email}</Field>
          <Field label="Phone">{payer.phone_number || '-'}</Field>
          <Field label="Brokerage">{payer.brokerage_name ?? '-'}</Field>
        </SimpleGrid>
      </Section>

      <Divider />

      <Section id="payment-detail-license" title="License">
        {license ? (
          <SimpleGrid cols={2} spacing="sm">
            <Field label="License Number">{license.license_number}</Field>
            <Field label="Status">
              <LicenseStatusBadge status={license.status} />
            </Field>
            <Field label="State">{license.state}</Field>
            <Field label="Type">{license.license_type}</Field>
            <Field label="Issue Date">{formatDate(license.issue_date)}</Field>
            <Field label="Expiration">{formatDate(license.expiration_date)}</Field>
          </SimpleGrid>
        ) : (
          <Text size="sm" c="dimmed">
            No license is linked to this payment.
          </Text>
        )}
      </Section>
    </Stack>
  );
}
