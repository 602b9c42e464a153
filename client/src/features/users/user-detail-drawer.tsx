import type { ReactNode } from 'react';
import { Center, Drawer, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { roleName, USER_STRINGS, type User } from '@lm/shared';
import { LicenseStatusBadge } from '../../components/license-status-badge.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { RoleBadge, StatusBadge } from './role-badge.tsx';
import { useUserLicenses } from './api.ts';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

const dash = <Text c="dimmed">-</Text>;

function UserLicenses({ userId }: { userId: number }) {
  const query = useUserLicenses(userId);
  if (query.isError) return <QueryError things="licenses" query={query} />;
  if (query.isLoading) {
    return (
      <Center py="md">
        <Loader size="sm" />
      </Center>
    );
  }
  const rows = query.data?.licenses ?? [];
  if (!rows.length) {
    return (
      <Text size="sm" c="dimmed">
        {USER_STRINGS.noLicenses}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table striped data-testid="user-licenses">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>License Number</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Expiration</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((l) => (
            <Table.Tr key={l.license_id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{l.license_number}</Table.Td>
              <Table.Td>{l.state}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{l.license_type}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(l.expiration_date)}</Table.Td>
              <Table.Td>
                <LicenseStatusBadge status={l.status} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A user's detail, opened from a row of the Users list: the user's fields, brokerage and licenses. */
export function UserDetailDrawer({ user, onClose }: { user: User | null; onClose: () => void }) {
  const narrow = useMediaQuery('(max-width: 48em)');
  const place = user ? [user.address, user.city, [user.state, user.zip_code].filter(Boolean).join(' ')].filter(Boolean).join(', ') : '';
  return (
    <Drawer
      opened={user !== null}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'lg'}
      title={user ? `${user.first_name} ${user.last_name}` : ''}
      closeButtonProps={{ 'aria-label': 'Close user details' }}
    >
      {user && (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Field label="Email">{user.email}</Field>
            <Field label="Role">
              <RoleBadge role={roleName(user.role_id)} />
            </Field>
            <Field label="Brokerage">{user.brokerage_name ?? dash}</Field>
            <Field label="Status">
              <StatusBadge active={user.is_active} />
            </Field>
            <Field label="Phone">{user.phone_number ? <span style={{ whiteSpace: 'nowrap' }}>{user.phone_number}</span> : dash}</Field>
            <Field label="Address">{place || dash}</Field>
            <Field label="Member Since">{formatDate(user.created_at)}</Field>
            <Field label="Last Login">{formatDateTime(user.last_login, 'Never')}</Field>
          </SimpleGrid>
          <div>
            <Title order={3} size="h4" mb="xs">
              Licenses
            </Title>
            <UserLicenses userId={user.user_id} />
          </div>
        </Stack>
      )}
    </Drawer>
  );
}
