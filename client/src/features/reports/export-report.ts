import { reportFileName, REPORT_STRINGS, type ReportName } from '@lm/shared';
import { downloadFile, fileCallMessage } from '../../lib/download.ts';
import { notify } from '../../lib/notify.ts';

export interface ReportQuery {
  start_date: string;
  end_date: string;
  state?: string;
  license_status?: string;
}

/**
 * Downloads GET /api/reports/{name}/export?format=csv with the filters (non-empty only), named as the
 * server says (else as docs/product.md section 7 prescribes). Toasts success or the server's error text.
 */
export async function exportReport(name: ReportName, q: ReportQuery): Promise<void> {
  const params = new URLSearchParams({ format: 'csv' });
  for (const [k, v] of Object.entries(q)) if (v) params.set(k, v);
  try {
    await downloadFile(`/api/reports/${name}/export?${params.toString()}`, {
      fileName: reportFileName(name, q.start_date, q.end_date),
      failure: REPORT_STRINGS.exportFailed,
    });
    notify.success(REPORT_STRINGS.exported);
  } catch (err) {
    notify.error(fileCallMessage(err, REPORT_STRINGS.exportFailed));
  }
}
