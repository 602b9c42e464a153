import { Stack } from '@mantine/core';
import { API_KEY_STRINGS } from '@lm/shared';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiKeysSection } from './api-keys-section.tsx';
import { WebhooksSection } from './webhooks-section.tsx';

/**
 * Settings › Integrations (/settings/integrations; signed-in.tsx wraps it in <RequireAccess action="apiKeys.read">):
 * the API keys, then the webhooks (each section shows what the policy lets the reader see).
 */
export function IntegrationsPage() {
  return (
    <>
      <PageHeader title={API_KEY_STRINGS.pageTitle} description={API_KEY_STRINGS.pageIntro} />
      <Stack gap="lg">
        <ApiKeysSection />
        <WebhooksSection />
      </Stack>
    </>
  );
}
