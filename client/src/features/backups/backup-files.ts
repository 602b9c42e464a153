/**
 * The two backup calls that move files, which tRPC cannot carry: the zip download and the upload,
 * through the one file-call helper (lib/download.ts).
 */
import { backupFileName, type UploadResult } from '@lm/shared';
import { authHeaders, downloadFile, FileCallError, responseError } from '../../lib/download.ts';

export { fileCallMessage } from '../../lib/download.ts';

/** Downloads backup_{id}.zip through a temporary blob link. */
export async function downloadBackup(id: number, fallback: string): Promise<void> {
  await downloadFile(`/api/admin/backups/${id}/download`, { fileName: backupFileName(id), failure: fallback });
}

/** Uploads a backup zip; the server validates it and lists it as a new backup of type Uploaded. */
export async function uploadBackup(file: File, fallback: string): Promise<UploadResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  let res: Response;
  try {
    res = await fetch('/api/admin/backups/upload', { method: 'POST', headers: authHeaders(), body: form });
  } catch {
    throw new FileCallError(fallback);
  }
  if (!res.ok) throw await responseError(res, fallback);
  return (await res.json()) as UploadResult;
}
