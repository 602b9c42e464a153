import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLogs, calendarFeeds, licenses } from '../src/db/schema/index.ts';
import { invalidateSettings, writeSettings } from '../src/core/settings.ts';
import { api, callerFor, seedBrokerage, seedUser, tokenFor, useTestEnv } from './helpers.ts';

const t = useTestEnv();

interface VEvent {
  props: Record<string, string>;
}

/**
 * A small strict iCalendar reader (RFC 5545): CRLF line ends, unfolded continuation lines, balanced
 * BEGIN/END, exactly one VCALENDAR with VERSION and PRODID; returns its VEVENTs as name(;params) -> value.
 */
function parseIcs(text: string): VEvent[] {
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  const lines = text
    .slice(0, -2)
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n');
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  expect(lines.at(-1)).toBe('END:VCALENDAR');
  const stack: string[] = [];
  const events: VEvent[] = [];
  const calendar: Record<string, string> = {};
  let current: VEvent | null = null;
  for (const line of lines) {
    const i = line.indexOf(':');
    expect(i, `property line without a value: ${line}`).toBeGreaterThan(0);
    const name = line.slice(0, i);
    const value = line.slice(i + 1);
    if (name === 'BEGIN') {
      stack.push(value);
      if (value === 'VEVENT') current = { props: {} };
    } else if (name === 'END') {
      expect(stack.pop()).toBe(value);
      if (value === 'VEVENT') {
        events.push(current!);
        current = null;
      }
    } else if (current) current.props[name] = value;
    else if (stack.length === 1) calendar[name] = value;
  }
  expect(stack).toEqual([]);
  expect(calendar.VERSION).toBe('2.0');
  expect(calendar.PRODID).toBeTruthy();
  for (const e of events) {
    expect(e.props.UID).toBeTruthy();
    expect(e.props.DTSTAMP).toMatch(/^\d{8}T\d{6}Z$/);
    expect(e.props['DTSTART;VALUE=DATE']).toMatch(/^\d{8}$/);
  }
  expect(new Set(events.map((e) => e.props.UID)).size).toBe(events.length);
  return events;
}

let seq = 0;
async function seedLicense(userId: number, expiration_date: string, ce_hours_required = 0) {
  const [row] = await t.env.db.transaction((tx) =>
    tx
      .insert(licenses)
      .values({
        user_id: userId,
        license_number: `CAL-${++seq}-${Date.now() % 100000}`,
        state: 'CA',
        license_type: 'Sales',
        issue_date: '2024-01-01',
        expiration_date,
        ce_hours_required,
        status: 'Active',
      })
      .returning(),
  );
  return row!;
}

const path = (url: string) => new URL(url).pathname;
const compact = (date: string) => date.replaceAll('-', '');

