import { describe, expect, it } from 'vitest';
import { AUDIT_SORT_BOUND, auditLogsInput, auditSortIndexed, auditSortTooLarge } from './audit-log.ts';

describe('auditSortIndexed: which sorts an index serves at any size', () => {
  it('newest or oldest first always', () => {
    expect(auditSortIndexed('timestamp', {})).toBe(true);
    expect(auditSortIndexed('timestamp', { user_id: 3, action: 'create', target_table: 'licenses', start_date: '2026-01-01' })).toBe(true);
  });

  it('user, action and table when the only filter is on that same column', () => {
    expect(auditSortIndexed('user', {})).toBe(true);
    expect(auditSortIndexed('user', { user_id: 3 })).toBe(true);
    expect(auditSortIndexed('user', { target_table: 'licenses' })).toBe(false);
    expect(auditSortIndexed('action', { action: 'create', user_id: '' })).toBe(true);
    expect(auditSortIndexed('action', { action: 'create', end_date: '2026-01-01' })).toBe(false);
    expect(auditSortIndexed('target_table', { target_table: 'licenses' })).toBe(true);
    expect(auditSortIndexed('target_table', { user_id: 1 })).toBe(false);
  });

  it('never target id or IP address (no index)', () => {
    expect(auditSortIndexed('target_id', {})).toBe(false);
    expect(auditSortIndexed('ip_address', {})).toBe(false);
  });

  it('says why a large view cannot be sorted', () => {
    expect(auditSortTooLarge('ip_address')).toBe(
      `Sorting by IP Address needs a narrower view: filter to ${AUDIT_SORT_BOUND.toLocaleString('en-US')} entries or fewer (this view has more)`,
    );
  });

  it('reads sort and order from a query string, and refuses others', () => {
    expect(auditLogsInput.parse({ sort: 'ip_address', order: 'desc' })).toMatchObject({ sort: 'ip_address', order: 'desc' });
    expect(auditLogsInput.parse({ sort: '', order: '' })).toMatchObject({ sort: undefined, order: undefined });
    expect(auditLogsInput.safeParse({ sort: 'colour' }).error?.issues[0]?.message).toBe(
      'Sort must be one of: timestamp, user, action, target_table, target_id, ip_address',
    );
  });
});
