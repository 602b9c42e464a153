/**
 * Step 1 of an import: the kind (when the caller may import more than one), the template, the file (a Dropzone
 * whose chooser is a real button, as the documents upload), the XLSX sheet, the welcome e-mails of a roster, and
 * the upload with its progress; the server's refusal (an image named .csv, an empty file, too many rows) in place.
 */
import '@mantine/dropzone/styles.layer.css';
import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Paper, Progress, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { FileDrop } from '../../components/file-drop.tsx';
import { IMPORT_STRINGS, type ImportKind, type ImportPreview } from '@lm/shared';
import { fileCallMessage } from '../../lib/download.ts';
import { notify } from '../../lib/notify.ts';
import { downloadTemplate, useUploadImport } from './api.ts';
import { IMPORT_SCREEN } from './strings.ts';

const isXlsx = (file: File | null) => Boolean(file && /\.xlsx$/i.test(file.name));

export function UploadStep({
  kind,
  allowed,
  onKind,
  onUploaded,
}: {
  kind: ImportKind;
  allowed: readonly ImportKind[];
  onKind: (kind: ImportKind) => void;
  onUploaded: (preview: ImportPreview) => void;
}) {
  const upload = useUploadImport();
  const [file, setFile] = useState<File | null>(null);
  const [sheet, setSheet] = useState('');
  const [sendWelcome, setSendWelcome] = useState(false);
  const [templateBusy, setTemplateBusy] = useState(false);
  /** Opens the file chooser (the Choose button). */

  const choose = (next: File | null) => {
    setFile(next);
    setSheet('');
    upload.reset();
  };
  const submit = () => {
    if (!file) return;
    upload.mutate(
      { file, kind, sheet: isXlsx(file) ? sheet : undefined, sendWelcome: kind === 'roster' && sendWelcome },
      { onSuccess: onUploaded },
    );
  };
  const template = () => {
    setTemplateBusy(true);
    downloadTemplate(kind)
      .catch((err: unknown) => notify.error(fileCallMessage(err, 'Failed to download the template')))
      .finally(() => setTemplateBusy(false));
  };

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
      <Stack>
        <div>
          <Title order={2} size="h4">
            {IMPORT_SCREEN.uploadTitle}
          </Title>
          <Text size="sm" c="dimmed">
            {IMPORT_SCREEN.uploadHelp}
          </Text>
        </div>
        <Group align="flex-end" justify="space-between" gap="sm">
          {allowed.length > 1 ? (
            <Select
              label={IMPORT_SCREEN.kindLabel}
              data={allowed.map((k) => ({ value: k, label: IMPORT_STRINGS.kinds[k] }))}
              value={kind}
              allowDeselect={false}
              onChange={(v) => v && onKind(v as ImportKind)}
              disabled={upload.isPending}
              w={{ base: '100%', xs: 280 }}
            />
          ) : (
            <Text size="sm" fw={500}>
              {IMPORT_STRINGS.kinds[kind]}
            </Text>
          )}
          <Button variant="subtle" leftSection={<IconDownload size={16} />} loading={templateBusy} onClick={template}>
            {IMPORT_SCREEN.template}
          </Button>
        </Group>
        <FileDrop file={file} onFile={choose} disabled={upload.isPending} hint={IMPORT_SCREEN.dropHint} />
        {isXlsx(file) && (
          <TextInput
            label={IMPORT_SCREEN.sheet}
            description={IMPORT_SCREEN.sheetHint}
            value={sheet}
            onChange={(e) => setSheet(e.currentTarget.value)}
            maxLength={100}
            w={{ base: '100%', xs: 280 }}
          />
        )}
        {kind === 'roster' && (
          <Checkbox label={IMPORT_SCREEN.sendWelcome} checked={sendWelcome} onChange={(e) => setSendWelcome(e.currentTarget.checked)} />
        )}
        {(upload.isPending || upload.isSuccess) && (
          <Progress value={upload.progress} aria-label={IMPORT_SCREEN.uploadProgress} animated={upload.isPending} />
        )}
        {upload.errorMessage && (
          <Alert color="red" role="alert">
            {upload.errorMessage}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button leftSection={<IconUpload size={16} />} onClick={submit} disabled={!file} loading={upload.isPending}>
            {IMPORT_SCREEN.upload}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
