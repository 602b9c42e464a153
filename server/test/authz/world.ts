/**
 * A seeded world for the authorization and contract suites: two brokerages, each with a Broker and two
 * Agents; two Schools with a course each and an Admin-made course; a license and a payment for every
 * Broker and Agent; completions on both Schools' courses; a notification template, a backup and a state
 * CE rule (for a state none of the licenses is in, so it changes no license's figures).
 * Everything is created through the real services (as the Admin), users through seedUser.
 */
import { Readable } from 'node:stream';
import type { RoleName } from '@lm/shared';
import { newStorageKey } from '../../src/db/client.ts';
import { documents, documentVersions } from '../../src/db/schema/index.ts';
import { issueLinkToken, LINK_VALIDITY_MS } from '../../src/modules/auth/password-reset.service.ts';
import { issueSignInToken } from '../../src/modules/auth/sign-in-link.service.ts';
import { callerFor, seedBrokerage, seedUser, tokenFor, type SeededUser, type TestEnv } from '../helpers.ts';

export type Role = RoleName;
export const ROLES = ['Admin', 'Broker', 'Agent', 'School'] as const satisfies readonly Role[];

export interface Person extends SeededUser {
  token: string;
  role: Role;
}

export interface World {
  brokerage1: number;
  brokerage2: number;
  admin: Person;
  /** Brokerage 1: the principals of the suites (Broker and Agent) and a colleague Agent. */
  broker1: Person;
  agent1: Person;
  agent1b: Person;
  /** Brokerage 2. */
  broker2: Person;
  agent2: Person;
  agent2b: Person;
  school1: Person;
  school2: Person;
  /** Per user id: the license, payment and completion they hold. */
  licenseOf: Map<number, number>;
  paymentOf: Map<number, number>;
  completionOf: Map<number, number>;
  /** Per user id: a CE certificate document linked to their completion (its file in the file store). */
  documentOf: Map<number, number>;
  /** Courses by owner: school1's, school2's, and one made by the Admin (no school). */
  course1: number;
  course2: number;
  courseAdmin: number;
  template: number;
  backup: number;
  ceRule: number;
  /** A fresh password link for agent2b (for auth.resetPassword): the token exists only here and in the e-mail. */
  resetToken: () => Promise<string>;
  /** A fresh sign-in link for agent2b (for auth.consumeSignInLink). */
  signInToken: () => Promise<string>;
  /** Fresh e-mail change links (confirm to a new address, undo to the original one) of a user of their own. */
  emailChangeToken: () => Promise<string>;
  emailUndoToken: () => Promise<string>;
}

let licenseSeq = 0;

