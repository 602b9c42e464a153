import { describe, expect, it } from 'vitest';
import { can, isOpenToEveryRole, isPublicAction, POLICY_ACTIONS, roleMay, rolesFor } from './policy.ts';
import { ROLE, ROLE_NAMES } from './roles.ts';

const admin = { user_id: 1, role_id: ROLE.Admin, brokerage_id: null };
const broker = { user_id: 2, role_id: ROLE.Broker, brokerage_id: 10 };
const lonelyBroker = { user_id: 3, role_id: ROLE.Broker, brokerage_id: null };
const agent = { user_id: 4, role_id: ROLE.Agent, brokerage_id: 10 };
const school = { user_id: 5, role_id: ROLE.School, brokerage_id: null };

describe('access policy', () => {
  it('lists known roles for every action, and every role for public ones', () => {
    for (const action of POLICY_ACTIONS) {
      expect(rolesFor(action).length, action).toBeGreaterThan(0);
      for (const r of rolesFor(action)) expect(ROLE_NAMES).toContain(r);
      if (isPublicAction(action)) expect(isOpenToEveryRole(action), action).toBe(true);
    }
  });

  it('answers by role, signed out only for public actions', () => {
    expect(can(admin, 'backups.restore')).toBe(true);
    expect(can(broker, 'backups.restore')).toBe(false);
    expect(can(agent, 'licenses.read')).toBe(true);
    expect(can(agent, 'licenses.create')).toBe(false);
    expect(can(school, 'licenses.read')).toBe(false);
    expect(can(null, 'auth.login')).toBe(true);
    expect(can(null, 'dashboard.read')).toBe(false);
    expect(can({ role_id: 99 }, 'dashboard.read')).toBe(false);
    expect(roleMay('Admin', 'system.maintenance')).toBe(true);
    expect(roleMay('Broker', 'system.maintenance')).toBe(false);
  });

  it('users: a Broker changes only the Agents of its own brokerage, an Admin anyone', () => {
    expect(can(broker, 'users.update', { role_id: ROLE.Agent, brokerage_id: 10 })).toBe(true);
    expect(can(broker, 'users.update', { role_id: ROLE.Agent, brokerage_id: 11 })).toBe(false);
    expect(can(broker, 'users.update', { role_id: ROLE.Broker, brokerage_id: 10 })).toBe(false);
    expect(can(broker, 'users.update', { role_id: ROLE.Admin, brokerage_id: 10 })).toBe(false);
    expect(can(admin, 'users.delete', { role_id: ROLE.Admin, brokerage_id: null })).toBe(true);
    expect(can(broker, 'users.grantRole', { role_id: ROLE.School })).toBe(false);
    expect(can(broker, 'users.assignBrokerage', { brokerage_id: 10 })).toBe(true);
    expect(can(broker, 'users.create', { role_id: ROLE.Agent, brokerage_id: 10 })).toBe(true);
    expect(can(lonelyBroker, 'users.create', { role_id: ROLE.Agent, brokerage_id: null })).toBe(false);
    expect(can(agent, 'users.update', { role_id: ROLE.Agent, brokerage_id: 10 })).toBe(false);
  });

  it('courses and completions: a School its own; an Agent records only its own', () => {
    expect(can(school, 'courses.update', { school_id: 5 })).toBe(true);
    expect(can(school, 'courses.delete', { school_id: 6 })).toBe(false);
    expect(can(admin, 'courses.update', { school_id: 6 })).toBe(true);
    expect(can(school, 'courses.assignSchool')).toBe(false);
    expect(can(school, 'completions.review', { course_school_id: 5 })).toBe(true);
    expect(can(school, 'completions.review', { course_school_id: null })).toBe(false);
    expect(can(broker, 'completions.review', { course_school_id: 2 })).toBe(false);
    expect(can(agent, 'completions.create', { user_id: 4 })).toBe(true);
    expect(can(agent, 'completions.create', { user_id: 7 })).toBe(false);
    expect(can(broker, 'completions.create', { user_id: 7 })).toBe(true);
    // Without an object: may do it to some object (a button to show).
    expect(can(agent, 'completions.create')).toBe(true);
  });
});
