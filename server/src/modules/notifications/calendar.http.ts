/**
 * GET /api/calendar/{token}.ics: the calendar feed (calendar.service.ts). A plain Fastify route: calendar
 * applications send no session, the token in the path is the credential. Unknown token: 404; maintenance
 * mode: 503 unless the feed is an Admin's. The route only matches a path of the token's shape, so
 * /api/calendar/status and /api/calendar/token stay with the REST adapter.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FileRoutes, RouteDeps } from '../../http/file-routes.ts';
import { calendarFeed } from './calendar.service.ts';

async function serveFeed(deps: RouteDeps, req: FastifyRequest, reply: FastifyReply) {
  const { token } = req.params as { token: string };
  const text = (await calendarFeed(deps.db, deps.config, token)).toString();
  return (
    reply
      .type('text/calendar; charset=utf-8')
      .header('content-disposition', 'inline; filename="license-manager.ics"')
      // RFC 5545 ends every content line with CRLF, the last one included.
      .send(text.endsWith('\r\n') ? text : `${text}\r\n`)
  );
}

export const calendarFileRoutes: FileRoutes = {
  register(api, deps) {
    api.get('/calendar/:token(^[A-Za-z0-9_-]{43}).ics', (req, reply) => serveFeed(deps, req, reply));
  },
  // The token in the URL is the credential: no session (serveFeed still applies maintenance mode to the owner).
  access: { 'GET /calendar/{token}.ics': 'notifications.calendarFeed' },
  paths: {
    '/calendar/{token}.ics': {
      get: {
        tags: ['notifications'],
        summary: 'The calendar feed (iCalendar) of the user whose secret link this is; no session: the token is the credential',
        description:
          'One all-day event per license expiration (UID license-{id}-expiration@{host}), its renewal deadline (expiration minus license_expiry_warning_days) and, when CE hours are required, the CE due date with the hours remaining. Agent: own licenses; Broker: own and its brokerage agents; Admin: own only; School: an empty calendar. Create, rotate or stop the link with /calendar/token.',
        parameters: [{ in: 'path', name: 'token', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'text/calendar', content: { 'text/calendar': { schema: { type: 'string' } } } },
          '404': { description: 'No such feed (unknown, rotated or stopped link)' },
          '503': { description: 'Maintenance mode (unless the feed is an Admin one)' },
        },
      },
    },
  },
};
