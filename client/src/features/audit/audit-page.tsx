import { PageHeader } from '../../components/page-header.tsx';

export function AuditPage() {
  return <PageHeader title="Audit Logs" />;
}
