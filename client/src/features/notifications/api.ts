/**
 * The notification centre's server calls (docs/decisions.md "Notification centre", "Calendar feed"): my
 * notifications, the unread count of the top bar (polled every minute), read / read-all, my preferences and
 * my calendar link. Reading refreshes the list and the count together.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { NOTIFICATION_STRINGS, type NotificationListQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';

export const UNREAD_POLL_MS = 60_000;

function useRefreshNotifications() {
  const utils = trpc.useUtils();
  return () => {
    void utils.notifications.list.invalidate();
    void utils.notifications.unreadCount.invalidate();
  };
}

/** One page of my notifications; the previous page stays on screen while the next loads. */
export function useNotifications(input: NotificationListQuery) {
  return trpc.notifications.list.useQuery(input, { placeholderData: keepPreviousData });
}

/** The top bar's count: cheap, polled every minute, and refreshed by read / read-all. */
export function useUnreadCount(enabled = true) {
  return trpc.notifications.unreadCount.useQuery(undefined, { enabled, refetchInterval: UNREAD_POLL_MS, refetchOnWindowFocus: true });
}

export function useMarkRead() {
  const refresh = useRefreshNotifications();
  return trpc.notifications.markRead.useMutation(mutationOutcome(null, 'Failed to mark the notification read', refresh));
}

export function useMarkAllRead() {
  const refresh = useRefreshNotifications();
  return trpc.notifications.readAll.useMutation(mutationOutcome(null, 'Failed to mark the notifications read', refresh));
}

export function usePreferences() {
  return trpc.notifications.preferences.useQuery();
}

export function useSavePreferences() {
  const utils = trpc.useUtils();
  return trpc.notifications.savePreferences.useMutation(
    mutationOutcome(NOTIFICATION_STRINGS.preferencesSaved, 'Failed to save the preferences', (data) =>
      utils.notifications.preferences.setData(undefined, data),
    ),
  );
}

export function useCalendarStatus() {
  return trpc.notifications.calendarStatus.useQuery();
}

/**
 * Reads the feed's status again after a change. A status read still in flight began before the change and would
 * answer the old status (invalidating joins it when the query has no data yet), so it is cancelled first.
 */
async function refreshCalendarStatus(utils: ReturnType<typeof trpc.useUtils>) {
  await utils.notifications.calendarStatus.cancel();
  await utils.notifications.calendarStatus.invalidate();
}

export function useCreateCalendarLink() {
  const utils = trpc.useUtils();
  return trpc.notifications.createCalendarToken.useMutation(
    mutationOutcome(NOTIFICATION_STRINGS.calendarCreated, 'Failed to create the calendar link', () => void refreshCalendarStatus(utils)),
  );
}

export function useStopCalendarFeed() {
  const utils = trpc.useUtils();
  return trpc.notifications.deleteCalendarToken.useMutation(
    mutationOutcome(NOTIFICATION_STRINGS.calendarStopped, 'Failed to stop the calendar feed', () => void refreshCalendarStatus(utils)),
  );
}
