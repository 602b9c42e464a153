/**
 * Who may do what: every action of the product, the roles that may do it and, where there is one, the rule
 * about the object it is done to. The one place (docs/security.md "Access policy"; the table of
 * docs/decisions.md "Who may do what"): the server's procedure builders and file routes gate on it (403), its
 * services ask it the object questions, and the client hides exactly what it refuses.
 *
 *   can(user, action)          may this user do the action at all (its role is listed; public actions: anyone)
 *   can(user, action, object)  ...and to this object (the action's rule, when it has one)
 *   rolesFor(action)           the roles, for the OpenAPI document and the sidebar
 *
 * What stays elsewhere: which rows a role sees (server/src/core/scope.ts: a visibility scope, answered with
 * 404 as if the row did not exist), and business rules that happen to name a role (an Agent's licenses are
 * its own, a School's course is its own, an Admin holds no license).
 *
 * Adding an action: add its entry below (roles, and a rule if it is about one object); use it in the router
 * (`policyProcedure('x.y')`, or `authedProcedure('x.y')` when every role may), in a file route
 * (`authenticate(deps, req, 'x.y')` and the route's `access` list) and in the client (`can('x.y')`).
 * server/test/policy.test.ts fails for a procedure or file route without one.
 */
import { ROLE, ROLE_NAMES, isRoleId, roleName, type RoleName } from './roles.ts';

/** The caller as the policy sees it: the server's AuthUser, the client's signed-in user. */
export interface PolicyUser {
  user_id: number;
  role_id: number;
  brokerage_id: number | null;
}

export interface PolicyEntry<O = never> {
  /** The roles that may (signed in). Every role: an action of any signed-in user. */
  roles: readonly RoleName[];
  /** Anyone, signed in or not (the caller proves something else: a password, a link's or a feed's token). */
  public?: true;
  /** The object rule: true when this user (of one of the roles) may do the action to this object. */
  rule?: (user: PolicyUser, object: O) => boolean;
}

/** Every signed-in role. */
const ANYONE: readonly RoleName[] = ROLE_NAMES;
const ADMIN: readonly RoleName[] = ['Admin'];
const MANAGERS: readonly RoleName[] = ['Admin', 'Broker'];
/** The people with licenses and payments, and the Admin (docs/decisions.md: a School has neither). */
const HOLDER_SIDE: readonly RoleName[] = ['Admin', 'Broker', 'Agent'];
const COURSE_KEEPERS: readonly RoleName[] = ['Admin', 'School'];

const admin = (u: PolicyUser) => u.role_id === ROLE.Admin;

/** Users: the role a user may give (a Broker: Agent only). */
const grantsRole = (u: PolicyUser, o: { role_id: number }) => admin(u) || o.role_id === ROLE.Agent;
/** Users: the brokerage a user may put someone in (a Broker: its own only). */
const assignsBrokerage = (u: PolicyUser, o: { brokerage_id: number | null }) => admin(u) || o.brokerage_id === u.brokerage_id;
/** Users: a Broker changes only the Agents of its own brokerage (and never an Admin); an Admin anyone. */
const managesUser = (u: PolicyUser, o: { role_id: number; brokerage_id: number | null }) => grantsRole(u, o) && assignsBrokerage(u, o);
/** Courses: a School only its own (school_id is the owning School user); an Admin any. */
const ownsCourse = (u: PolicyUser, o: { school_id: number | null }) => admin(u) || o.school_id === u.user_id;

