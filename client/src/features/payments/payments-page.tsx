import { PageHeader } from '../../components/page-header.tsx';

export function PaymentsPage() {
  return <PageHeader title="Payment Management" />;
}
