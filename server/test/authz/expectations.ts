/**
 * Who may call what: the expectation table of the authorization suite (authz.test.ts), one row per
 * tRPC procedure. It mirrors the role table in docs/decisions.md ("Who may do what"); change both
 * together. A procedure of the router without a row fails the suite with its name.
 *
 * A row:  'router.procedure': { object?, input, Admin, Broker, Agent, School, public? }
 *   object   the kind of object the input names (see OBJECTS in authz.test.ts); absent for procedures
 *            that name no object (lists, creates of new things, the caller's own data)
 *   input    builds a valid input from that object's id (or from nothing), so that an allowed call
 *            succeeds (2xx) rather than failing validation
 *   per role an Outcome, or per relation { own, same, other, none }:
 *     own    the caller's own object (its license, its brokerage, a School's course...)
 *     same   an object of another user of the caller's brokerage
 *     other  an object of the other brokerage (or of another School; system objects are 'other')
 *     none   an id that does not exist (for procedures without an object: the one plain call)
 *   A single 'ok' for an object procedure means "ok for every existing object, 404 for none".
 *   Relations that do not exist for a role (an Admin has no brokerage, a School no license) are not run.
 *   Signed out: 401 everywhere, except rows with public: true (they use the Admin row's outcomes).
 * Outcomes: 'ok' (2xx), 401, 403 (role), 404 (missing or out of scope), or 400/409 where the caller is
 * allowed but the rule refuses the change (e.g. an Admin deleting itself).
 */
import { TEST_PASSWORD } from '../helpers.ts';
import type { World } from './world.ts';

export type Outcome = 'ok' | 400 | 401 | 403 | 404 | 409;
export type Relation = 'own' | 'same' | 'other' | 'none';
export type ObjectKind =
  'user' | 'brokerage' | 'license' | 'payment' | 'completion' | 'course' | 'template' | 'backup' | 'ceRule' | 'document';
export type Row = Outcome | Partial<Record<Relation, Outcome>>;

export interface Expectation {
  object?: ObjectKind;
  input: (id: number, world: World, n: number) => unknown;
  public?: boolean;
  Admin: Row;
  Broker: Row;
  Agent: Row;
  School: Row;
}

const none = () => undefined;
const empty = () => ({});
const adminOnly = { Admin: 'ok', Broker: 403, Agent: 403, School: 403 } as const;
/** Admin only, naming an object that does not exist: 404 to the Admin, 403 to the other roles. */
const adminOnlyMissing = { Admin: 404, Broker: 403, Agent: 403, School: 403 } as const;
const everyone = { Admin: 'ok', Broker: 'ok', Agent: 'ok', School: 'ok' } as const;
const notSchool = { Admin: 'ok', Broker: 'ok', Agent: 'ok', School: 403 } as const;
/** Broker: own and own brokerage's; another brokerage's is out of scope (404). */
const brokerScope = { own: 'ok', same: 'ok', other: 404, none: 404 } as const;
/** Agent: own only. */
const ownOnly = { own: 'ok', same: 404, other: 404, none: 404 } as const;

