/**
 * The one way to call the REST file routes that tRPC cannot carry (CSV exports, zips, uploads): plain fetch
 * with the stored Bearer token; a 401 ends the local session like any other call.
 */
import { tokenStore } from './token.ts';
import { UNAUTHORIZED_EVENT } from './auth.tsx';

/** A failed file call, carrying the server's error text (or the screen's fallback). */
export class FileCallError extends Error {}

export function authHeaders(): Record<string, string> {
  const token = tokenStore.get();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The error of a non-2xx answer: the server's `error` text when it sent one, else the fallback. */
export async function responseError(res: Response, fallback: string): Promise<FileCallError> {
  if (res.status === 401 && tokenStore.get()) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  try {
    const body = (await res.json()) as { error?: unknown };
    if (typeof body.error === 'string' && body.error) return new FileCallError(body.error);
  } catch {
    // not JSON: the fallback says it
  }
  return new FileCallError(fallback);
}

/** The message of a failed call: the server's text for file calls; tRPC errors go through notify.failure. */
export function fileCallMessage(err: unknown, fallback: string): string {
  return err instanceof FileCallError ? err.message : fallback;
}

/** The file name the server gave (Content-Disposition), else the caller's. */
function fileNameOf(res: Response, fallbackName: string): string {
  const match = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallbackName;
}

/**
 * GETs `path` (e.g. /api/reports/licenses/export?format=csv) and saves the answer through a temporary blob
 * link, named as the server says. Throws FileCallError with the server's text or `failure`.
 */
export async function downloadFile(path: string, { fileName, failure }: { fileName: string; failure: string }): Promise<string> {
  let res: Response;
  try {
    res = await fetch(path, { headers: authHeaders() });
  } catch {
    throw new FileCallError(failure);
  }
  if (!res.ok) throw await responseError(res, failure);
  const name = fileNameOf(res, fileName);
  const url = URL.createObjectURL(await res.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return name;
}
