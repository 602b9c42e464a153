import { PageHeader } from '../../components/page-header.tsx';

export function BrokeragesPage() {
  return <PageHeader title="Brokerage Management" />;
}
