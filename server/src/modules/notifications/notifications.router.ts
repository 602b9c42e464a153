/**
 * The notification centre and the calendar link of the signed-in user (docs/decisions.md "Notification
 * centre", "Calendar feed"). Every role; own data only.
 */
import { z } from 'zod';
import {
  calendarStatusOutput,
  calendarTokenOutput,
  notificationIdInput,
  notificationListOutput,
  notificationListQuery,
  markAllReadOutput,
  markReadOutput,
  preferencesInput,
  preferencesOutput,
  successSchema,
  unreadCountOutput,
} from '@lm/shared';
import { authedProcedure, router } from '../../core/trpc.ts';
import * as notifications from './notifications.service.ts';
import * as calendar from './calendar.service.ts';

const tags = ['notifications'];
const none = z.object({}).optional();

export const notificationsRouter = router({
  list: authedProcedure('notifications.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/notifications',
        tags,
        summary: 'My notifications, newest first (page, limit, unread_only), with my unread count',
        protect: true,
      },
    })
    .input(notificationListQuery)
    .output(notificationListOutput)
    .query(({ ctx, input }) => notifications.listNotifications(ctx, input)),

  unreadCount: authedProcedure('notifications.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/notifications/unread-count',
        tags,
        summary: 'How many of my notifications are unread',
        protect: true,
      },
    })
    .input(none)
    .output(unreadCountOutput)
    .query(({ ctx }) => notifications.unreadCount(ctx)),

  readAll: authedProcedure('notifications.read')
    .meta({ openapi: { method: 'POST', path: '/notifications/read-all', tags, summary: 'Mark all my notifications read', protect: true } })
    .input(none)
    .output(markAllReadOutput)
    .mutation(({ ctx }) => notifications.markAllRead(ctx)),

  preferences: authedProcedure('notifications.preferences')
    .meta({
      openapi: {
        method: 'GET',
        path: '/notifications/preferences',
        tags,
        summary: 'My channels per event (in-app, e-mail, SMS) and which channels the Admin settings and gateways allow',
        protect: true,
      },
    })
    .input(none)
    .output(preferencesOutput)
    .query(({ ctx }) => notifications.getPreferences(ctx)),

  savePreferences: authedProcedure('notifications.preferences')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/notifications/preferences',
        tags,
        summary: 'Save my channels per event (400 when switching on a channel that is not available)',
        protect: true,
      },
    })
    .input(preferencesInput)
    .output(preferencesOutput)
    .mutation(({ ctx, input }) => notifications.savePreferences(ctx, input)),

  markRead: authedProcedure('notifications.read')
    .meta({
      openapi: { method: 'POST', path: '/notifications/{id}/read', tags, summary: 'Mark one of my notifications read', protect: true },
    })
    .input(notificationIdInput)
    .output(markReadOutput)
    .mutation(({ ctx, input }) => notifications.markRead(ctx, input.id)),

  calendarStatus: authedProcedure('notifications.calendar')
    .meta({
      openapi: { method: 'GET', path: '/calendar/status', tags, summary: 'Whether my calendar feed is on, since when', protect: true },
    })
    .input(none)
    .output(calendarStatusOutput)
    .query(({ ctx }) => calendar.calendarStatus(ctx)),

  createCalendarToken: authedProcedure('notifications.calendar')
    .meta({
      openapi: {
        method: 'POST',
        path: '/calendar/token',
        tags,
        summary: 'Create or rotate my calendar feed link ({url}, shown once; the previous link stops working)',
        protect: true,
      },
    })
    .input(none)
    .output(calendarTokenOutput)
    .mutation(({ ctx }) => calendar.createCalendarToken(ctx)),

  deleteCalendarToken: authedProcedure('notifications.calendar')
    .meta({
      openapi: { method: 'DELETE', path: '/calendar/token', tags, summary: 'Stop my calendar feed (its link answers 404)', protect: true },
    })
    .input(none)
    .output(successSchema)
    .mutation(({ ctx }) => calendar.deleteCalendarToken(ctx)),
});
