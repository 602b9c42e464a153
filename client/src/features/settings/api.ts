/**
 * The Settings screen's calls: read, save and reset the system settings (a change of the app name or support
 * contacts shows at once in the title bar, the tab and the sign-in screen, so the public settings refresh), and
 * whether an SMS gateway exists.
 */
import { SETTINGS_STRINGS, type Settings } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';

export function useSettings() {
  return trpc.admin.settings.get.useQuery();
}

export function useDeliveryStatus() {
  return trpc.admin.notificationManagement.delivery.useQuery(undefined, { staleTime: 60_000 });
}

/** Keeps the cached settings and the public ones in step with what the server saved. */
function useSavedSettings(onSaved: (settings: Settings) => void) {
  const utils = trpc.useUtils();
  return (settings: Settings) => {
    utils.admin.settings.get.setData(undefined, { settings });
    void utils.settings.public.invalidate();
    onSaved(settings);
  };
}

/** Save: the caller's onError puts the fields' messages on the form; the toast is here. */
export function useUpdateSettings(onSaved: (settings: Settings) => void) {
  const saved = useSavedSettings(onSaved);
  return trpc.admin.settings.update.useMutation(
    mutationOutcome(SETTINGS_STRINGS.updated, SETTINGS_STRINGS.updateFailed, (res) => saved(res.settings)),
  );
}

export function useResetSettings(onSaved: (settings: Settings) => void) {
  const saved = useSavedSettings(onSaved);
  return trpc.admin.settings.reset.useMutation(
    mutationOutcome(SETTINGS_STRINGS.resetDone, SETTINGS_STRINGS.updateFailed, (res) => saved(res.settings)),
  );
}
