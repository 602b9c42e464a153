import { Title } from '@mantine/core';
import { useAuth } from '../../lib/auth.tsx';

export function DashboardPage() {
  const { user } = useAuth();
  return <Title order={2}>Welcome back, {user?.first_name}!</Title>;
}