export const POLICY = {
  // Signing in and password links: public (the password or the link's token is the proof).
  'auth.login': { roles: ANYONE, public: true },
  'auth.forgotPassword': { roles: ANYONE, public: true },
  'auth.resetPassword': { roles: ANYONE, public: true },
  // A new device's way in while strangers have locked an account (docs/security.md "Sign-in"): a challenge to solve,
  // or a one-time link e-mailed to the account (the mailbox is the proof).
  'auth.loginChallenge': { roles: ANYONE, public: true },
  'auth.signInLink': { roles: ANYONE, public: true },
  'auth.consumeSignInLink': { roles: ANYONE, public: true },
  // The signed-in user's own session and profile.
  'auth.me': { roles: ANYONE },
  'auth.logout': { roles: ANYONE },
  'auth.changePassword': { roles: ANYONE },
  'profile.update': { roles: ANYONE },
  /** The e-mail change links: public, the single-use token sent to the mailbox is the proof. */
  'profile.confirmEmail': { roles: ANYONE, public: true },
  'profile.undoEmail': { roles: ANYONE, public: true },
  // The app name and support contacts of the signed-out screens; the health check.
  'settings.public': { roles: ANYONE, public: true },
  'system.health': { roles: ANYONE, public: true },
  /** Using the app while settings.maintenance_mode is on (everyone else: 503). */
  'system.maintenance': { roles: ADMIN },

  // Users: Admin all; Broker the users of its brokerage, changing only its Agents; Agent, School their profile.
  'users.read': { roles: MANAGERS },
  /** The new user as it would be: its role and brokerage (a Broker: an Agent of its own brokerage, having one). */
  'users.create': {
    roles: MANAGERS,
    rule: (u: PolicyUser, o: { role_id: number; brokerage_id: number | null }) =>
      admin(u) || (u.brokerage_id !== null && managesUser(u, o)),
  },
  'users.update': { roles: MANAGERS, rule: managesUser },
  'users.delete': { roles: MANAGERS, rule: managesUser },
  'users.bulk': { roles: MANAGERS, rule: managesUser },
  'users.sendResetLink': { roles: MANAGERS, rule: managesUser },
  /** Giving a user a role (create, edit, bulk change_role). */
  'users.grantRole': { roles: MANAGERS, rule: grantsRole },
  /** Putting a user in a brokerage (create, edit, bulk change_brokerage). */
  'users.assignBrokerage': { roles: MANAGERS, rule: assignsBrokerage },

  // Admin areas: brokerages, audit, reports, notification templates and history, backups, settings, stats.
  'brokerages.read': { roles: ADMIN },
  'brokerages.create': { roles: ADMIN },
  'brokerages.update': { roles: ADMIN },
  'brokerages.delete': { roles: ADMIN },
  'audit.read': { roles: ADMIN },
  'reports.read': { roles: ADMIN },
  'admin.stats': { roles: ADMIN },
  'notificationTemplates.read': { roles: ADMIN },
  'notificationTemplates.create': { roles: ADMIN },
  'notificationTemplates.update': { roles: ADMIN },
  'notificationTemplates.delete': { roles: ADMIN },
  'notificationTemplates.sendTest': { roles: ADMIN },
  'notificationHistory.read': { roles: ADMIN },
  'backups.read': { roles: ADMIN },
  'backups.create': { roles: ADMIN },
  'backups.upload': { roles: ADMIN },
  'backups.restore': { roles: ADMIN },
  'backups.delete': { roles: ADMIN },
  'settings.read': { roles: ADMIN },
  'settings.update': { roles: ADMIN },

  // Licenses: Admin all; Broker its own and its brokerage's users'; Agent its own, read only; School none.
  'licenses.read': { roles: HOLDER_SIDE },
  'licenses.create': { roles: MANAGERS },
  'licenses.update': { roles: MANAGERS },
  'licenses.delete': { roles: MANAGERS },
  'licenses.renew': { roles: MANAGERS },
  /** CE ledger adjustments. */
  'licenses.adjust': { roles: MANAGERS },

  // State CE rules: every role reads them (CE progress shows them); Admins keep them.
  'ceRules.read': { roles: ANYONE },
  /** Tombstones for a sync (GET /deletions): every role, each seeing the deletions of what it could see. */
  'deletions.read': { roles: ANYONE },
  'ceRules.create': { roles: ADMIN },
  'ceRules.update': { roles: ADMIN },
  'ceRules.delete': { roles: ADMIN },

  // Payments: Admin all; Broker its own and its brokerage's, records them; Agent its own, read only.
  'payments.read': { roles: HOLDER_SIDE },
  'payments.create': { roles: MANAGERS },
  'payments.update': { roles: MANAGERS },
  'payments.delete': { roles: MANAGERS },

  // Courses: everyone reads; Admin manages all; a School creates and manages its own (403 for another's).
  'courses.read': { roles: ANYONE },
  'courses.create': { roles: COURSE_KEEPERS },
  'courses.update': { roles: COURSE_KEEPERS, rule: ownsCourse },
  'courses.delete': { roles: COURSE_KEEPERS, rule: ownsCourse },
  /** Naming or changing a course's owning School. */
  'courses.assignSchool': { roles: ADMIN },

  // Completions: each role within its scope; an Agent records only its own; Admins and Schools review.
  'completions.read': { roles: ANYONE },
  /** The person the completion is for: an Agent only itself (403), the others whoever their scope allows. */
  'completions.create': {
    roles: ANYONE,
    rule: (u: PolicyUser, o: { user_id: number }): boolean => o.user_id === u.user_id || can(u, 'completions.createForOthers'),
  },
  /** Recording a completion for someone else (the form names the person). */
  'completions.createForOthers': { roles: ['Admin', 'Broker', 'School'] },
  /** A School reviews completions of its own courses only (course_school_id: the course's School). */
  'completions.review': {
    roles: COURSE_KEEPERS,
    rule: (u: PolicyUser, o: { course_school_id: number | null }) => admin(u) || o.course_school_id === u.user_id,
  },
  /** A School's and an Admin's search for the people (and their licenses) a completion may be recorded for. */
  'completions.people': { roles: COURSE_KEEPERS },
  /** The licenses the caller's completions may count toward (its scope's holders). */
  'completions.licenses': { roles: HOLDER_SIDE },
  /** A completion recorded from a certificate's reading (docs/ocr.md). */
  'certificates.recordCompletion': { roles: HOLDER_SIDE },
  /** A transcript's completions recorded together (docs/ocr.md "The person confirms"). */
  'certificates.recordCompletions': { roles: HOLDER_SIDE },

  // Documents: every role reads within its scope (a School: certificates of its courses' completions only).
  'documents.read': { roles: ANYONE },
  'documents.upload': { roles: HOLDER_SIDE },
  /**
   * Naming another owner on an upload (the form's owner picker). The server holds the owner to the uploader's
   * scope (core/scope.ts: an Agent's is itself, 404 for anyone else); this says which roles have others in it.
   */
  'documents.uploadForOthers': { roles: MANAGERS },
  'documents.update': { roles: HOLDER_SIDE },
  'documents.delete': { roles: HOLDER_SIDE },

  // Imports (docs/decisions.md "Imports"): a roster (Admin; a Broker into its own brokerage) or completions (a
  // School for its own courses; an Admin any). Each caller sees and changes only the imports it made (an Admin all).
  'imports.read': { roles: ['Admin', 'Broker', 'School'] },
  'imports.create': { roles: ['Admin', 'Broker', 'School'] },
  /** Seeing and undoing every import, not only one's own. */
  'imports.all': { roles: ADMIN },
  /** A roster import, and each row's brokerage (a Broker: its own only, having one). */
  'imports.roster': {
    roles: MANAGERS,
    rule: (u: PolicyUser, o: { brokerage_id: number | null }) => admin(u) || (u.brokerage_id !== null && o.brokerage_id === u.brokerage_id),
  },
  /** A completions import, and each row's course (a School: its own only). */
  'imports.completions': { roles: COURSE_KEEPERS, rule: ownsCourse },

  // The dashboard and the notification centre: every role, its own.
  'dashboard.read': { roles: ANYONE },
  'notifications.read': { roles: ANYONE },
  'notifications.preferences': { roles: ANYONE },
  'notifications.calendar': { roles: ANYONE },
  /** The calendar feed: public, its unguessable token in the URL is the proof. */
  'notifications.calendarFeed': { roles: ANYONE, public: true },
  // API keys (docs/decisions.md "API keys"): an Admin any key; a Broker its own brokerage's keys, creating read keys only.
  /** Settings › Integrations and the list; a Broker sees its brokerage's keys only (the service's scope). */
  'apiKeys.read': { roles: MANAGERS },
  /** The key as it would be: a Broker only a read key for its own brokerage. */
  'apiKeys.create': {
    roles: MANAGERS,
    rule: (u: PolicyUser, o: { scopes: readonly string[]; brokerage_id: number | null }) =>
      admin(u) || (u.brokerage_id !== null && o.brokerage_id === u.brokerage_id && !o.scopes.includes('write')),
  },
  'apiKeys.revoke': {
    roles: MANAGERS,
    rule: (u: PolicyUser, o: { brokerage_id: number | null }) => admin(u) || (u.brokerage_id !== null && o.brokerage_id === u.brokerage_id),
  },
  // Webhooks (docs/decisions.md "Webhooks"): Admin only; an endpoint receives data of every brokerage.
  'webhooks.read': { roles: ADMIN },
  'webhooks.manage': { roles: ADMIN },
} as const satisfies Record<string, PolicyEntry<never>>;

