import { PageHeader } from '../../components/page-header.tsx';

export function BackupRestorePage() {
  return <PageHeader title="Backup & Restore" />;
}