export async function seedWorld(env: TestEnv, opts: { backup?: boolean } = {}): Promise<World> {
  const brokerage1 = await seedBrokerage(env, `North Realty ${Date.now()}`);
  const brokerage2 = await seedBrokerage(env, `South Realty ${Date.now()}`);
  const person = async (role: Role, brokerage_id: number | null, first_name: string): Promise<Person> => {
    const u = await seedUser(env, role, { brokerage_id, first_name });
    return { ...u, role, token: await tokenFor(env, u.user_id) };
  };
  const admin = await person('Admin', null, 'Ada');
  const broker1 = await person('Broker', brokerage1, 'Bea');
  const agent1 = await person('Agent', brokerage1, 'Abe');
  const agent1b = await person('Agent', brokerage1, 'Ann');
  const broker2 = await person('Broker', brokerage2, 'Bob');
  const agent2 = await person('Agent', brokerage2, 'Al');
  const agent2b = await person('Agent', brokerage2, 'Amy');
  const school1 = await person('School', null, 'Sal');
  const school2 = await person('School', null, 'Sue');

  const asAdmin = callerFor(env, admin.user_id);
  const course = (school_id: number | null, name: string) =>
    asAdmin.courses.create({
      course_name: name,
      description: `${name} description`,
      provider: 'Test Provider',
      ce_hours: 3,
      ...(school_id ? { school_id } : {}),
    });
  const course1 = (await course(school1.user_id, 'Ethics')).course_id;
  const course2 = (await course(school2.user_id, 'Contracts')).course_id;
  const courseAdmin = (await course(null, 'Fair Housing')).course_id;

  const licenseOf = new Map<number, number>();
  const paymentOf = new Map<number, number>();
  const completionOf = new Map<number, number>();
  const documentOf = new Map<number, number>();
  for (const p of [broker1, agent1, agent1b, broker2, agent2, agent2b]) {
    const lic = await asAdmin.licenses.create({
      user_id: p.user_id,
      license_number: `W-${++licenseSeq}-${p.user_id}`,
      state: 'CA',
      issue_date: '2024-01-15',
      expiration_date: '2028-01-15',
    });
    licenseOf.set(p.user_id, lic.license_id);
    const pay = await asAdmin.payments.create({ user_id: p.user_id, license_id: lic.license_id, amount: 125 });
    paymentOf.set(p.user_id, pay.payment_id);
    const courseId = p.brokerage_id === brokerage1 ? course1 : course2;
    const done = await asAdmin.completions.create({
      user_id: p.user_id,
      course_id: courseId,
      license_id: lic.license_id,
      completion_date: '2025-03-01',
    });
    completionOf.set(p.user_id, done.completion_id);
    const key = newStorageKey();
    const bytes = Buffer.from(`%PDF-1.4 certificate of ${p.user_id}`);
    const stored = await env.db.files.put(key, Readable.from([bytes]), { maxBytes: 1024 });
    const docId = await env.db.transaction(async (tx) => {
      const [doc] = await tx
        .insert(documents)
        .values({ owner_id: p.user_id, completion_id: done.completion_id, category: 'ce_certificate', title: 'certificate.pdf' })
        .returning();
      await tx.insert(documentVersions).values({
        document_id: doc!.document_id,
        version: 1,
        file_name: 'certificate.pdf',
        mime_type: 'application/pdf',
        ...stored,
        storage_key: key,
      });
      return doc!.document_id;
    });
    documentOf.set(p.user_id, docId);
  }
  const template = (
    await asAdmin.admin.notificationManagement.create({
      name: `World template ${Date.now()}`,
      subject: 'Hello {{first_name}}',
      body: 'Your license expires soon.',
      trigger_event: 'license_expiring',
    })
  ).id;
  const backup = opts.backup === false ? 0 : (await asAdmin.admin.backups.create({ description: 'world', include_files: false })).id;
  const ceRule = (await asAdmin.ceRules.create({ state: 'NV', license_type: 'Broker', hours_required: 24, notes: 'World rule' })).rule_id;
  const resetToken = () => env.db.transaction((tx) => issueLinkToken(tx, agent2b.user_id, 'reset', LINK_VALIDITY_MS.forgot, null));
  const signInToken = () => env.db.transaction((tx) => issueSignInToken(tx, agent2b.user_id, null, new Date()));
  // The e-mail change links act on a user no other row signs in as (a confirm or undo changes its e-mail and password).
  const mover = await seedUser(env, 'Agent');
  let moves = 0;
  const emailChangeToken = () =>
    env.db.transaction((tx) =>
      issueLinkToken(tx, mover.user_id, 'email_change', LINK_VALIDITY_MS.admin, null, `moved${++moves}.${Date.now()}@example.test`),
    );
  const emailUndoToken = () =>
    env.db.transaction((tx) => issueLinkToken(tx, mover.user_id, 'email_undo', LINK_VALIDITY_MS.admin, null, mover.email));

  return {
    brokerage1,
    brokerage2,
    admin,
    broker1,
    agent1,
    agent1b,
    broker2,
    agent2,
    agent2b,
    school1,
    school2,
    licenseOf,
    paymentOf,
    completionOf,
    documentOf,
    course1,
    course2,
    courseAdmin,
    template,
    backup,
    ceRule,
    resetToken,
    signInToken,
    emailChangeToken,
    emailUndoToken,
  };
}

/** The principal of each role in the suites (anonymous is null). */
export function principal(world: World, role: Role): Person {
  return { Admin: world.admin, Broker: world.broker1, Agent: world.agent1, School: world.school1 }[role];
}
