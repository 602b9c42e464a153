/**
 * The Documents screen (docs/product.md, docs/decisions.md "Documents"): a person's files with their versions.
 * The list (filters, sort, paging, CSV), a drawer per document (preview, versions, new version, edit, delete)
 * and the upload modal (Dropzone, progress, the server's refusal shown in place).
 */
import '@mantine/dropzone/styles.layer.css';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Badge, Button, Divider, Drawer, Group, Modal, Progress, Select, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload, IconFileUpload, IconTrash, IconUpload } from '@tabler/icons-react';
import { FileDrop } from '../../components/file-drop.tsx';
import { ServerSearchSelect, type PickerAsk } from '../../components/server-search-select.tsx';
import {
  DOCUMENT_CATEGORIES,
  DOCUMENT_CATEGORY_LABELS,
  DOCUMENT_SORT_COLUMNS,
  DOCUMENT_STRINGS,
  formatBytes,
  type DocumentCategory,
  type DocumentDetail,
  type DocumentItem,
  type License,
  type LicenseHolder,
} from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { useListState } from '../../lib/use-url-state.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { confirm } from '../../components/confirm.ts';
import { ListTable } from '../../components/list-table.tsx';
import { ListToolbar } from '../../components/list-toolbar.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import {
  downloadVersion,
  useDeleteDocument,
  useDocument,
  useDocumentsPage,
  useOwnerCompletions,
  useLicensePicker,
  useOwnerLicenses,
  useOwnerPicker,
  usePreviewUrl,
  useUpdateDocument,
  useUploadDocument,
} from './api.ts';
import { ExtractionPanel } from './extraction-panel.tsx';

const CATEGORY_OPTIONS = DOCUMENT_CATEGORIES.map((c) => ({ value: c, label: DOCUMENT_CATEGORY_LABELS[c] }));
const sortKey = (key: string) =>
  (DOCUMENT_SORT_COLUMNS as readonly string[]).includes(key) ? (key as (typeof DOCUMENT_SORT_COLUMNS)[number]) : 'created_at';
const ownerOption = (o: LicenseHolder) => ({ value: String(o.user_id), label: `${o.first_name} ${o.last_name}` });
const licenseOption = (l: License) => ({ value: String(l.license_id), label: l.license_number });
const isPreviewable = (mime: string) => mime === 'application/pdf' || mime.startsWith('image/');

export function DocumentsPage() {
  const { can } = useAuth();
  const canUpload = can('documents.upload');
  const [uploading, setUploading] = useState(false);
  return (
    <>
      <PageHeader
        title={DOCUMENT_STRINGS.title}
        actions={
          canUpload && (
            <Button leftSection={<IconUpload size={16} />} onClick={() => setUploading(true)}>
              {DOCUMENT_STRINGS.upload}
            </Button>
          )
        }
      />
      <DocumentsTable canEdit={canUpload} />
      {canUpload && <UploadModal opened={uploading} onClose={() => setUploading(false)} />}
    </>
  );
}

