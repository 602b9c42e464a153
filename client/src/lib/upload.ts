/**
 * Multipart uploads to the REST file routes with progress (documents, imports): XMLHttpRequest, because fetch
 * reports no upload progress. The stored Bearer token is sent; a 401 ends the local session like any other call;
 * a refusal carries the server's `error` text (lib/download.ts FileCallError).
 */
import { authHeaders, FileCallError } from './download.ts';
import { tokenStore } from './token.ts';
import { UNAUTHORIZED_EVENT } from './auth.tsx';

/** POSTs `form` to `url`, calling `onProgress` with 0-100 as the bytes go; resolves with the JSON answer. */
export function postWithProgress<T>(
  url: string,
  form: FormData,
  onProgress: (percent: number) => void,
  failure = 'The upload failed',
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded * 100) / e.total));
    };
    xhr.onload = () => {
      let body: { error?: unknown } | null = null;
      try {
        body = JSON.parse(xhr.responseText) as { error?: unknown };
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as unknown as T);
      if (xhr.status === 401 && tokenStore.get()) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
      reject(new FileCallError(typeof body?.error === 'string' ? body.error : failure));
    };
    xhr.onerror = () => reject(new FileCallError(`${failure}: the server could not be reached`));
    xhr.send(form);
  });
}
