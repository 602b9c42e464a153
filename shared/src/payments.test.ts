import { describe, expect, it } from 'vitest';
import { createPaymentInput, formatPaymentAmount, hasAtMostTwoDecimals, updatePaymentInput } from './payments.ts';

describe('payment input', () => {
  it('applies the defaults License Fee, Credit Card, Completed', () => {
    expect(createPaymentInput.parse({ user_id: 1, amount: 12.5 })).toMatchObject({
      payment_type: 'License Fee',
      payment_method: 'Credit Card',
      status: 'Completed',
    });
  });
  it('needs an amount above 0 with at most 2 decimals', () => {
    expect(createPaymentInput.safeParse({ user_id: 1, amount: 0 }).error?.issues[0]?.message).toBe('Amount must be greater than 0');
    expect(createPaymentInput.safeParse({ user_id: 1, amount: 1.005 }).success).toBe(false);
    expect(hasAtMostTwoDecimals(0.1 + 0.2)).toBe(true);
    expect(hasAtMostTwoDecimals(19.99)).toBe(true);
  });
  it('says which field is missing', () => {
    const r = createPaymentInput.safeParse({ amount: 5, payment_type: '' });
    expect(r.error!.issues.map((i) => i.message)).toEqual(expect.arrayContaining(['User is required', 'Payment type is required']));
  });
});

describe('payment helpers', () => {
  it('formats dollars with 2 decimals and a thousands separator', () => {
    expect(formatPaymentAmount(1234.5)).toBe('$1,234.50');
    expect(formatPaymentAmount(0.1 + 0.2)).toBe('$0.30');
  });
  it('updates take any subset of fields without applying create defaults', () => {
    expect(updatePaymentInput.parse({ id: '3', status: 'Refunded' })).toEqual({ id: 3, status: 'Refunded' });
  });
});
