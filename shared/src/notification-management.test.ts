import { describe, expect, it } from 'vitest';
import { deliveryLabel } from './notification-management.ts';

describe('deliveryLabel', () => {
  it('calls only a mail server hand-over "Delivered"; an outbox file is never delivered', () => {
    expect(deliveryLabel({ status: 'sent', transport: 'smtp' })).toBe('Delivered');
    expect(deliveryLabel({ status: 'sent', transport: 'outbox' })).toBe('In outbox');
    expect(deliveryLabel({ status: 'failed', transport: 'none' })).toBe('Not delivered');
    expect(deliveryLabel({ status: 'failed', transport: 'smtp' })).toBe('Failed');
    expect(deliveryLabel({ status: 'pending', transport: null })).toBe('Pending');
  });
});
