import { expect as baseExpect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { uid } from './fixtures/data.ts';

// The machines running this suite are shared and busy: give server answers more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

test('Admin creates an API key, sees its secret once, uses it, revokes it, and it is refused', async ({ page, request }) => {
  test.slow();
  const name = `Sync ${uid()}`;
  await signIn(page, 'admin', '/settings/integrations');
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible({ timeout: 20_000 });

  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByLabel(/^Name/).fill(name);
  await dialog.getByRole('checkbox', { name: 'Write' }).check();
  await expect(dialog.getByRole('checkbox', { name: 'Write' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Create key' }).click();

  const secretDialog = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(secretDialog.getByText('Copy this key now. It will not be shown again.')).toBeVisible();
  await expect(secretDialog.getByRole('button', { name: 'Copy key' })).toBeVisible();
  const secret = (await secretDialog.getByTestId('api-key-secret').innerText()).trim();
  expect(secret).toMatch(/^lmk_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/);
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await expect(secretDialog).toBeHidden();

  // The list shows the key by its prefix, never the secret.
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(`${secret.slice(0, 16)}_…`);
  await expect(row).toContainText('Write');
  await expect(page.getByText(secret)).toHaveCount(0);

  // The key works on the REST API with no one signed in.
  const read = await request.get('/api/licenses', { headers: { authorization: `Bearer ${secret}` } });
  expect(read.status()).toBe(200);
  expect(read.headers()['ratelimit-limit']).toBeTruthy();

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('API key revoked')).toBeVisible();
  await expect(row).toContainText('Revoked');

  const refused = await request.get('/api/licenses', { headers: { authorization: `Bearer ${secret}` } });
  expect(refused.status()).toBe(401);
});