export type PolicyAction = keyof typeof POLICY;
export const POLICY_ACTIONS = Object.keys(POLICY) as PolicyAction[];
/** The actions open to anyone, signed out included. */
export type PublicAction = { [A in PolicyAction]: (typeof POLICY)[A] extends { public: true } ? A : never }[PolicyAction];

/** The object an action's rule is about (never: the action has no object rule). */
export type PolicyObject<A extends PolicyAction> = (typeof POLICY)[A] extends { rule: (user: PolicyUser, object: infer O) => boolean }
  ? O
  : never;

const entryOf = (action: PolicyAction): PolicyEntry<unknown> => POLICY[action] as PolicyEntry<unknown>;

export function isPolicyAction(action: unknown): action is PolicyAction {
  return typeof action === 'string' && Object.hasOwn(POLICY, action);
}

/** The signed-in roles that may do the action (every role for public actions). */
export function rolesFor(action: PolicyAction): readonly RoleName[] {
  return entryOf(action).roles;
}

/** Whether the action is open to anyone, signed out included. */
export function isPublicAction(action: PolicyAction): boolean {
  return entryOf(action).public === true;
}

/** Whether every signed-in role may do the action (authedProcedure's actions). */
export function isOpenToEveryRole(action: PolicyAction): boolean {
  return ROLE_NAMES.every((r) => roleMay(r, action));
}

