import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { downloadFile, fileCallMessage } from '../lib/download.ts';
import { notify } from '../lib/notify.ts';

/**
 * Downloads the server's CSV of a list's current view: `path` (e.g. /api/licenses/export) with the list's
 * filters, sort and order as the query string (empty values left out). The server streams every matching
 * row in the caller's scope (server/src/http/list-export.ts).
 */
export function ExportButton({
  path,
  params,
  things,
}: {
  path: string;
  params: Record<string, string | number | undefined>;
  things: string;
}) {
  const [busy, setBusy] = useState(false);
  const failure = `Failed to export ${things}`;
  const onClick = () => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
    setBusy(true);
    downloadFile(search.size ? `${path}?${search}` : path, { fileName: `${things}.csv`, failure })
      .then((name) => notify.success(`Exported ${name}`))
      .catch((err: unknown) => notify.error(fileCallMessage(err, failure)))
      .finally(() => setBusy(false));
  };
  return (
    <Button variant="default" leftSection={<IconDownload size={16} />} loading={busy} onClick={onClick}>
      Export CSV
    </Button>
  );
}
