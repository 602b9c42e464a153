/**
 * The notification centre's server calls (docs/decisions.md "Notification centre", "Calendar feed"): my
 * notifications, the unread count of the top bar (polled every minute), read / read-all, my preferences and
 * my calendar link. Reading refreshes the list and the count together.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { INBOX_STRINGS, type InboxListQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';

export const UNREAD_POLL_MS = 60_000;

function useRefreshInbox() {
  const utils = trpc.useUtils();
  return () => {
    void utils.inbox.list.invalidate();
    void utils.inbox.unreadCount.invalidate();
  };
}

/** One page of my notifications; the previous page stays on screen while the next loads. */
export function useNotifications(input: InboxListQuery) {
  return trpc.inbox.list.useQuery(input, { placeholderData: keepPreviousData });
}

/** The top bar's count: cheap, polled every minute, and refreshed by read / read-all. */
export function useUnreadCount(enabled = true) {
  return trpc.inbox.unreadCount.useQuery(undefined, { enabled, refetchInterval: UNREAD_POLL_MS, refetchOnWindowFocus: true });
}

export function useMarkRead() {
  const refresh = useRefreshInbox();
  return trpc.inbox.markRead.useMutation({
    onSuccess: refresh,
    onError: (err) => notify.failure(err, 'Failed to mark the notification read'),
  });
}

export function useMarkAllRead() {
  const refresh = useRefreshInbox();
  return trpc.inbox.readAll.useMutation({
    onSuccess: refresh,
    onError: (err) => notify.failure(err, 'Failed to mark the notifications read'),
  });
}

export function usePreferences() {
  return trpc.inbox.preferences.useQuery();
}

export function useSavePreferences() {
  const utils = trpc.useUtils();
  return trpc.inbox.savePreferences.useMutation({
    onSuccess: (data) => {
      utils.inbox.preferences.setData(undefined, data);
      notify.success(INBOX_STRINGS.preferencesSaved);
    },
    onError: (err) => notify.failure(err, 'Failed to save the preferences'),
  });
}

export function useCalendarStatus() {
  return trpc.inbox.calendarStatus.useQuery();
}

export function useCreateCalendarLink() {
  const utils = trpc.useUtils();
  return trpc.inbox.createCalendarToken.useMutation({
    onSuccess: () => {
      void utils.inbox.calendarStatus.invalidate();
      notify.success(INBOX_STRINGS.calendarCreated);
    },
    onError: (err) => notify.failure(err, 'Failed to create the calendar link'),
  });
}

export function useStopCalendarFeed() {
  const utils = trpc.useUtils();
  return trpc.inbox.deleteCalendarToken.useMutation({
    onSuccess: () => {
      void utils.inbox.calendarStatus.invalidate();
      notify.success(INBOX_STRINGS.calendarStopped);
    },
    onError: (err) => notify.failure(err, 'Failed to stop the calendar feed'),
  });
}
