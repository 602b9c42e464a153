/**
 * The Profile screen's calls: saving the signed-in user's details (the session's copy of the user follows)
 * and changing the password. Failures show as the forms' alerts, so only successes toast here.
 */
import { PROFILE_STRINGS } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';

export function useUpdateProfile() {
  const utils = trpc.useUtils();
  return trpc.users.updateProfile.useMutation({
    onSuccess: (updated) => {
      utils.auth.me.setData(undefined, updated);
      void utils.users.invalidate();
      notify.success(PROFILE_STRINGS.updated);
    },
  });
}

export function useChangePassword() {
  return trpc.auth.changePassword.useMutation({ onSuccess: () => notify.success(PROFILE_STRINGS.changed) });
}
