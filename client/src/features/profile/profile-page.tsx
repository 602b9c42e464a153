import type { ReactNode } from 'react';
import { Badge, Card, Grid, Group, Stack, Tabs, Text } from '@mantine/core';
import { IconId, IconLock } from '@tabler/icons-react';
import { PROFILE_STRINGS, ROLE_COLORS, roleName, type User } from '@lm/shared';
import { PageHeader } from '../../components/page-header.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { ProfileForm } from './profile-form.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} ta="right" component="div">
        {children}
      </Text>
    </Group>
  );
}

function AccountCard({ user }: { user: User }) {
  const role = roleName(user.role_id);
  return (
    <Card withBorder padding="lg" data-testid="account-information">
      <Text fw={600} mb="md">
        {PROFILE_STRINGS.accountCard}
      </Text>
      <Stack gap="sm">
        <Row label="Role">
          <Badge color={ROLE_COLORS[role]} variant="light">
            {role}
          </Badge>
        </Row>
        {user.brokerage_name && <Row label="Brokerage">{user.brokerage_name}</Row>}
        <Row label="Member Since">{formatDate(user.created_at, PROFILE_STRINGS.notAvailable)}</Row>
        <Row label="Last Login">{formatDateTime(user.last_login, PROFILE_STRINGS.notAvailable)}</Row>
      </Stack>
    </Card>
  );
}

/** Profile (docs/product.md): the user's own details and password, and what the account is. */
export function ProfilePage() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <>
      <PageHeader title={PROFILE_STRINGS.title} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card withBorder padding="lg">
            <Tabs defaultValue="profile" keepMounted={false}>
              <Tabs.List mb="md">
                <Tabs.Tab value="profile" leftSection={<IconId size={16} />}>
                  {PROFILE_STRINGS.infoTab}
                </Tabs.Tab>
                <Tabs.Tab value="password" leftSection={<IconLock size={16} />}>
                  {PROFILE_STRINGS.passwordTab}
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="profile">
                <ProfileForm user={user} />
              </Tabs.Panel>
              <Tabs.Panel value="password">
                <ChangePasswordForm />
              </Tabs.Panel>
            </Tabs>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <AccountCard user={user} />
        </Grid.Col>
      </Grid>
    </>
  );
}
