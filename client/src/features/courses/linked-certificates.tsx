import { useEffect, useState } from 'react';
import { Anchor, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { EXTRACTION_STRINGS, type CompletionCertificate } from '@lm/shared';
import { authHeaders, downloadFile, fileCallMessage } from '../../lib/download.ts';
import { notify } from '../../lib/notify.ts';
import { useCompletionCertificates } from './api.ts';

const downloadPath = (id: number, inline = false) => `/api/documents/${id}/download${inline ? '?inline=1' : ''}`;

/** A preview of one certificate: the file fetched with the session's token into a blob URL (img or PDF frame). */
function CertificatePreview({ certificate }: { certificate: CompletionCertificate }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    setUrl(null);
    setFailed(false);
    fetch(downloadPath(certificate.document_id, true), { headers: authHeaders() })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const blob = await res.blob();
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [certificate.document_id, certificate.current_version]);

  if (failed)
    return (
      <Text size="sm" c="dimmed">
        {EXTRACTION_STRINGS.previewFailed}
      </Text>
    );
  if (!url) return <Loader size="sm" aria-label="Loading the certificate" />;
  if (certificate.mime_type === 'application/pdf') {
    return <iframe src={url} title={`Certificate ${certificate.title}`} style={{ width: '100%', height: 360, border: 0 }} />;
  }
  return <Image src={url} alt={`Certificate ${certificate.title}`} radius="sm" fit="contain" mah={360} />;
}

/**
 * The certificates linked to a completion, beside it for its reviewer: a preview and a download link each, or
 * "No certificate uploaded". The reviewer still decides: nothing is approved from the certificate alone.
 */
export function LinkedCertificates({ completionId }: { completionId: number }) {
  const query = useCompletionCertificates(completionId);
  if (query.isLoading) return <Loader size="sm" aria-label="Loading certificates" />;
  if (query.isError)
    return (
      <Text size="sm" c="red">
        {EXTRACTION_STRINGS.previewFailed}
      </Text>
    );
  const certificates = query.data ?? [];
  if (!certificates.length)
    return (
      <Text size="sm" c="dimmed">
        {EXTRACTION_STRINGS.noCertificate}
      </Text>
    );
  return (
    <Stack gap="sm">
      {certificates.map((c) => (
        <Stack key={c.document_id} gap={4}>
          <CertificatePreview certificate={c} />
          <Group gap={4}>
            <IconDownload size={14} aria-hidden />
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() =>
                downloadFile(downloadPath(c.document_id), {
                  fileName: c.file_name ?? c.title,
                  failure: EXTRACTION_STRINGS.previewFailed,
                }).catch((err: unknown) => notify.error(fileCallMessage(err, EXTRACTION_STRINGS.previewFailed)))
              }
            >
              Download {c.file_name ?? c.title}
            </Anchor>
          </Group>
        </Stack>
      ))}
    </Stack>
  );
}
