import { describe, expect, it } from 'vitest';
import { createLicenseInput, expiryBand, holderLabel, renewalDate, updateLicenseInput } from './licenses.ts';

const TODAY = '2026-11-22';

describe('expiryBand', () => {
  it('shows Expired in red for any past date', () => {
    expect(expiryBand('2026-11-21', TODAY)).toEqual({ label: 'Expired', color: 'red', days: -1 });
    expect(expiryBand('2020-01-01', TODAY).label).toBe('Expired');
  });

  it('shows the days left in yellow from today up to 30 days', () => {
    expect(expiryBand('2026-11-22', TODAY)).toEqual({ label: '0 days', color: 'yellow', days: 0 });
    expect(expiryBand('2026-11-23', TODAY)).toEqual({ label: '1 day', color: 'yellow', days: 1 });
    expect(expiryBand('2026-12-22', TODAY)).toEqual({ label: '30 days', color: 'yellow', days: 30 });
  });

  it('is blue from 31 to 90 days and green beyond 90', () => {
    expect(expiryBand('2026-12-23', TODAY)).toEqual({ label: '31 days', color: 'blue', days: 31 });
    expect(expiryBand('2027-02-20', TODAY)).toEqual({ label: '90 days', color: 'blue', days: 90 });
    expect(expiryBand('2027-02-21', TODAY)).toEqual({ label: '91 days', color: 'green', days: 91 });
    expect(expiryBand('2028-11-22', TODAY).color).toBe('green');
  });

  it('counts calendar days across a daylight-saving change and a leap day', () => {
    expect(expiryBand('2027-03-15', '2027-03-13').days).toBe(2);
    expect(expiryBand('2028-03-01', '2028-02-28').days).toBe(2);
  });
});

describe('renewalDate', () => {
  it('is two years after the current expiration date', () => {
    expect(renewalDate('2026-12-31')).toBe('2028-12-31');
    expect(renewalDate('2025-06-01')).toBe('2027-06-01');
  });
  it('moves 29 February to 28 February', () => {
    expect(renewalDate('2028-02-29')).toBe('2030-02-28');
  });
});

describe('license input', () => {
  it('applies the defaults Sales, Active and CE hours completed 0, leaves CE hours required to settings, and upper-cases the state', () => {
    const parsed = createLicenseInput.parse({
      user_id: 5,
      license_number: ' CA-1 ',
      state: 'ca',
      issue_date: '2026-01-01',
      expiration_date: '2028-01-01',
    });
    // The server fills it from settings.default_ce_hours (0 by default).
    expect(parsed.ce_hours_required).toBeUndefined();
    expect(parsed).toMatchObject({
      license_number: 'CA-1',
      state: 'CA',
      license_type: 'Sales',
      status: 'Active',
      ce_hours_completed: 0,
    });
  });

  it('answers the five required-field messages of docs/product.md', () => {
    const result = createLicenseInput.safeParse({ license_number: ' ', state: '', issue_date: '', expiration_date: undefined });
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'User is required',
        'License number is required',
        'State is required',
        'Issue date is required',
        'Expiration date is required',
      ]),
    );
  });

  it('refuses an issue date after the expiration date, on expiration_date (the form shows it there)', () => {
    const result = createLicenseInput.safeParse({
      user_id: 1,
      license_number: 'x',
      state: 'TX',
      issue_date: '2027-05-01',
      expiration_date: '2027-04-01',
    });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['expiration_date'], message: 'Issue date cannot be after the expiration date' }),
    ]);
  });

  it('refuses negative CE hours, and an update takes any subset of fields without defaults', () => {
    expect(
      createLicenseInput.safeParse({
        user_id: 1,
        license_number: 'x',
        state: 'TX',
        issue_date: '2026-01-01',
        expiration_date: '2027-01-01',
        ce_hours_required: -1,
      }).success,
    ).toBe(false);
    expect(
      createLicenseInput.safeParse({
        user_id: 1,
        license_number: 'x',
        state: 'TX',
        issue_date: '2027-02-30',
        expiration_date: '2028-01-01',
      }).success,
    ).toBe(false);
    expect(updateLicenseInput.parse({ id: '7', status: 'Suspended' })).toEqual({ id: 7, status: 'Suspended' });
  });

  it('labels a holder as first last (role)', () => {
    expect(holderLabel({ first_name: 'Maria', last_name: 'Garcia', role_name: 'Agent' })).toBe('Maria Garcia (Agent)');
  });
});
