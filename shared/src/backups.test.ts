import { describe, expect, it } from 'vitest';
import {
  BACKUP_GROUP_CONTENTS,
  BACKUP_GROUPS,
  backupBeyondNameWarning,
  backupGroupContents,
  chosenGroups,
  formatBytes,
} from './backups.ts';

describe('formatBytes (docs/product.md section 9: Bytes, KB, MB or GB with 2 decimals)', () => {
  it.each([
    [0, '0 Bytes'],
    [-5, '0 Bytes'],
    [Number.NaN, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1024 * 1024, '1.00 MB'],
    [5.25 * 1024 * 1024, '5.25 MB'],
    [1024 ** 3, '1.00 GB'],
    [2.5 * 1024 ** 4, '2560.00 GB'],
  ])('%s bytes -> %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('chosenGroups', () => {
  it('keeps the groups whose flag is true, in the modal order', () => {
    expect(chosenGroups({ include_settings: true, include_users: true, include_courses: false })).toEqual(['users', 'settings']);
    expect(chosenGroups({})).toEqual([]);
  });
});

describe('restore groups say what they hold (docs/decisions.md "Honest screens and accessibility")', () => {
  it('lists each group’s contents in words, every table once', () => {
    expect(backupGroupContents('licenses')).toBe('Contains licenses, renewals, CE rules, CE adjustments');
    expect(backupGroupContents('settings')).toBe('Contains system settings');
    const tables = BACKUP_GROUPS.flatMap((g) => BACKUP_GROUP_CONTENTS[g].map((c) => c.table));
    expect(new Set(tables).size).toBe(tables.length);
    expect(tables).not.toContain('audit_logs');
  });

  it('asks again only when a chosen group holds more than its name says', () => {
    expect(backupBeyondNameWarning(['licenses'])).toBe('Restoring Licenses also rolls back CE rules and CE adjustments to this backup.');
    expect(backupBeyondNameWarning(['settings', 'users', 'payments'])).toBeNull();
    expect(backupBeyondNameWarning(['licenses', 'documents'])).toBe(
      'Restoring Licenses also rolls back CE rules and CE adjustments to this backup. ' +
        'Restoring Documents also rolls back links from certificates to completions to this backup.',
    );
  });
});
