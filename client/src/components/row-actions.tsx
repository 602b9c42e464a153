import { Fragment, isValidElement, type ReactElement } from 'react';
import { ActionIcon, Group, Menu, Tooltip } from '@mantine/core';
import { IconDots, IconEdit, IconTrash, type Icon } from '@tabler/icons-react';

/** One action of a table row (Edit, Renew, Delete, ...). */
export interface RowAction {
  /** The menu item's text, or the icon button's tooltip. */
  label: string;
  icon: Icon;
  onClick: () => void;
  /** 'red' for a destructive action ('green' for Approve); the menu's default otherwise. */
  color?: string;
  /** An icon button's accessible name ('Edit Ada Admin'); its label when absent. A menu item is named by its label. */
  name?: string;
  disabled?: boolean;
  loading?: boolean;
}

/** A row's actions in order; false, null and undefined are left out (what the row's state or the role does not allow). */
export type RowActionList<T = RowAction> = (T | false | null | undefined)[];

/** The Edit action of most rows; `name` is its accessible name as an icon button ('Edit Ada Admin'). */
export const editAction = (onClick: () => void, name?: string): RowAction => ({ label: 'Edit', icon: IconEdit, onClick, name });

/** The Delete action of most rows (red; the caller asks first with confirm()). */
export const deleteAction = (onClick: () => void, name?: string): RowAction => ({
  label: 'Delete',
  icon: IconTrash,
  color: 'red',
  onClick,
  name,
});

const present = <T,>(actions: RowActionList<T>): T[] => actions.filter((a): a is T => Boolean(a));

/**
 * The per-row "..." menu of a list (the ListTable's `actions`): one button named `label` ('Actions for license
 * TX-123') that opens the items; Mantine's menu gives the keyboard (Enter / Space / arrows to open and move,
 * Escape to close and return the focus to the button), and lib/row-focus.ts brings the focus back to this button
 * after the dialog an item opened closes. Nothing is rendered when no action applies to the row.
 */
export function RowActionsMenu({ label, actions }: { label: string; actions: RowActionList }) {
  const items = present(actions);
  if (items.length === 0) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={label}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {items.map((a) => (
          <Menu.Item key={a.label} color={a.color} leftSection={<a.icon size={16} />} disabled={a.disabled} onClick={a.onClick}>
            {a.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * A row's few actions as icon buttons, each always in view with its tooltip and its own accessible name (`name`):
 * the Users and Brokerages rows, a backup's Download / Restore / Delete, a log's View. An entry may be a ready
 * element (a button with state of its own, as Users' "Send password link").
 */
export function RowActionButtons({ actions }: { actions: RowActionList<RowAction | ReactElement> }) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {present(actions).map((a, i) =>
        isValidElement(a) ? (
          <Fragment key={i}>{a}</Fragment>
        ) : (
          <Tooltip key={a.label} label={a.label}>
            <ActionIcon
              variant="subtle"
              color={a.color}
              aria-label={a.name ?? a.label}
              disabled={a.disabled}
              loading={a.loading}
              onClick={a.onClick}
            >
              <a.icon size={18} />
            </ActionIcon>
          </Tooltip>
        ),
      )}
    </Group>
  );
}
