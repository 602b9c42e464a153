/**
 * The documents feature's server calls (docs/architecture.md "Client"): the list page, one document with its
 * versions, edit and delete through tRPC; uploads (with progress), previews and downloads through the REST file
 * routes with the stored token. A change refreshes the documents queries.
 */
import { useEffect, useState } from 'react';
import { keepPreviousData, useMutation } from '@tanstack/react-query';
import { DOCUMENT_STRINGS, PICKER_LIMIT, type DocumentCategory, type DocumentDetail, type DocumentListQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome, notify } from '../../lib/notify.ts';
import { authHeaders, FileCallError, fileCallMessage, responseError } from '../../lib/download.ts';
import { postWithProgress } from '../../lib/upload.ts';
import type { PickerAsk } from '../../components/server-search-select.tsx';

function useRefreshDocuments() {
  const utils = trpc.useUtils();
  return () => void utils.documents.invalidate();
}

/** One page of the Documents list; the previous page stays on screen while the next loads. */
export function useDocumentsPage(input: DocumentListQuery) {
  return trpc.documents.page.useQuery(input, { placeholderData: keepPreviousData });
}

/** The drawer: one document with its versions. */
export function useDocument(documentId: number | null) {
  return trpc.documents.get.useQuery({ id: documentId ?? 0 }, { enabled: documentId !== null });
}

/** The owner picker (Admin, Broker): the license holders in the caller's scope matching what is typed, 20 at a time. */
export function useOwnerPicker(ask: PickerAsk, enabled: boolean) {
  const input = ask.ids ? { ids: ask.ids } : { search: ask.search || undefined };
  return trpc.licenses.holders.useQuery(input, { enabled, staleTime: 30_000, placeholderData: keepPreviousData });
}

/**
 * The License filter's picker: the licenses in the caller's scope (of `ownerId` when an owner is chosen) whose
 * number or holder matches what is typed, 20 by number; a chosen one (from the URL) is read by id.
 */
export function useLicensePicker(ask: PickerAsk, enabled: boolean, ownerId: number | null) {
  const page = trpc.licenses.page.useQuery(
    { search: ask.search || undefined, user_id: ownerId ?? undefined, sort: 'license_number', order: 'asc', limit: PICKER_LIMIT },
    { enabled: enabled && !ask.ids, staleTime: 30_000, placeholderData: keepPreviousData },
  );
  const one = trpc.licenses.get.useQuery({ id: Number(ask.ids) || 0 }, { enabled: enabled && !!ask.ids && Number(ask.ids) > 0 });
  if (ask.ids) return { data: one.data ? [one.data] : undefined, isFetching: one.isFetching };
  return { data: page.data?.licenses, isFetching: page.isFetching };
}

/** The license select of a document: one person's licenses (never everyone's). */
export function useOwnerLicenses(userId: number | null, enabled: boolean) {
  return trpc.licenses.list.useQuery({ user_id: userId ?? 0 }, { enabled: enabled && userId !== null });
}

/** The completion select of a CE certificate: one person's completions. */
export function useOwnerCompletions(userId: number | null, enabled: boolean) {
  return trpc.completions.list.useQuery({ user_id: userId ?? 0 }, { enabled: enabled && userId !== null });
}

export function useUpdateDocument() {
  const refresh = useRefreshDocuments();
  return trpc.documents.update.useMutation(mutationOutcome(DOCUMENT_STRINGS.updated, 'Failed to update the document', refresh));
}

export function useDeleteDocument() {
  const refresh = useRefreshDocuments();
  return trpc.documents.delete.useMutation(mutationOutcome(DOCUMENT_STRINGS.deleted, 'Failed to delete the document', refresh));
}

export interface UploadInput {
  file: File;
  /** A new version of this document; otherwise a new document with the fields below. */
  documentId?: number;
  category?: DocumentCategory;
  licenseId?: number | null;
  completionId?: number | null;
  ownerId?: number | null;
}

/** Upload a document or a new version, with progress; the server's 400/413 text is the error's message. */
export function useUploadDocument() {
  const refresh = useRefreshDocuments();
  const [progress, setProgress] = useState(0);
  const mutation = useMutation({
    mutationFn: (input: UploadInput) => {
      setProgress(0);
      const form = new FormData();
      // The fields first, then the file (the server reads the parts in order).
      if (input.documentId === undefined) {
        form.append('category', input.category ?? 'other');
        if (input.licenseId) form.append('license_id', String(input.licenseId));
        if (input.completionId) form.append('completion_id', String(input.completionId));
        if (input.ownerId) form.append('owner_id', String(input.ownerId));
      }
      form.append('file', input.file, input.file.name);
      const url = input.documentId === undefined ? '/api/documents' : `/api/documents/${input.documentId}/versions`;
      return postWithProgress<DocumentDetail>(url, form, setProgress);
    },
    onSuccess: (_doc, input) => {
      setProgress(100);
      notify.success(input.documentId === undefined ? DOCUMENT_STRINGS.uploaded : DOCUMENT_STRINGS.versionUploaded);
      refresh();
    },
  });
  return { ...mutation, progress, errorMessage: mutation.error ? fileCallMessage(mutation.error, 'The upload failed') : null };
}

const fileUrl = (documentId: number, version?: number) =>
  version === undefined ? `/api/documents/${documentId}/download` : `/api/documents/${documentId}/versions/${version}/download`;

async function fetchFile(url: string, failure: string): Promise<Blob> {
  let res: Response;
  try {
    res = await fetch(url, { headers: authHeaders() });
  } catch {
    throw new FileCallError(failure);
  }
  if (!res.ok) throw await responseError(res, failure);
  return res.blob();
}

/** Saves one version under its original file name. */
export async function downloadVersion(documentId: number, version: number, fileName: string): Promise<void> {
  const failure = 'Failed to download the file';
  try {
    const url = URL.createObjectURL(await fetchFile(fileUrl(documentId, version), failure));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    notify.error(fileCallMessage(err, failure));
  }
}

/** A blob: URL of a version's bytes for the preview (images and PDF), revoked when no longer shown. */
export function usePreviewUrl(documentId: number, version: number, enabled: boolean): { url: string | null; error: string | null } {
  const [state, setState] = useState<{ url: string | null; error: string | null }>({ url: null, error: null });
  useEffect(() => {
    if (!enabled) return;
    let url: string | null = null;
    let cancelled = false;
    setState({ url: null, error: null });
    fetchFile(`${fileUrl(documentId, version)}?inline=1`, 'The preview could not be loaded')
      .then((blob) => {
        if (cancelled) return;
        url = URL.createObjectURL(blob);
        setState({ url, error: null });
      })
      .catch((err: unknown) => !cancelled && setState({ url: null, error: fileCallMessage(err, 'The preview could not be loaded') }));
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [documentId, version, enabled]);
  return state;
}
