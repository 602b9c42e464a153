/**
 * The imports feature's server calls (docs/architecture.md "Client"): the upload (with progress), the template and
 * the errors file through the REST file routes; the preview, mapping, commit, undo and history through tRPC. A
 * change refreshes the imports queries, and a commit or undo the lists it wrote to.
 */
import { useState } from 'react';
import { keepPreviousData, useMutation } from '@tanstack/react-query';
import { IMPORT_STRINGS, type ImportGetInput, type ImportKind, type ImportListQuery, type ImportPreview } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';
import { downloadFile, fileCallMessage } from '../../lib/download.ts';
import { postWithProgress } from '../../lib/upload.ts';

/** After a commit or an undo: the imports, and the people, licenses and completions the rows wrote. */
function useRefreshAfterWrite() {
  const utils = trpc.useUtils();
  return () => {
    void utils.imports.invalidate();
    void utils.users.invalidate();
    void utils.licenses.invalidate();
    void utils.completions.invalidate();
  };
}

/** One page of the import history (newest first). */
export function useImportsPage(input: ImportListQuery) {
  return trpc.imports.list.useQuery(input, { placeholderData: keepPreviousData });
}

/** An import's preview: columns, mapping, counts and one page of rows (filtered by action). */
export function useImport(input: ImportGetInput | null) {
  return trpc.imports.get.useQuery(input ?? { id: 0 }, { enabled: input !== null, placeholderData: keepPreviousData });
}

/** A new mapping; the answer is the recomputed preview, so every page of it is fetched again. */
export function useUpdateMapping() {
  const utils = trpc.useUtils();
  return trpc.imports.updateMapping.useMutation(
    mutationOutcome<ImportPreview>(
      null,
      'Failed to change the mapping',
      (preview) => void utils.imports.get.invalidate({ id: preview.import_id }),
    ),
  );
}

export function useCommitImport() {
  const refresh = useRefreshAfterWrite();
  return trpc.imports.commit.useMutation(mutationOutcome((r) => r.message, null, refresh));
}

/** Undo: the refusal (409 naming the rows) is shown by the screen in place, not only as a toast. */
export function useUndoImport() {
  const refresh = useRefreshAfterWrite();
  return trpc.imports.undo.useMutation(mutationOutcome((r) => r.message || IMPORT_STRINGS.undone, null, refresh));
}

export interface ImportUploadInput {
  file: File;
  kind: ImportKind;
  /** The XLSX sheet to read (the first when empty). */
  sheet?: string;
  /** Welcome e-mails to the people a roster creates. */
  sendWelcome?: boolean;
}

/** Uploads a file to preview, with progress; the server's 400/413/415 text is the error's message. */
export function useUploadImport() {
  const [progress, setProgress] = useState(0);
  const mutation = useMutation({
    mutationFn: (input: ImportUploadInput) => {
      setProgress(0);
      const form = new FormData();
      // The fields first, then the file (the server reads the parts in order).
      form.append('kind', input.kind);
      if (input.sheet?.trim()) form.append('sheet', input.sheet.trim());
      if (input.sendWelcome) form.append('send_welcome', 'true');
      form.append('file', input.file, input.file.name);
      return postWithProgress<ImportPreview>('/api/imports', form, setProgress);
    },
    onSuccess: () => setProgress(100),
  });
  return { ...mutation, progress, errorMessage: mutation.error ? fileCallMessage(mutation.error, 'The upload failed') : null };
}

/** The kind's template: a header row of its fields' labels. */
export function downloadTemplate(kind: ImportKind): Promise<string> {
  return downloadFile(`/api/imports/template/${kind}.csv`, {
    fileName: `${kind}-template.csv`,
    failure: 'Failed to download the template',
  });
}

/** The rows an import rejected, with their reasons, to fix and upload again. */
export function downloadErrors(importId: number): Promise<string> {
  return downloadFile(`/api/imports/${importId}/errors.csv`, {
    fileName: `import-${importId}-errors.csv`,
    failure: 'Failed to download the errors file',
  });
}
