import { describe, expect, it } from 'vitest';
import { backupUploadTooLarge } from '@lm/shared';
import { FileCallError } from '../../lib/download.ts';
import { uploadBackup } from './backup-files.ts';

describe('uploadBackup', () => {
  it('refuses a file over the server limit for backups with the server text, before sending a byte', async () => {
    const file = new File([new Uint8Array(1024 * 1024 + 1)], 'office.zip', { type: 'application/zip' });
    const progress: number[] = [];
    const sent = uploadBackup(file, 1, (p) => progress.push(p), 'Failed to upload backup');
    await expect(sent).rejects.toBeInstanceOf(FileCallError);
    await expect(sent).rejects.toThrow(backupUploadTooLarge(1));
    expect(progress).toEqual([]);
  });
});
