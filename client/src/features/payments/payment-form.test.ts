/**
 * The payment form's values as the shared schema reads them (lib/schema-form.ts): the messages are
 * the schema's (docs/product.md), the defaults the shared package's, and what is sent is what the schema produced.
 */
import { describe, expect, it } from 'vitest';
import { createPaymentInput, localDateString } from '@lm/shared';
import { schemaErrors } from '../../lib/schema-form.ts';
import { paymentFormInput, paymentFormValues } from './payment-form-modal.tsx';

const blank = paymentFormValues(null);

describe('payment form', () => {
  it('starts from the shared defaults and today', () => {
    expect(blank).toMatchObject({
      payment_type: 'License Fee',
      payment_method: 'Credit Card',
      status: 'Completed',
      payment_date: localDateString(),
      amount: '',
      user_id: null,
      license_id: null,
    });
  });

  it("answers the schema's messages for an empty form, a zero amount and an emptied type", () => {
    expect(schemaErrors(createPaymentInput, paymentFormInput(blank))).toEqual({
      user_id: 'User is required',
      amount: 'Amount must be greater than 0',
    });
    const filled = { ...blank, user_id: '7', amount: 0, payment_type: null };
    expect(schemaErrors(createPaymentInput, paymentFormInput(filled))).toEqual({
      amount: 'Amount must be greater than 0',
      payment_type: 'Payment type is required',
    });
    expect(schemaErrors(createPaymentInput, paymentFormInput({ ...filled, amount: 1.005, payment_type: 'Other' }))).toEqual({
      amount: 'Amount can have at most 2 decimal places',
    });
  });

  it('sends numbers for the selects, null for no license and an empty description, and leaves an emptied date to the server', () => {
    const out = createPaymentInput.parse(
      paymentFormInput({ ...blank, user_id: '7', amount: 12.5, license_id: null, description: '   ', payment_date: '' }),
    );
    expect(out).toEqual({
      user_id: 7,
      amount: 12.5,
      payment_type: 'License Fee',
      payment_method: 'Credit Card',
      status: 'Completed',
      license_id: null,
      description: null,
    });
    expect(createPaymentInput.parse(paymentFormInput({ ...blank, user_id: '7', amount: 3, license_id: '12' })).license_id).toBe(12);
  });
});
