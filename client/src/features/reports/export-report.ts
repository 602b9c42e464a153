import { reportFileName, REPORT_STRINGS, type ReportName } from '@lm/shared';
import { tokenStore } from '../../lib/token.ts';
import { UNAUTHORIZED_EVENT } from '../../lib/auth.tsx';
import { notify } from '../../lib/notify.ts';

export interface ReportQuery {
  start_date: string;
  end_date: string;
  state?: string;
  license_status?: string;
}

/** The file name the server gave (Content-Disposition), else the one SPEC.md section 7 prescribes. */
function fileName(res: Response, name: ReportName, q: ReportQuery): string {
  const match = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return match?.[1] ?? reportFileName(name, q.start_date, q.end_date);
}

/**
 * Downloads GET /api/reports/{name}/export?format=csv with the filters (non-empty only), using the
 * stored token, and saves it through a blob link. Toasts success or the server's error text.
 */
export async function exportReport(name: ReportName, q: ReportQuery): Promise<void> {
  const params = new URLSearchParams({ format: 'csv' });
  for (const [k, v] of Object.entries(q)) if (v) params.set(k, v);
  try {
    const token = tokenStore.get();
    const res = await fetch(`/api/reports/${name}/export?${params.toString()}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (!res.ok) {
      if (res.status === 401) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
      const body = (await res.json().catch(() => null)) as { error?: string } | null;
      notify.error(body?.error || REPORT_STRINGS.exportFailed);
      return;
    }
    const blob = await res.blob();
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName(res, name, q);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    notify.success(REPORT_STRINGS.exported);
  } catch {
    notify.error(REPORT_STRINGS.exportFailed);
  }
}
