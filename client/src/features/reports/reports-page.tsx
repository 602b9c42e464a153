import { PageHeader } from '../../components/page-header.tsx';

export function ReportsPage() {
  return <PageHeader title="Reports and Analytics" />;
}