export const EXPECTATIONS: Record<string, Expectation> = {
  // auth: signing in is public; the rest is any signed-in user's own session.
  'auth.login': { public: true, input: (_id, w) => ({ email: w.agent2b.email, password: TEST_PASSWORD }), ...everyone },
  'auth.logout': { input: none, ...everyone },
  'auth.me': { input: none, ...everyone },
  'auth.changePassword': { input: () => ({ currentPassword: TEST_PASSWORD, newPassword: 'N3w-Passw0rd!auth' }), ...everyone },
  // Password links: asking for one and using one are public (the link's token is the proof).
  'auth.forgotPassword': { public: true, input: (_id, w) => ({ email: w.agent2b.email }), ...everyone },
  'auth.resetPassword': {
    public: true,
    input: async (_id, w) => ({ token: await w.resetToken(), newPassword: 'N3w-Passw0rd!reset' }),
    ...everyone,
  },
  // A new device's ways in while strangers lock an account: a challenge, an e-mailed sign-in link (its token the proof).
  'auth.loginChallenge': { public: true, input: (_id, w) => ({ email: w.agent2b.email }), ...everyone },
  'auth.signInLink': { public: true, input: (_id, w) => ({ email: w.agent2b.email }), ...everyone },
  'auth.consumeSignInLink': { public: true, input: async (_id, w) => ({ token: await w.signInToken() }), ...everyone },
  // The name and support contacts the signed-out login screen shows.
  'settings.public': { public: true, input: empty, ...everyone },

  // users: Admin all; Broker its brokerage's Agents (others of the brokerage are read-only: 404 to changes).
  'users.list': { input: empty, Admin: 'ok', Broker: 'ok', Agent: 403, School: 403 },
  'users.get': { object: 'user', input: (id) => ({ id }), Admin: 'ok', Broker: brokerScope, Agent: 403, School: 403 },
  'users.create': {
    object: 'brokerage',
    input: (id, _w, n) => ({
      email: `authz${n}@example.test`,
      password: 'Authz-Passw0rd!',
      first_name: 'Au',
      last_name: 'Thz',
      role_id: 3,
      brokerage_id: id,
    }),
    Admin: 'ok',
    Broker: { own: 'ok', other: 403, none: 403 },
    Agent: 403,
    School: 403,
  },
  'users.update': {
    object: 'user',
    input: (id) => ({ id, first_name: 'Renamed' }),
    Admin: 'ok',
    Broker: { own: 404, same: 'ok', other: 404, none: 404 },
    Agent: 403,
    School: 403,
  },
  'users.delete': {
    object: 'user',
    input: (id) => ({ id }),
    Admin: { own: 400, other: 'ok', none: 404 },
    Broker: { own: 404, same: 'ok', other: 404, none: 404 },
    Agent: 403,
    School: 403,
  },
  'users.bulk': {
    object: 'user',
    input: (id) => ({ action: 'activate', user_ids: [id] }),
    Admin: 'ok',
    Broker: { own: 404, same: 'ok', other: 404, none: 404 },
    Agent: 403,
    School: 403,
  },
  // A password link for someone else: Admin any user; Broker the Agents of its brokerage (itself 404).
  'users.sendResetLink': {
    object: 'user',
    input: (id) => ({ id }),
    Admin: 'ok',
    Broker: { own: 404, same: 'ok', other: 404, none: 404 },
    Agent: 403,
    School: 403,
  },
  'users.updateProfile': {
    input: (_id, _w, n) => ({ first_name: 'Me', last_name: 'Myself', email: `me${n}@example.test`, currentPassword: TEST_PASSWORD }),
    ...everyone,
  },
  // The e-mail change links are public: the single-use token from the mailbox is the proof.
  'users.confirmEmailChange': { public: true, input: async (_id, w) => ({ token: await w.emailChangeToken() }), ...everyone },
  'users.undoEmailChange': { public: true, input: async (_id, w) => ({ token: await w.emailUndoToken() }), ...everyone },

  // brokerages, audit, reports, notification templates, backups, settings, admin stats: Admin only.
  'brokerages.list': { input: empty, ...adminOnly },
  'brokerages.create': { input: (_id, _w, n) => ({ name: `Authz Realty ${n}` }), ...adminOnly },
  'brokerages.update': { object: 'brokerage', input: (id, _w, n) => ({ id, name: `Renamed Realty ${n}` }), ...adminOnly },
  'brokerages.delete': { object: 'brokerage', input: (id) => ({ id }), ...adminOnly },
  'brokerages.users': { object: 'brokerage', input: (id) => ({ id }), ...adminOnly },
  'brokerages.options': { input: none, ...adminOnly },
  'brokerages.get': { object: 'brokerage', input: (id) => ({ id }), ...adminOnly },
  // API keys: Admin any; a Broker read keys for its own brokerage (another's: 403 by the policy's rule).
  'apiKeys.list': { input: empty, Admin: 'ok', Broker: 'ok', Agent: 403, School: 403 },
  'apiKeys.create': {
    object: 'brokerage',
    input: (id, _w, n) => ({ name: `Authz key ${n}`, scopes: ['read'], brokerage_id: id }),
    Admin: 'ok',
    Broker: { own: 'ok', other: 403, none: 403 },
    Agent: 403,
    School: 403,
  },
  // No key exists in the world: the one call names a missing key (404 to those who may revoke).
  'apiKeys.revoke': { input: () => ({ id: 999_999 }), Admin: 404, Broker: 404, Agent: 403, School: 403 },
  'audit.logs': { input: empty, ...adminOnly },
  'audit.summary': { input: empty, ...adminOnly },
  'reports.licenses': { input: empty, ...adminOnly },
  'reports.users': { input: empty, ...adminOnly },
  'reports.courses': { input: empty, ...adminOnly },
  'admin.stats.get': { input: empty, ...adminOnly },
  'admin.notificationManagement.list': { input: none, ...adminOnly },
  'admin.notificationManagement.page': { input: empty, ...adminOnly },
  'admin.notificationManagement.historyPage': { input: empty, ...adminOnly },
  'admin.notificationManagement.create': {
    input: (_id, _w, n) => ({ name: `Authz ${n}`, subject: 'S', body: 'B', trigger_event: 'license_expiring' }),
    ...adminOnly,
  },
  'admin.notificationManagement.update': { object: 'template', input: (id) => ({ id, subject: 'Changed' }), ...adminOnly },
  'admin.notificationManagement.delete': { object: 'template', input: (id) => ({ id }), ...adminOnly },
  'admin.notificationManagement.sendTest': { object: 'template', input: (id) => ({ id, test_email: 'test@example.test' }), ...adminOnly },
  'admin.notificationManagement.history': { input: empty, ...adminOnly },
  'admin.notificationManagement.delivery': { input: empty, ...adminOnly },
  'admin.backups.list': { input: none, ...adminOnly },
  'admin.backups.page': { input: empty, ...adminOnly },
  'admin.backups.create': { input: () => ({ description: 'authz', include_files: false }), ...adminOnly },
  'admin.backups.restore': { object: 'backup', input: (id) => ({ id, include_settings: true }), ...adminOnly },
  'admin.backups.delete': { object: 'backup', input: (id) => ({ id }), ...adminOnly },
  'admin.settings.get': { input: none, ...adminOnly },
  'admin.settings.update': { input: () => ({ settings: { default_ce_hours: 12 } }), ...adminOnly },
  'admin.settings.reset': { input: none, ...adminOnly },

  // licenses: Admin all; Broker own + own brokerage's users'; Agent own (read); School 403.
  'licenses.list': { input: empty, ...notSchool },
  'licenses.page': { input: empty, ...notSchool },
  'licenses.holders': { input: none, ...notSchool },
  'licenses.defaults': { input: none, ...notSchool },
  'licenses.complianceSummary': { input: empty, ...notSchool },
  'licenses.get': { object: 'license', input: (id) => ({ id }), Admin: 'ok', Broker: brokerScope, Agent: ownOnly, School: 403 },
  'licenses.create': {
    object: 'user',
    input: (id, _w, n) => ({
      user_id: id,
      license_number: `AZ-${n}`,
      state: 'TX',
      issue_date: '2025-01-01',
      expiration_date: '2027-01-01',
    }),
    // An Admin is not a license holder (holders are Agents and Brokers): 400, not a scope refusal.
    Admin: { own: 400, other: 'ok', none: 404 },
    Broker: brokerScope,
    Agent: 403,
    School: 403,
  },
  'licenses.update': {
    object: 'license',
    input: (id) => ({ id, status: 'Suspended' }),
    Admin: 'ok',
    Broker: brokerScope,
    Agent: 403,
    School: 403,
  },
  'licenses.delete': { object: 'license', input: (id) => ({ id }), Admin: 'ok', Broker: brokerScope, Agent: 403, School: 403 },
  'licenses.renew': { object: 'license', input: (id) => ({ id }), Admin: 'ok', Broker: brokerScope, Agent: 403, School: 403 },
  // The CE ledger of a license: read as the license is read; adjusted as it is written.
  'licenses.transcript': { object: 'license', input: (id) => ({ id }), Admin: 'ok', Broker: brokerScope, Agent: ownOnly, School: 403 },
  'licenses.renewalPreview': { object: 'license', input: (id) => ({ id }), Admin: 'ok', Broker: brokerScope, Agent: ownOnly, School: 403 },
  'licenses.adjust': {
    object: 'license',
    input: (id) => ({ id, hours: 1.5, reason: 'Authz adjustment' }),
    Admin: 'ok',
    Broker: brokerScope,
    Agent: 403,
    School: 403,
  },

  // State CE rules: every signed-in role reads (progress shows them); Admins write.
  'ceRules.list': { input: empty, ...everyone },
  'ceRules.page': { input: empty, ...everyone },
  'ceRules.create': { input: () => ({ state: 'OR', license_type: 'Sales', hours_required: 30 }), ...adminOnly },
  'ceRules.update': { object: 'ceRule', input: (id) => ({ id, notes: 'Changed' }), ...adminOnly },
  'ceRules.delete': { object: 'ceRule', input: (id) => ({ id }), ...adminOnly },

  // payments: Admin all; Broker own + own brokerage's, records; Agent own (read); School 403.
  // Documents (docs/decisions.md "Documents"): a School reads only certificates of completions of its courses.
  'documents.page': { input: empty, ...everyone },
  'documents.get': {
    object: 'document',
    input: (id) => ({ id }),
    Admin: 'ok',
    Broker: brokerScope,
    Agent: ownOnly,
    School: { own: 'ok', other: 404, none: 404 },
  },
  'documents.update': {
    object: 'document',
    input: (id, _w, n) => ({ id, title: `Renamed ${n}.pdf` }),
    Admin: 'ok',
    Broker: brokerScope,
    Agent: ownOnly,
    School: 403,
  },
  'documents.delete': { object: 'document', input: (id) => ({ id }), Admin: 'ok', Broker: brokerScope, Agent: ownOnly, School: 403 },
  // Imports (docs/decisions.md "Imports"): Admins, Brokers and Schools, each its own imports (an Admin all); no Agent.
  // The world holds no import: an id that does not exist is 404 to those who may, 403 to an Agent.
  'imports.list': { input: empty, Admin: 'ok', Broker: 'ok', Agent: 403, School: 'ok' },
  'imports.get': { input: () => ({ id: 2_000_000_000 }), Admin: 404, Broker: 404, Agent: 403, School: 404 },
  'imports.updateMapping': { input: () => ({ id: 2_000_000_000, mapping: {} }), Admin: 404, Broker: 404, Agent: 403, School: 404 },
  'imports.commit': { input: () => ({ id: 2_000_000_000 }), Admin: 404, Broker: 404, Agent: 403, School: 404 },
  'imports.undo': { input: () => ({ id: 2_000_000_000 }), Admin: 404, Broker: 404, Agent: 403, School: 404 },
  'payments.list': { input: empty, ...notSchool },
  'payments.page': { input: empty, ...notSchool },
  'payments.summary': { input: empty, ...notSchool },
  'payments.get': { object: 'payment', input: (id) => ({ id }), Admin: 'ok', Broker: brokerScope, Agent: ownOnly, School: 403 },
  'payments.detail': { object: 'payment', input: (id) => ({ id }), Admin: 'ok', Broker: brokerScope, Agent: ownOnly, School: 403 },
  'payments.create': {
    object: 'user',
    input: (id) => ({ user_id: id, amount: 42.5 }),
    Admin: 'ok',
    Broker: brokerScope,
    Agent: 403,
    School: 403,
  },
  'payments.update': { object: 'payment', input: (id) => ({ id, amount: 99 }), Admin: 'ok', Broker: brokerScope, Agent: 403, School: 403 },
  'payments.delete': { object: 'payment', input: (id) => ({ id }), Admin: 'ok', Broker: brokerScope, Agent: 403, School: 403 },

  // courses: everyone reads; Admin manages all, a School its own (403 for another's); Brokers, Agents 403.
  // Both seeded School courses have completions, so an allowed delete answers 409 (deactivate instead).
  'courses.list': { input: empty, ...everyone },
  'courses.page': { input: empty, ...everyone },
  'courses.get': { object: 'course', input: (id) => ({ id }), ...everyone },
  'courses.create': {
    input: (_id, _w, n) => ({ course_name: `Authz ${n}`, description: 'D', provider: 'P', ce_hours: 2 }),
    Admin: 'ok',
    Broker: 403,
    Agent: 403,
    School: 'ok',
  },
  'courses.update': {
    object: 'course',
    input: (id) => ({ id, description: 'Changed' }),
    Admin: 'ok',
    Broker: 403,
    Agent: 403,
    School: { own: 'ok', other: 403, none: 404 },
  },
  'courses.delete': {
    object: 'course',
    input: (id) => ({ id }),
    Admin: { other: 409, none: 404 },
    Broker: 403,
    Agent: 403,
    School: { own: 409, other: 403, none: 404 },
  },

  // completions: Admin all; Broker its brokerage's, records for its Agents; Agent own, records own;
  // School those of its courses, records them for any Agent or Broker (approved at once) and reviews them.
  'completions.list': { input: empty, ...everyone },
  'completions.page': { input: empty, ...everyone },
  'completions.get': {
    object: 'completion',
    input: (id) => ({ id }),
    Admin: 'ok',
    Broker: brokerScope,
    Agent: ownOnly,
    School: { own: 'ok', other: 404, none: 404 },
  },
  // Tombstones (docs/api.md "Changes since"): every role, each seeing its own scope's.
  'deletions.list': { input: () => ({ since: '2000-01-01T00:00:00Z' }), ...everyone },
  'completions.create': {
    object: 'user',
    // The person named, on the course of their brokerage's School (brokerage 1: school1's, brokerage 2:
    // school2's; anyone else the Admin's course). A School names no person of its own: its own case records
    // agent1's completion of its own course, its other case agent2's of the other School's course (404).
    input: (id, w) => {
      const b1 = [w.broker1, w.agent1, w.agent1b].map((p) => p.user_id);
      const b2 = [w.broker2, w.agent2, w.agent2b].map((p) => p.user_id);
      if (id === w.school1.user_id) return { user_id: w.agent1.user_id, course_id: w.course1, completion_date: '2025-06-01' };
      const course_id = b1.includes(id) ? w.course1 : b2.includes(id) ? w.course2 : w.courseAdmin;
      return { user_id: id, course_id, completion_date: '2025-06-01' };
    },
    Admin: { own: 400, other: 'ok', none: 404 },
    Broker: brokerScope,
    Agent: { own: 'ok', same: 403, other: 403, none: 403 },
    School: { own: 'ok', other: 404, none: 404 },
  },
  'completions.people': { input: empty, Admin: 'ok', Broker: 403, Agent: 403, School: 'ok' },
  'completions.review': {
    object: 'completion',
    input: (id) => ({ id, status: 'Approved' }),
    Admin: 'ok',
    Broker: 403,
    Agent: 403,
    School: { own: 'ok', other: 404, none: 404 },
  },
  'completions.myLicenses': { input: none, ...notSchool },

  // certificates (docs/ocr.md): the reading of a document follows the document's scope, recording a completion
  // from it the completions' roles (no School), the certificates of a completion the completion's scope. The
  // world holds no documents, so the document procedures name a missing one: 404 to every allowed role, 403 to
  // a School recording (the role gate comes first); their scopes are tested in extraction.test.ts.
  'certificates.extraction': { input: () => ({ id: 999_999 }), Admin: 404, Broker: 404, Agent: 404, School: 404 },
  'certificates.recordCompletion': {
    input: (_id, w) => ({ id: 999_999, course_id: w.courseAdmin, hours: 1, completion_date: '2025-06-01' }),
    Admin: 404,
    Broker: 404,
    Agent: 404,
    School: 403,
  },
  'certificates.recordCompletions': {
    input: (_id, w) => ({ id: 999_999, entries: [{ course_id: w.courseAdmin, hours: 1, completion_date: '2025-06-01' }] }),
    Admin: 404,
    Broker: 404,
    Agent: 404,
    School: 403,
  },
  'certificates.forCompletion': {
    object: 'completion',
    input: (id) => ({ id }),
    Admin: 'ok',
    Broker: brokerScope,
    Agent: ownOnly,
    School: { own: 'ok', other: 404, none: 404 },
  },

  // dashboard: every role, its own stats.
  'dashboard.stats': { input: none, ...everyone },
  'dashboard.recentActivity': { input: none, ...everyone },
  'dashboard.expiringLicenses': { input: empty, ...everyone },

  // notifications (the notification centre): every role, its own notifications, preferences and calendar link only
  // (docs/decisions.md "Notification centre"); another user's notification answers 404 like a missing one
  // (server/test/notification-centre.test.ts).
  'notifications.list': { input: empty, ...everyone },
  'notifications.unreadCount': { input: none, ...everyone },
  'notifications.readAll': { input: none, ...everyone },
  'notifications.markRead': { input: () => ({ id: 2_147_483_647 }), Admin: 404, Broker: 404, Agent: 404, School: 404 },
  'notifications.preferences': { input: none, ...everyone },
  'notifications.savePreferences': {
    input: () => ({ events: [{ event: 'password_changed', in_app: true, email: false, sms: false }] }),
    ...everyone,
  },
  'notifications.calendarStatus': { input: none, ...everyone },
  'notifications.createCalendarToken': { input: none, ...everyone },
  'notifications.deleteCalendarToken': { input: none, ...everyone },

  // webhooks (docs/decisions.md "Webhooks"): Admin only. The world holds no endpoint: the procedures naming one
  // answer the Admin 404 (its own cases in server/test/webhooks.test.ts); a public address, so no DNS is asked.
  'webhooks.list': { input: empty, ...adminOnly },
  'webhooks.create': { input: (_id, _w, n) => ({ url: `https://93.184.216.34/authz${n}`, events: ['license.created'] }), ...adminOnly },
  'webhooks.get': { input: () => ({ id: 2_147_483_647 }), ...adminOnlyMissing },
  'webhooks.update': { input: () => ({ id: 2_147_483_647, enabled: false }), ...adminOnlyMissing },
  'webhooks.replace': { input: () => ({ id: 2_147_483_647, description: 'x' }), ...adminOnlyMissing },
  'webhooks.delete': { input: () => ({ id: 2_147_483_647 }), ...adminOnlyMissing },
  'webhooks.deliveries': { input: () => ({ id: 2_147_483_647 }), ...adminOnlyMissing },
  'webhooks.redeliver': { input: () => ({ id: 2_147_483_647, delivery_id: 'msg_none' }), ...adminOnlyMissing },
  'webhooks.test': { input: () => ({ id: 2_147_483_647 }), ...adminOnlyMissing },
};
