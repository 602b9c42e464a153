import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The top bar's bell: my unread notifications (`unread`, which app/signed-in.tsx polls), a link to the notification centre. */
export function NotificationBell({ unread }: { unread: number }) {
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Tooltip label={label}>
      <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={unread === 0} offset={4} color="red">
        <ActionIcon component={Link} to="/notifications" variant="default" size="lg" aria-label={label} data-testid="notification-bell">
          <IconBell size={18} />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}
