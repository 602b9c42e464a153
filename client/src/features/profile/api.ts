/**
 * The Profile screen's calls: saving the signed-in user's details (the session's copy of the user follows)
 * and changing the password. Failures show as the forms' alerts, so only successes toast here.
 */
import { PROFILE_STRINGS } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';

export function useUpdateProfile() {
  const utils = trpc.useUtils();
  // Failures show as the form's alert (null: no toast).
  return trpc.users.updateProfile.useMutation(
    mutationOutcome(PROFILE_STRINGS.updated, null, (updated) => {
      utils.auth.me.setData(undefined, updated);
      void utils.users.invalidate();
    }),
  );
}

export function useChangePassword() {
  return trpc.auth.changePassword.useMutation(mutationOutcome(PROFILE_STRINGS.changed, null));
}

/** "Get a new calendar link" after a password change: the old link stops working (the URL is answered once). */
export function useRotateCalendarLink() {
  const utils = trpc.useUtils();
  return trpc.notifications.createCalendarToken.useMutation(
    mutationOutcome(
      PROFILE_STRINGS.calendarRotated,
      'Failed to create the calendar link',
      () => void utils.notifications.calendarStatus.invalidate(),
    ),
  );
}

/** The e-mail change links (signed in or not): confirm from the new address, undo from the old one. */
export function useEmailLink(kind: 'confirm' | 'undo') {
  const confirm = trpc.users.confirmEmailChange.useMutation();
  const undo = trpc.users.undoEmailChange.useMutation();
  return kind === 'confirm' ? confirm : undo;
}
