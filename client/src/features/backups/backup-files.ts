/**
 * The two backup calls that move files, which tRPC cannot carry: the zip download and the upload.
 * Plain fetch with the stored Bearer token; a 401 ends the local session like any other call.
 */
import { backupFileName, type UploadResult } from '@lm/shared';
import { tokenStore } from '../../lib/token.ts';
import { UNAUTHORIZED_EVENT } from '../../lib/auth.tsx';

/** A failed file call, carrying the server's error text (or the SPEC.md fallback). */
export class FileCallError extends Error {}

function authHeaders(): Record<string, string> {
  const token = tokenStore.get();
  return token ? { authorization: `Bearer ${token}` } : {};
}

async function failure(res: Response, fallback: string): Promise<FileCallError> {
  if (res.status === 401 && tokenStore.get()) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  try {
    const body = (await res.json()) as { error?: unknown };
    if (typeof body.error === 'string' && body.error) return new FileCallError(body.error);
  } catch {
    // not JSON: the fallback says it
  }
  return new FileCallError(fallback);
}

/** Downloads backup_{id}.zip through a temporary blob link. */
export async function downloadBackup(id: number, fallback: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(`/api/admin/backups/${id}/download`, { headers: authHeaders() });
  } catch {
    throw new FileCallError(fallback);
  }
  if (!res.ok) throw await failure(res, fallback);
  const url = URL.createObjectURL(await res.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = backupFileName(id);
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
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
  if (!res.ok) throw await failure(res, fallback);
  return (await res.json()) as UploadResult;
}

/** The message of a failed call: the server's text for file calls; tRPC errors go through notify.failure. */
export function fileCallMessage(err: unknown, fallback: string): string {
  return err instanceof FileCallError ? err.message : fallback;
}
