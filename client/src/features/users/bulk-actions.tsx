import { useState } from 'react';
import { Alert, Button, Group, Menu, Modal, Select, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconBuilding, IconChevronDown, IconTrash, IconUserCheck, IconUserCog, IconUserOff } from '@tabler/icons-react';
import { USER_STRINGS, type BulkAction } from '@lm/shared';
import { notify } from '../../lib/notify.ts';
import { ServerSearchSelect } from '../../components/server-search-select.tsx';
import { ROLE_OPTIONS } from './user-form-values.ts';
import { brokerageOption, useBrokeragePicker, useBulkUsers } from './api.ts';

interface Props {
  selectedIds: number[];
  /** Admins may change role and brokerage; Brokers only activate, deactivate and delete their Agents. */
  canReassign: boolean;
  onDone: () => void;
}

type Dialog = 'change_role' | 'change_brokerage' | 'delete' | null;
const NONE = 'none';

/** The bulk menu of the Users screen (docs/product.md): activate, deactivate, change role, change brokerage, delete. */
export function BulkActions({ selectedIds, canReassign, onDone }: Props) {
  const bulk = useBulkUsers();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [roleId, setRoleId] = useState<string | null>(null);
  const [brokerageId, setBrokerageId] = useState<string | null>(null);

  const start = (action: Dialog | 'activate' | 'deactivate') => {
    if (selectedIds.length === 0) {
      notify.warning(USER_STRINGS.selectFirst);
      return;
    }
    if (action === 'activate' || action === 'deactivate') run(action);
    else {
      setRoleId(null);
      setBrokerageId(null);
      setDialog(action);
    }
  };

  const run = (action: BulkAction, data?: { role_id?: number; brokerage_id?: number | null }) => {
    bulk.mutate(
      { action, user_ids: selectedIds, ...(data ? { data } : {}) },
      {
        onSuccess: () => {
          setDialog(null);
          onDone();
        },
      },
    );
  };

  const count = selectedIds.length;
  return (
    <>
      <Menu position="bottom-end" width={220}>
        <Menu.Target>
          <Button variant="default" rightSection={<IconChevronDown size={16} />} loading={bulk.isPending}>
            Bulk Actions{count > 0 ? ` (${count})` : ''}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconUserCheck size={16} />} onClick={() => start('activate')}>
            Activate
          </Menu.Item>
          <Menu.Item leftSection={<IconUserOff size={16} />} onClick={() => start('deactivate')}>
            Deactivate
          </Menu.Item>
          {canReassign && (
            <>
              <Menu.Item leftSection={<IconUserCog size={16} />} onClick={() => start('change_role')}>
                Change Role
              </Menu.Item>
              <Menu.Item leftSection={<IconBuilding size={16} />} onClick={() => start('change_brokerage')}>
                Change Brokerage
              </Menu.Item>
            </>
          )}
          <Menu.Divider />
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => start('delete')}>
            Delete
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>

      <Modal opened={dialog === 'change_role'} onClose={() => setDialog(null)} title={`Change role of ${count} user(s)`}>
        <Stack>
          <Select
            label="New role"
            placeholder="Choose a role"
            data={ROLE_OPTIONS}
            value={roleId}
            onChange={setRoleId}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <Button disabled={!roleId} loading={bulk.isPending} onClick={() => run('change_role', { role_id: Number(roleId) })}>
              Apply
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={dialog === 'change_brokerage'} onClose={() => setDialog(null)} title={`Change brokerage of ${count} user(s)`}>
        <Stack>
          <ServerSearchSelect<{ brokerage_id: number; name: string }>
            label="New brokerage"
            placeholder="Choose a brokerage"
            fixed={[{ value: NONE, label: 'None (unassigned)' }]}
            emptyMessage="No brokerages"
            useResults={useBrokeragePicker}
            toOption={brokerageOption}
            value={brokerageId}
            onChange={(v) => setBrokerageId(v)}
            allowDeselect={false}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <Button
              disabled={!brokerageId}
              loading={bulk.isPending}
              onClick={() => run('change_brokerage', { brokerage_id: brokerageId === NONE ? null : Number(brokerageId) })}
            >
              Apply
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={dialog === 'delete'} onClose={() => setDialog(null)} title={`Delete ${count} user(s)`}>
        <Stack>
          <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="bulk-delete-warning">
            <Text size="sm">{USER_STRINGS.bulkDeleteWarning}</Text>
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <Button color="red" loading={bulk.isPending} onClick={() => run('delete')}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