describe('calendar feed', () => {
  it('an Agent’s feed: one all-day event per expiration, renewal deadline and CE due date with hours remaining', async () => {
    const { env } = t;
    const agent = await seedUser(env, 'Agent');
    const token = await tokenFor(env, agent.user_id);
    const a = await seedLicense(agent.user_id, '2027-03-01', 24);
    const b = await seedLicense(agent.user_id, '2027-06-15');
    expect((await api(env, 'GET', '/api/calendar/status', { token })).body).toEqual({ active: false, created_at: null });

    const created = await api(env, 'POST', '/api/calendar/token', { token });
    expect(created.status).toBe(200);
    expect(created.body.url).toMatch(/^https?:\/\/[^/]+\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect((await api(env, 'GET', '/api/calendar/status', { token })).body).toMatchObject({ active: true });
    // Only the hash is stored.
    const [stored] = await env.db.select().from(calendarFeeds).where(eq(calendarFeeds.user_id, agent.user_id));
    expect(stored!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(created.body.url).not.toContain(stored!.token_hash);

    const feed = await api(env, 'GET', path(created.body.url)); // no session
    expect(feed.status).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^text\/calendar/);
    const events = parseIcs(feed.body);
    const host = new URL(env.config.publicUrl).hostname;
    const byUid = Object.fromEntries(events.map((e) => [e.props.UID, e.props]));
    expect(Object.keys(byUid).sort()).toEqual(
      [
        `license-${a.license_id}-expiration@${host}`,
        `license-${a.license_id}-renewal@${host}`,
        `license-${a.license_id}-ce@${host}`,
        `license-${b.license_id}-expiration@${host}`,
        `license-${b.license_id}-renewal@${host}`,
      ].sort(),
    );
    expect(byUid[`license-${a.license_id}-expiration@${host}`]!['DTSTART;VALUE=DATE']).toBe(compact(a.expiration_date));
    expect(byUid[`license-${a.license_id}-expiration@${host}`]!.SUMMARY).toBe(`License ${a.license_number} expires`);
    // Renewal: expiration minus the warning days (default 30).
    expect(byUid[`license-${b.license_id}-renewal@${host}`]!['DTSTART;VALUE=DATE']).toBe('20270516');
    expect(byUid[`license-${a.license_id}-ce@${host}`]!.SUMMARY).toBe(`CE due for ${a.license_number}: 24 hours remaining`);
    // The same license keeps its UID on the next fetch.
    const again = parseIcs((await api(env, 'GET', path(created.body.url))).body);
    expect(again.map((e) => e.props.UID).sort()).toEqual(events.map((e) => e.props.UID).sort());
  });

  it('a Broker’s feed has its own and its brokerage agents’ licenses, not another brokerage’s; a School’s is empty', async () => {
    const { env } = t;
    const mine = await seedBrokerage(env, 'Feed Realty');
    const theirs = await seedBrokerage(env, 'Other Realty');
    const broker = await seedUser(env, 'Broker', { brokerage_id: mine });
    const agent = await seedUser(env, 'Agent', { brokerage_id: mine, first_name: 'Ann', last_name: 'Agent' });
    const stranger = await seedUser(env, 'Agent', { brokerage_id: theirs });
    const own = await seedLicense(broker.user_id, '2027-01-10');
    const agents = await seedLicense(agent.user_id, '2027-02-10');
    const other = await seedLicense(stranger.user_id, '2027-03-10');
    const { url } = await callerFor(env, broker.user_id).notifications.createCalendarToken();
    const events = parseIcs((await api(env, 'GET', path(url))).body);
    const expirations = events.filter((e) => e.props.UID!.includes('-expiration@'));
    const ids = expirations.map((e) => Number(/license-(\d+)-/.exec(e.props.UID!)![1]));
    expect(ids).toContain(own.license_id);
    expect(ids).toContain(agents.license_id);
    expect(ids).not.toContain(other.license_id);
    expect(expirations.find((e) => e.props.UID!.startsWith(`license-${agents.license_id}-`))!.props.SUMMARY).toBe(
      `License ${agents.license_number} expires (Ann Agent)`,
    );

    // Admin: its own licenses only (docs/decisions.md "Calendar feed").
    const adminFeed = await callerFor(env, t.roles.admin.user_id).notifications.createCalendarToken();
    expect(parseIcs((await api(env, 'GET', path(adminFeed.url))).body)).toEqual([]);
    const schoolFeed = await callerFor(env, t.roles.school.user_id).notifications.createCalendarToken();
    expect(parseIcs((await api(env, 'GET', path(schoolFeed.url))).body)).toEqual([]);
  });

  it('rotating makes the old URL 404 and the new one work; stopping makes it 404; both audited', async () => {
    const { env } = t;
    const agent = await seedUser(env, 'Agent');
    const token = await tokenFor(env, agent.user_id);
    const first = (await api(env, 'POST', '/api/calendar/token', { token })).body.url as string;
    const second = (await api(env, 'POST', '/api/calendar/token', { token })).body.url as string;
    expect(second).not.toBe(first);
    expect((await api(env, 'GET', path(first))).status).toBe(404);
    expect((await api(env, 'GET', path(second))).status).toBe(200);
    // A made-up token of the right shape, and a malformed one.
    expect((await api(env, 'GET', `/api/calendar/${'A'.repeat(43)}.ics`)).status).toBe(404);
    expect((await api(env, 'GET', '/api/calendar/nope.ics')).status).toBe(404);

    const stopped = await api(env, 'DELETE', '/api/calendar/token', { token });
    expect(stopped.status).toBe(200);
    expect((await api(env, 'GET', path(second))).status).toBe(404);
    expect((await api(env, 'GET', '/api/calendar/status', { token })).body).toEqual({ active: false, created_at: null });

    const actions = (await env.db.select().from(auditLogs).where(eq(auditLogs.user_id, agent.user_id))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['create_calendar_feed', 'rotate_calendar_feed', 'delete_calendar_feed']));
    expect(JSON.stringify(await env.db.select().from(auditLogs).where(eq(auditLogs.user_id, agent.user_id)))).not.toContain(
      path(first).slice(14, 40),
    );
  });

  it('maintenance mode answers 503 to a non-Admin feed, not to an Admin one; signed-out calls of the token API are 401', async () => {
    const { env } = t;
    const agent = await seedUser(env, 'Agent');
    const { url } = await callerFor(env, agent.user_id).notifications.createCalendarToken();
    const adminUrl = (await callerFor(env, t.roles.admin.user_id).notifications.createCalendarToken()).url;
    await env.db.transaction((tx) => writeSettings(tx, { maintenance_mode: true }, null));
    invalidateSettings();
    try {
      expect((await api(env, 'GET', path(url))).status).toBe(503);
      expect((await api(env, 'GET', path(adminUrl))).status).toBe(200);
    } finally {
      await env.db.transaction((tx) => writeSettings(tx, { maintenance_mode: false }, null));
      invalidateSettings();
    }
    expect((await api(env, 'POST', '/api/calendar/token')).status).toBe(401);
    expect((await api(env, 'GET', '/api/calendar/status')).status).toBe(401);
  });
});