function DocumentsTable({ canEdit }: { canEdit: boolean }) {
  const { can } = useAuth();
  const manager = can('documents.uploadForOthers');
  const list = useListState({ sort: 'created_at', order: 'desc', filters: { owner: '', category: '', license: '', search: '' } });
  const f = list.filters;
  const [params, setParams] = useSearchParams();
  const openId = Number(params.get('open')) || null;
  const setOpenId = (id: number | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (id === null) next.delete('open');
        else next.set('open', String(id));
        return next;
      },
      { replace: true },
    );
  // A School holds no licenses and may not list them.
  const holder = can('licenses.read');
  const ownerId = f.owner ? Number(f.owner) : null;
  // The License filter searches the chosen owner's licenses, or every license in scope.
  const useLicenseResults = useMemo(
    () =>
      function useLicenseResults(ask: PickerAsk, enabled: boolean) {
        return useLicensePicker(ask, enabled, ownerId);
      },
    [ownerId],
  );

  const view = {
    sort: sortKey(list.sort),
    order: list.order,
    owner_id: f.owner ? Number(f.owner) : undefined,
    category: (f.category || undefined) as DocumentCategory | undefined,
    license_id: f.license ? Number(f.license) : undefined,
    search: f.search || undefined,
  };
  const query = useDocumentsPage({ ...view, page: list.page, limit: list.limit });
  const empty = !f.owner && !f.category && !f.license && !f.search;

  return (
    <Stack>
      <ListToolbar
        list={list}
        fields={[
          { type: 'search', name: 'search', label: 'Search', placeholder: 'Title', w: 220 },
          manager && {
            type: 'picker',
            name: 'owner',
            label: 'Owner',
            placeholder: 'Everyone',
            picker: { useResults: useOwnerPicker, toOption: ownerOption, emptyMessage: DOCUMENT_STRINGS.noOwners },
            // Another owner's licenses differ: the license filter starts again.
            onChange: (owner) => list.setFilters({ owner, license: '' }),
            w: 200,
          },
          { name: 'category', label: 'Category', placeholder: 'All categories', data: CATEGORY_OPTIONS, w: 180 },
          holder && {
            type: 'picker',
            name: 'license',
            label: 'License',
            placeholder: 'Any license',
            picker: { useResults: useLicenseResults, toOption: licenseOption, emptyMessage: DOCUMENT_STRINGS.noLicenses },
            w: 180,
          },
        ]}
        exportCsv={{ path: '/api/documents/export', params: view, things: DOCUMENT_STRINGS.things }}
      />
      <ListTable<DocumentItem>
        things={DOCUMENT_STRINGS.things}
        query={query}
        records={query.data?.documents}
        total={query.data?.pagination.total ?? 0}
        idAccessor="document_id"
        list={list}
        emptyText={
          empty ? `${DOCUMENT_STRINGS.empty}. ${canEdit ? DOCUMENT_STRINGS.emptyHint : ''}`.trim() : 'No documents match these filters'
        }
        onOpen={(d) => setOpenId(d.document_id)}
        columns={[
          {
            accessor: 'title',
            title: 'Title',
            sortable: true,
            render: (d) => (
              <Text size="sm" fw={500} lineClamp={2} maw={280}>
                {d.title}
              </Text>
            ),
          },
          {
            accessor: 'category',
            title: 'Category',
            sortable: true,
            noWrap: true,
            render: (d) => <Badge variant="light">{DOCUMENT_CATEGORY_LABELS[d.category]}</Badge>,
          },
          { accessor: 'owner', title: 'Owner', sortable: true, render: (d) => d.owner_name },
          { accessor: 'license_number', title: 'License', render: (d) => d.license_number ?? d.completion_course_name ?? '-' },
          { accessor: 'current_version', title: 'Version', textAlign: 'right', render: (d) => `v${d.current_version}` },
          { accessor: 'created_at', title: 'Added', sortable: true, noWrap: true, render: (d) => formatDate(d.created_at) },
        ]}
      />
      <DocumentDrawer documentId={openId} canEdit={canEdit} onClose={() => setOpenId(null)} />
    </Stack>
  );
}

function DocumentDrawer({ documentId, canEdit, onClose }: { documentId: number | null; canEdit: boolean; onClose: () => void }) {
  const narrow = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer
      opened={documentId !== null}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'xl'}
      title={
        <Title order={3} component="span">
          Document
        </Title>
      }
      closeButtonProps={{ 'aria-label': 'Close document details' }}
    >
      {documentId !== null && <DrawerBody documentId={documentId} canEdit={canEdit} onDeleted={onClose} />}
    </Drawer>
  );
}

