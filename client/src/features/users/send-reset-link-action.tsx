import { ActionIcon, Tooltip } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { PASSWORD_RESET_STRINGS, type User } from '@lm/shared';
import { confirm } from '../../components/confirm.ts';
import { notify } from '../../lib/notify.ts';
import { trpc } from '../../lib/trpc.ts';

/** Row action: e-mails the user a single-use link to choose a new password; the toast says where it went. */
export function SendResetLinkAction({ user }: { user: User }) {
  const send = trpc.users.sendResetLink.useMutation();
  const name = `${user.first_name} ${user.last_name}`;
  const onClick = async () => {
    const ok = await confirm(PASSWORD_RESET_STRINGS.sendLinkConfirm, {
      title: `${PASSWORD_RESET_STRINGS.sendLink}: ${name}`,
      confirmLabel: 'Send link',
      danger: false,
    });
    if (!ok) return;
    try {
      const result = await send.mutateAsync({ id: user.user_id });
      if (!result.success) notify.error(result.message);
      else if (result.message.includes('outbox')) notify.warning(result.message);
      else notify.success(result.message);
    } catch (err) {
      notify.failure(err, PASSWORD_RESET_STRINGS.linkFailed);
    }
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
