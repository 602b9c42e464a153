import type { ReactNode } from 'react';
import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle, usePublicSettings } from '../../lib/public-settings.ts';

/** "Need help? support@… · +1 …" from System Settings; nothing when neither is set. */
export function SupportLine() {
  const { support_email, support_phone } = usePublicSettings();
  const parts = [support_email, support_phone].filter((p) => p.trim());
  if (parts.length === 0) return null;
  return (
    <Text size="sm" c="dimmed" ta="center" data-testid="support-line">
      Need help? {parts.join(' · ')}
    </Text>
  );
}

/** The card of the signed-out screens: the app's name (System Settings), a title and subtitle, the form. */
export function AuthCard({
  title,
  subtitle,
  tabTitle,
  children,
}: {
  title: string;
  subtitle: string;
  tabTitle: string;
  children: ReactNode;
}) {
  const { app_name, app_description } = usePublicSettings();
  useDocumentTitle(tabTitle);
  return (
    <Center component="main" mih="100vh" p="md" bg="var(--mantine-color-body)">
      <Stack w="100%" maw={420} gap="md">
        <Paper withBorder shadow="md" p="xl" radius="md">
          <Stack>
            <Stack gap={4} ta="center">
              <Text fw={700} c="blue" data-testid="app-name">
                {app_name}
              </Text>
              {app_description && (
                <Text size="xs" c="dimmed">
                  {app_description}
                </Text>
              )}
              <Title order={1} size="h2">
                {title}
              </Title>
              <Text c="dimmed" size="sm">
                {subtitle}
              </Text>
            </Stack>
            {children}
          </Stack>
        </Paper>
        <SupportLine />
      </Stack>
    </Center>
  );
}
