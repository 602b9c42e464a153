import { PageHeader } from '../../components/page-header.tsx';

export function NotificationManagementPage() {
  return <PageHeader title="Notification Management" />;
}