function DrawerBody({ documentId, canEdit, onDeleted }: { documentId: number; canEdit: boolean; onDeleted: () => void }) {
  const query = useDocument(documentId);
  const remove = useDeleteDocument();
  const [versionOpen, setVersionOpen] = useState(false);
  if (query.isError) return <QueryError things="the document" query={query} />;
  const doc = query.data;
  if (!doc) return <Skeleton h={240} role="status" aria-label="Loading the document" />;
  const current = doc.versions.find((v) => v.version === doc.current_version) ?? doc.versions.at(-1)!;
  const onDelete = async () => {
    if (await confirm(DOCUMENT_STRINGS.deleteConfirm, { confirmLabel: 'Delete' })) {
      remove.mutate({ id: doc.document_id }, { onSuccess: onDeleted });
    }
  };
  return (
    <Stack>
      <div>
        <Text fw={600} style={{ wordBreak: 'break-word' }}>
          {doc.title}
        </Text>
        <Text size="sm" c="dimmed">
          {DOCUMENT_CATEGORY_LABELS[doc.category]} · {doc.owner_name}
          {doc.license_number ? ` · License ${doc.license_number}` : ''}
          {doc.completion_course_name ? ` · ${doc.completion_course_name}` : ''}
        </Text>
      </div>
      <Preview documentId={doc.document_id} version={current.version} mime={current.mime_type} title={current.file_name} />
      {doc.category === 'ce_certificate' && <ExtractionPanel documentId={doc.document_id} version={current.version} />}
      <Divider label="Versions" labelPosition="left" />
      {/* No minimum width: at 390 px the table fits the drawer, each file's Download button whole under its name. */}
      <Table.ScrollContainer minWidth={0}>
        <Table aria-label="Versions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Version</Table.Th>
              <Table.Th>File</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th>Uploaded</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...doc.versions].reverse().map((v) => (
              <Table.Tr key={v.version}>
                <Table.Td>v{v.version}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-word' }}>
                  {v.file_name}
                  <Button
                    display="flex"
                    size="xs"
                    variant="subtle"
                    px={0}
                    leftSection={<IconDownload size={14} />}
                    aria-label={`Download ${v.file_name} (version ${v.version})`}
                    onClick={() => void downloadVersion(doc.document_id, v.version, v.file_name)}
                  >
                    Download
                  </Button>
                </Table.Td>
                <Table.Td>{formatBytes(v.size)}</Table.Td>
                <Table.Td>
                  {formatDateTime(v.created_at)}
                  {v.uploaded_by_name ? ` · ${v.uploaded_by_name}` : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {canEdit && (
        <>
          <Group>
            <Button leftSection={<IconFileUpload size={16} />} variant="light" onClick={() => setVersionOpen(true)}>
              {DOCUMENT_STRINGS.uploadVersion}
            </Button>
            <Button color="red" variant="subtle" leftSection={<IconTrash size={16} />} onClick={() => void onDelete()}>
              Delete
            </Button>
          </Group>
          <Divider label="Details" labelPosition="left" />
          <EditForm doc={doc} />
          <UploadModal opened={versionOpen} documentId={doc.document_id} onClose={() => setVersionOpen(false)} />
        </>
      )}
    </Stack>
  );
}

const PREVIEW_HEIGHT = 420;

function Preview({ documentId, version, mime, title }: { documentId: number; version: number; mime: string; title: string }) {
  const previewable = isPreviewable(mime);
  const { url, error } = usePreviewUrl(documentId, version, previewable);
  if (!previewable) {
    return (
      <Text size="sm" c="dimmed">
        No preview for this type of file; download it below.
      </Text>
    );
  }
  if (error) return <Alert color="red">{error}</Alert>;
  // The skeleton, the PDF and the image take the same height, so what is below (the reading, its form) does not
  // move when the preview arrives.
  if (!url) return <Skeleton h={PREVIEW_HEIGHT} role="status" aria-label="Loading the preview" />;
  if (mime === 'application/pdf') {
    return <iframe src={url} title={`Preview of ${title}`} style={{ width: '100%', height: PREVIEW_HEIGHT, border: 0 }} />;
  }
  return <img src={url} alt={`Preview of ${title}`} style={{ width: '100%', height: PREVIEW_HEIGHT, objectFit: 'contain' }} />;
}

function EditForm({ doc }: { doc: DocumentDetail }) {
  const update = useUpdateDocument();
  const licenses = useOwnerLicenses(doc.owner_id, true);
  const [category, setCategory] = useState<DocumentCategory>(doc.category);
  const [licenseId, setLicenseId] = useState<string | null>(doc.license_id ? String(doc.license_id) : null);
  const dirty = category !== doc.category || (licenseId ? Number(licenseId) : null) !== doc.license_id;
  return (
    <Stack gap="sm">
      <Select
        label="Category"
        data={CATEGORY_OPTIONS}
        value={category}
        allowDeselect={false}
        onChange={(v) => v && setCategory(v as DocumentCategory)}
      />
      <Select
        label="License"
        placeholder="No license"
        data={(licenses.data ?? []).map((l) => ({ value: String(l.license_id), label: l.license_number }))}
        value={licenseId}
        onChange={setLicenseId}
        clearable
      />
      <Group>
        <Button
          disabled={!dirty}
          loading={update.isPending}
          onClick={() => update.mutate({ id: doc.document_id, category, license_id: licenseId ? Number(licenseId) : null })}
        >
          Save changes
        </Button>
      </Group>
    </Stack>
  );
}

/** A new document (category, license, owner) or, with documentId, a new version of one. */
function UploadModal({ opened, onClose, documentId }: { opened: boolean; onClose: () => void; documentId?: number }) {
  const { can, user } = useAuth();
  const manager = can('documents.uploadForOthers');
  const upload = useUploadDocument();
  const [file, setFile] = useState<File | null>(null);
  /** Opens the file chooser (the Choose button). */
  const [category, setCategory] = useState<DocumentCategory>('license_copy');
  const [ownerId, setOwnerId] = useState<string | null>(null);
  const [licenseId, setLicenseId] = useState<string | null>(null);
  const [completionId, setCompletionId] = useState<string | null>(null);
  const isVersion = documentId !== undefined;
  const licenses = useOwnerLicenses(ownerId ? Number(ownerId) : (user?.user_id ?? null), opened && !isVersion);
  const certificate = category === 'ce_certificate';
  const completions = useOwnerCompletions(ownerId ? Number(ownerId) : (user?.user_id ?? null), opened && !isVersion && certificate);
  const close = () => {
    if (upload.isPending) return;
    setFile(null);
    setLicenseId(null);
    setCompletionId(null);
    upload.reset();
    onClose();
  };
  const submit = () => {
    if (!file) return;
    upload.mutate(
      isVersion
        ? { file, documentId }
        : {
            file,
            category,
            licenseId: licenseId ? Number(licenseId) : null,
            completionId: certificate && completionId ? Number(completionId) : null,
            ownerId: ownerId ? Number(ownerId) : null,
          },
      { onSuccess: () => close() },
    );
  };
  return (
    <Modal opened={opened} onClose={close} title={isVersion ? DOCUMENT_STRINGS.uploadVersion : DOCUMENT_STRINGS.upload} size="lg">
      <Stack>
        <FileDrop file={file} onFile={setFile} disabled={upload.isPending} />
        {!isVersion && (
          <>
            <Select
              label="Category"
              data={CATEGORY_OPTIONS}
              value={category}
              allowDeselect={false}
              onChange={(v) => v && setCategory(v as DocumentCategory)}
            />
            {manager && (
              <ServerSearchSelect<LicenseHolder>
                label="Owner"
                placeholder="Myself"
                emptyMessage={DOCUMENT_STRINGS.noOwners}
                useResults={useOwnerPicker}
                toOption={ownerOption}
                value={ownerId}
                onChange={(v) => {
                  setOwnerId(v);
                  setLicenseId(null);
                  setCompletionId(null);
                }}
                clearable
              />
            )}
            <Select
              label="License"
              placeholder="No license"
              data={(licenses.data ?? []).map((l) => ({ value: String(l.license_id), label: l.license_number }))}
              value={licenseId}
              onChange={setLicenseId}
              clearable
            />
            {certificate && (
              <Select
                label="Completion"
                placeholder="No completion"
                data={(completions.data ?? []).map((c) => ({
                  value: String(c.completion_id),
                  label: `${c.course_name} (${formatDate(c.completion_date)})`,
                }))}
                value={completionId}
                onChange={setCompletionId}
                clearable
              />
            )}
          </>
        )}
        {(upload.isPending || upload.isSuccess) && (
          <Progress value={upload.progress} aria-label="Upload progress" animated={upload.isPending} />
        )}
        {upload.errorMessage && (
          <Alert color="red" role="alert">
            {upload.errorMessage}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={upload.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={!file} loading={upload.isPending}>
            Upload
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
