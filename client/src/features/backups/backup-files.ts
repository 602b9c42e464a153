/**
 * The two backup calls that move files, which tRPC cannot carry: the zip download (lib/download.ts) and the upload
 * with its progress (lib/upload.ts).
 */
import { backupFileName, backupUploadTooLarge, type UploadResult } from '@lm/shared';
import { downloadFile, FileCallError } from '../../lib/download.ts';
import { postWithProgress } from '../../lib/upload.ts';

export { fileCallMessage } from '../../lib/download.ts';

/** Downloads backup_{id}.zip through a temporary blob link. */
export async function downloadBackup(id: number, fallback: string): Promise<void> {
  await downloadFile(`/api/admin/backups/${id}/download`, { fileName: backupFileName(id), failure: fallback });
}

/**
 * Uploads a backup zip with progress (0-100 as the bytes go); the server validates it and lists it as a new backup of
 * type Uploaded. A file over the server's limit for backups (`limitMb`, from the list) is refused here with the
 * server's own 413 text, before a byte is sent.
 */
export function uploadBackup(
  file: File,
  limitMb: number | undefined,
  onProgress: (percent: number) => void,
  fallback: string,
): Promise<UploadResult> {
  if (limitMb !== undefined && file.size > limitMb * 1024 * 1024) return Promise.reject(new FileCallError(backupUploadTooLarge(limitMb)));
  const form = new FormData();
  form.append('file', file, file.name);
  return postWithProgress<UploadResult>('/api/admin/backups/upload', form, onProgress, fallback);
}
