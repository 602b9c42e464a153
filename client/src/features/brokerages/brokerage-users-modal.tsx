import { Alert, Badge, Center, Loader, Modal, Table, Text } from '@mantine/core';
import { BROKERAGE_STRINGS, ROLE_COLORS, roleName, type Brokerage } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { errorMessage } from '../../lib/errors.ts';

function UsersList({ brokerage }: { brokerage: Brokerage }) {
  const users = trpc.brokerages.users.useQuery({ id: brokerage.brokerage_id });
  if (users.isLoading) {
    return (
      <Center py="lg">
        <Loader size="sm" />
      </Center>
    );
  }
  if (users.isError) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(users.error, BROKERAGE_STRINGS.fetchUsersFailed)}
      </Alert>
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
    <Table.ScrollContainer minWidth={480}>
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

/** 'Users in {brokerage}': the people assigned to one brokerage. */
export function BrokerageUsersModal({ brokerage, onClose }: { brokerage: Brokerage | null; onClose: () => void }) {
  return (
    <Modal opened={brokerage !== null} onClose={onClose} title={brokerage ? BROKERAGE_STRINGS.usersTitle(brokerage.name) : ''} size="lg">
      {brokerage && <UsersList brokerage={brokerage} />}
    </Modal>
  );
}
