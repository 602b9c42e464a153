import type { ReactNode } from 'react';
import { Anchor, Badge, Center, Drawer, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { BROKERAGE_STRINGS, ROLE_COLORS, roleName, type Brokerage } from '@lm/shared';
import { QueryError } from '../../components/query-error.tsx';
import { formatDate } from '../../lib/format.ts';
import { useBrokerageUsers } from './api.ts';

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

function People({ brokerage }: { brokerage: Brokerage }) {
  const users = useBrokerageUsers(brokerage.brokerage_id);
  if (users.isError) return <QueryError things="users" query={users} fallback={BROKERAGE_STRINGS.fetchUsersFailed} />;
  if (users.isLoading) {
    return (
      <Center py="lg">
        <Loader size="sm" />
      </Center>
    );
  }
  const list = users.data?.users ?? [];
  if (list.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="lg">
        {BROKERAGE_STRINGS.usersEmpty}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((u) => (
            <Table.Tr key={u.user_id}>
              <Table.Td>
                {u.first_name} {u.last_name}
              </Table.Td>
              <Table.Td>{u.email}</Table.Td>
              <Table.Td>
                <Badge color={ROLE_COLORS[roleName(u.role_id)]} variant="light">
                  {u.role_name}
                </Badge>
              </Table.Td>
              <Table.Td>{u.is_active ? 'Active' : 'Inactive'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A brokerage's detail, opened from a row of the list: its fields and 'Users in {brokerage}', its people. */
export function BrokerageDetailDrawer({ brokerage, onClose }: { brokerage: Brokerage | null; onClose: () => void }) {
  const narrow = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer
      opened={brokerage !== null}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'lg'}
      title={brokerage?.name ?? ''}
      closeButtonProps={{ 'aria-label': 'Close brokerage details' }}
    >
      {brokerage && (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Field label="Address">{brokerage.address ?? dash}</Field>
            <Field label="Phone">{brokerage.phone ? <span style={{ whiteSpace: 'nowrap' }}>{brokerage.phone}</span> : dash}</Field>
            <Field label="Email">{brokerage.email ?? dash}</Field>
            <Field label="Website">
              {brokerage.website ? (
                <Anchor href={brokerage.website} target="_blank" rel="noopener noreferrer" size="sm">
                  {brokerage.website}
                </Anchor>
              ) : (
                dash
              )}
            </Field>
            <Field label="Agents">{brokerage.agent_count}</Field>
            <Field label="Created">{formatDate(brokerage.created_at)}</Field>
          </SimpleGrid>
          <div>
            <Title order={3} size="h4" mb="xs">
              {BROKERAGE_STRINGS.usersTitle(brokerage.name)}
            </Title>
            <People brokerage={brokerage} />
          </div>
        </Stack>
      )}
    </Drawer>
  );
}
