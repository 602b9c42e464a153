/** The license form's values as the shared create schema reads them (lib/schema-form.ts). */
import { describe, expect, it } from 'vitest';
import { createLicenseInput } from '@lm/shared';
import { schemaErrors } from '../../lib/schema-form.ts';
import { ceHoursSource, licenseFormInput, licenseFormValues } from './license-form-modal.tsx';

describe('license form', () => {
  it("starts from the shared defaults and the office's CE hours, and answers the five required messages", () => {
    const blank = licenseFormValues(null, 12);
    expect(blank).toMatchObject({ license_type: 'Sales', status: 'Active', ce_hours_completed: 0, ce_hours_required: 12 });
    expect(schemaErrors(createLicenseInput, licenseFormInput(blank))).toEqual({
      user_id: 'User is required',
      license_number: 'License number is required',
      state: 'State is required',
      issue_date: 'Issue date is required',
      expiration_date: 'Expiration date is required',
    });
  });

  it('checks the date order on the expiration date, and sends what the schema produced', () => {
    const filled = {
      ...licenseFormValues(null),
      user_id: '3',
      license_number: ' ab-1 ',
      state: 'tx',
      issue_date: '2027-05-01',
      expiration_date: '2027-04-01',
    };
    expect(schemaErrors(createLicenseInput, licenseFormInput(filled))).toEqual({
      expiration_date: 'Issue date cannot be after the expiration date',
    });
    const out = createLicenseInput.parse(licenseFormInput({ ...filled, issue_date: '2025-05-01', ce_hours_required: '' }));
    expect(out).toEqual({
      user_id: 3,
      license_number: 'ab-1',
      state: 'TX',
      license_type: 'Sales',
      status: 'Active',
      issue_date: '2025-05-01',
      expiration_date: '2027-04-01',
      ce_hours_completed: 0,
    });
  });

  it("says where the suggested CE hours come from: the state rule's hours, cycle and topics, or the office default", () => {
    const rule = { state: 'CA', license_type: 'Sales' as const, hours_required: 45, cycle_years: 4, topics: [] };
    expect(
      ceHoursSource({
        ce_hours_required: 45,
        source: 'rule',
        rule: {
          ...rule,
          topics: [
            { topic: 'Ethics', hours: 8 },
            { topic: 'Agency', hours: 3 },
          ],
        },
      }),
    ).toBe('From the CA Sales CE rule: 45 hours every 4 years, including Ethics 8 h, Agency 3 h');
    expect(ceHoursSource({ ce_hours_required: 1, source: 'rule', rule: { ...rule, hours_required: 1, cycle_years: 1 } })).toBe(
      'From the CA Sales CE rule: 1 hour every year',
    );
    expect(ceHoursSource({ ce_hours_required: 12, source: 'settings', rule: null })).toBe('Office default (System Settings)');
  });
});
