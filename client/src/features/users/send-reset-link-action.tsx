import { ActionIcon, Tooltip } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { PASSWORD_RESET_STRINGS, type User } from '@lm/shared';
import { confirm } from '../../components/confirm.ts';
import { useSendResetLink } from './api.ts';

/** Row action: e-mails the user a single-use link to choose a new password; the toast says where it went. */
export function SendResetLinkAction({ user }: { user: User }) {
  const send = useSendResetLink();
  const name = `${user.first_name} ${user.last_name}`;
  const onClick = async () => {
    const ok = await confirm(PASSWORD_RESET_STRINGS.sendLinkConfirm, {
      title: `${PASSWORD_RESET_STRINGS.sendLink}: ${name}`,
      confirmLabel: 'Send link',
      danger: false,
    });
    if (ok) send.mutate({ id: user.user_id });
  };
  return (
    <Tooltip label={PASSWORD_RESET_STRINGS.sendLink}>
      <ActionIcon
        variant="subtle"
        color="teal"
        aria-label={`${PASSWORD_RESET_STRINGS.sendLink} to ${name}`}
        loading={send.isPending}
        onClick={() => void onClick()}
      >
        <IconKey size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
