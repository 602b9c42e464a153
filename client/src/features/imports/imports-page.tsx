/**
 * The import screen (docs/product.md "Imports"): a roster or completions file uploaded, its columns matched, the
 * preview checked and committed, and the history of past imports with Undo. Everything it shows is in the URL
 * (`kind`, the import's `id`, `tab=history`, the preview's page and filter), so a reload or a link comes back to it.
 * Reached from the Import buttons of Users (kind roster) and Courses › Completions (kind completions).
 */
import { Tabs } from '@mantine/core';
import { IconFileImport, IconHistory } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { IMPORT_KINDS, type ImportKind } from '@lm/shared';
import { PageHeader } from '../../components/page-header.tsx';
import { RequireAccess } from '../../components/require-role.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { kindToShow } from './mapping.ts';
import { IMPORT_SCREEN } from './strings.ts';
import { UploadStep } from './upload-step.tsx';
import { ImportDetail } from './import-detail.tsx';
import { HistoryTab } from './history-tab.tsx';

const positiveId = (value: string | null) => (value && /^[1-9]\d*$/.test(value) ? Number(value) : null);

export function ImportsPage() {
  return (
    <RequireAccess action="imports.read" title={IMPORT_SCREEN.title} message={IMPORT_SCREEN.none}>
      <ImportsScreen />
    </RequireAccess>
  );
}

/** The policy action of importing each kind (shared/src/policy.ts). */
const KIND_ACTION = { roster: 'imports.roster', completions: 'imports.completions' } as const;

function ImportsScreen() {
  const { can } = useAuth();
  const allowed: ImportKind[] = IMPORT_KINDS.filter((k) => can(KIND_ACTION[k]));
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'history' ? 'history' : 'new';
  const kind = kindToShow(params.get('kind'), allowed);
  const id = positiveId(params.get('id'));

  /** Another tab, kind or import starts the page's list state (page, size, filter) afresh. */
  const go = (next: { tab?: 'history'; kind?: ImportKind | null; id?: number }) =>
    setParams(
      {
        ...(next.tab ? { tab: next.tab } : {}),
        ...(next.kind ? { kind: next.kind } : {}),
        ...(next.id ? { id: String(next.id) } : {}),
      },
      { replace: next.id === undefined },
    );

  return (
    <>
      <PageHeader title={IMPORT_SCREEN.title} description={kind ? IMPORT_SCREEN.description[kind] : undefined} />
      <Tabs value={tab} onChange={(v) => go({ tab: v === 'history' ? 'history' : undefined, kind })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="new" leftSection={<IconFileImport size={16} />}>
            {IMPORT_SCREEN.newTab}
          </Tabs.Tab>
          <Tabs.Tab value="history" leftSection={<IconHistory size={16} />}>
            {IMPORT_SCREEN.historyTab}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="new">
          {id !== null ? (
            <ImportDetail id={id} onAnother={(k) => go({ kind: k })} onHistory={() => go({ tab: 'history', kind })} />
          ) : (
            kind && (
              <UploadStep
                kind={kind}
                allowed={allowed}
                onKind={(k) => go({ kind: k })}
                onUploaded={(preview) => go({ kind: preview.kind, id: preview.import_id })}
              />
            )
          )}
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <HistoryTab allowed={allowed} onOpen={(item) => go({ kind: item.kind, id: item.import_id })} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