/** Whether a role may do the action at all (its object rule aside). */
export function roleMay(role: RoleName | null, action: PolicyAction): boolean {
  const entry = entryOf(action);
  if (entry.public) return true;
  return role !== null && entry.roles.includes(role);
}

/**
 * Whether the user (null: signed out) may do the action: its role is listed (or the action is public) and,
 * when an object is given and the action has a rule, the rule allows it for that object. Without an object
 * the answer is "may do this to some object" (a button to show, a route to serve).
 */
export function can(user: Pick<PolicyUser, 'role_id'> | null | undefined, action: PolicyAction): boolean;
export function can<A extends PolicyAction>(user: PolicyUser | null | undefined, action: A, object: PolicyObject<A> | undefined): boolean;
export function can(user: PolicyUser | Pick<PolicyUser, 'role_id'> | null | undefined, action: PolicyAction, object?: unknown): boolean {
  const entry = entryOf(action);
  if (entry.public) return true;
  if (!user || !isRoleId(user.role_id) || !roleMay(roleName(user.role_id), action)) return false;
  return object === undefined || !entry.rule || entry.rule(user as PolicyUser, object);
}

/**
 * Creation quotas (docs/security.md "Bounded work per request", docs/decisions.md "Creation quotas"): one user may
 * do each of these actions at most CREATES_PER_MINUTE[its role] times a minute (counted per action); past that
 * the call is refused with 429 and a human message. Limits a busy office never reaches by hand or by an
 * integration that waits for each answer; a script creating without limit is stopped within a minute.
 */
export const QUOTA_ACTIONS = [
  'users.create',
  'brokerages.create',
  'licenses.create',
  'licenses.adjust',
  'payments.create',
  'courses.create',
  'completions.create',
  'certificates.recordCompletion',
  'certificates.recordCompletions',
  'ceRules.create',
  'notificationTemplates.create',
  'notificationTemplates.sendTest',
  'users.sendResetLink',
  'backups.create',
] as const satisfies readonly PolicyAction[];

/**
 * No quota for the Admin: the office's operator loads whole rosters, and integrations act with Admin keys; the fair
 * share (server/src/core/fair-share.ts) still bounds what one Admin's calls take from everyone else.
 */
export const CREATES_PER_MINUTE: Readonly<Record<Exclude<RoleName, 'Admin'>, number>> = { Broker: 240, Agent: 120, School: 120 };

/** The per-minute quota of this role for this action, or undefined when the action has none. */
export function createQuota(role: RoleName | null, action: PolicyAction): number | undefined {
  if (role === null || role === 'Admin' || !(QUOTA_ACTIONS as readonly PolicyAction[]).includes(action)) return undefined;
  return CREATES_PER_MINUTE[role];
}
