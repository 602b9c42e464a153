import { PageHeader } from '../../components/page-header.tsx';

export function UsersPage() {
  return <PageHeader title="User Management" />;
}
