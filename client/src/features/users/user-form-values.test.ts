import { describe, expect, it } from 'vitest';
import { ROLE, userCreateInput, userUpdateInput, type User } from '@lm/shared';
import { initialValues, ROLE_OPTIONS, toInput } from './user-form-values.ts';

const user: User = {
  user_id: 7,
  email: 'ann@example.test',
  first_name: 'Ann',
  last_name: 'Agent',
  role_id: ROLE.Agent,
  role_name: 'Agent',
  brokerage_id: 3,
  brokerage_name: 'Main Street Realty',
  phone_number: '555-0100',
  address: null,
  city: null,
  state: null,
  zip_code: null,
  is_active: true,
  created_at: '2026-01-01T00:00:00.000Z',
  last_login: null,
};

describe('user form values', () => {
  it('offers the roles by name, the id as the value', () => {
    expect(ROLE_OPTIONS).toEqual([
      { value: '1', label: 'Admin' },
      { value: '2', label: 'Broker' },
      { value: '3', label: 'Agent' },
      { value: '4', label: 'School' },
    ]);
  });

  it("an Admin's new user: the role and brokerage as ids, no brokerage as null, the schema's messages for blanks", () => {
    const blank = initialValues(null, false, null);
    expect(blank.role_id).toBe('2');
    const issues = userCreateInput.safeParse(toInput(blank, null, false));
    expect(issues.success).toBe(false);
    expect(issues.error!.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining(['Email is required', 'First name is required', 'Last name is required', 'Password is required']),
    );
    const parsed = userCreateInput.parse(
      toInput({ ...blank, email: ' New@Example.test ', first_name: 'N', last_name: 'U', password: 'x', role_id: '3' }, null, false),
    );
    expect(parsed).toMatchObject({ email: 'new@example.test', role_id: 3, brokerage_id: null, phone_number: null });
  });

  it("a Broker's new user is an Agent and sends no brokerage (the server fixes it)", () => {
    const values = {
      ...initialValues(null, true, { value: '3', label: 'Main Street Realty' }),
      email: 'a@b.test',
      first_name: 'A',
      last_name: 'B',
      password: 'x',
    };
    const input = toInput(values, null, true) as Record<string, unknown>;
    expect(input.role_id).toBe(ROLE.Agent);
    expect('brokerage_id' in input).toBe(false);
  });

  it('an edit keeps a blank password out, clears an emptied contact field, and a Broker sends no role or brokerage', () => {
    const values = { ...initialValues(user, false, null), phone_number: '' };
    const parsed = userUpdateInput.parse(toInput(values, user, false));
    expect(parsed).toMatchObject({ id: 7, role_id: 3, brokerage_id: 3, phone_number: null });
    expect(parsed.password).toBeUndefined();
    const broker = userUpdateInput.parse(toInput(initialValues(user, true, null), user, true));
    expect(broker.role_id).toBeUndefined();
    expect(broker.brokerage_id).toBeUndefined();
    // An emptied name is refused with the schema's message, not taken as "unchanged".
    expect(userUpdateInput.safeParse(toInput({ ...values, first_name: ' ' }, user, false)).error?.issues[0]?.message).toBe(
      'First name is required',
    );
  });
});
