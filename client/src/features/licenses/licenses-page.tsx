import { PageHeader } from '../../components/page-header.tsx';

export function LicensesPage() {
  return <PageHeader title="License Management" />;
}
