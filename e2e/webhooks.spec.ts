import { expect as baseExpect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { uid } from './fixtures/data.ts';

// The machines running this suite are shared and busy: give server answers more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

test('Admin adds a webhook endpoint, sees its secret once, queues a test event in the log, disables and deletes it', async ({ page }) => {
  test.slow();
  // A public address (no DNS is asked); the description makes the row this test's own.
  const url = `https://93.184.216.34/lm-e2e-${uid()}`;
  await signIn(page, 'admin', '/settings/integrations');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 2 })).toBeVisible({ timeout: 20_000 });

  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
  await dialog.getByLabel(/^Endpoint URL/).fill('ftp://example.com/x');
  await dialog.getByLabel(/^license\.created/).check();
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByText('The URL must start with http:// or https://')).toBeVisible();
  await dialog.getByLabel(/^Endpoint URL/).fill(url);
  await dialog.getByLabel(/^payment\.recorded/).check();
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();

  const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
  await expect(secretDialog.getByText(/shown only once/)).toBeVisible();
  const secret = (await secretDialog.getByTestId('webhook-secret').innerText()).trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await expect(secretDialog).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: url });
  await expect(row).toContainText('license.created');
  await expect(row).toContainText('payment.recorded');
  await expect(row).toContainText('Enabled');
  await expect(page.getByText(secret)).toHaveCount(0);

  // A test event: queued, then listed in the endpoint's delivery log with its webhook ID.
  await row.getByRole('button', { name: `Actions for ${url}` }).click();
  await page.getByRole('menuitem', { name: 'Send test event' }).click();
  await expect(page.getByText('Test event queued')).toBeVisible();
  await row.getByRole('button', { name: `Actions for ${url}` }).click();
  await page.getByRole('menuitem', { name: 'Deliveries' }).click();
  const drawer = page.getByRole('dialog', { name: `Deliveries to ${url}` });
  await expect(drawer.getByText('webhook.test')).toBeVisible();
  await expect(drawer.getByText(/^msg_[0-9a-f]{32}$/)).toBeVisible();
  await expect(drawer.getByText(/Showing 1 to 1 of 1 deliveries/)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  await row.getByRole('button', { name: `Actions for ${url}` }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  await expect(page.getByText('Webhook endpoint disabled')).toBeVisible();
  await expect(row).toContainText('Disabled');

  await row.getByRole('button', { name: `Actions for ${url}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete webhook endpoint' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Webhook endpoint deleted')).toBeVisible();
  await expect(row).toHaveCount(0);
});
