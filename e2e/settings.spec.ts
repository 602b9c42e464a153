import { expect, test } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { logOut, signIn } from './fixtures/auth.ts';
import { SETTINGS_LOCK, uid } from './fixtures/data.ts';

const TABS = ['General', 'License', 'Notifications', 'Security', 'File Uploads', 'System'];

test('the settings screen shows every tab and field, and validates with the docs/product.md messages', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'admin', '/settings');
  await expect(page.getByRole('heading', { name: 'System Settings' })).toBeVisible();
  for (const t of TABS) await expect(page.getByRole('tab', { name: t })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reset to Defaults' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Settings' })).toBeVisible();
  await expect(page.getByLabel(/^App Name/)).not.toHaveValue('');
  await expect(page.getByLabel(/^Support Email/)).toBeVisible();
  // How every screen writes dates (docs/decisions.md "One date language").
  await expect(page.getByRole('combobox', { name: /^Date Format/ })).toHaveValue('MM/DD/YYYY (07/30/2026)');

  const fields: Record<string, RegExp[]> = {
    License: [/^Default CE Hours/, /^License Expiry Warning/, /^Auto Renewal/],
    Notifications: [/^Email Notifications/, /^SMS Notifications/, /^Notification Frequency/],
    Security: [/^Minimum Password Length/, /^Session Timeout/, /^Max Login Attempts/, /^Lockout Duration/],
    'File Uploads': [/^Max File Size/, /^Allowed File Types/],
    System: [/^Maintenance Mode/, /^Debug Mode/, /^Log Level/],
  };
  for (const [tab, labels] of Object.entries(fields)) {
    await page.getByRole('tab', { name: tab }).click();
    for (const l of labels) await expect(page.getByLabel(l).first()).toBeVisible();
  }

  // Settings that cannot take effect are not offered: no SMS gateway.
  await page.getByRole('tab', { name: 'Notifications' }).click();
  await expect(page.getByRole('switch', { name: /^SMS Notifications/ })).toBeDisabled();
  await expect(page.getByText('No SMS gateway is configured', { exact: false })).toBeVisible();

  // Security: below the range shows the message; editing clears it.
  await page.getByRole('tab', { name: 'Security' }).click();
  const minLength = page.getByLabel(/^Minimum Password Length/);
  await minLength.fill('5');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('Minimum password length must be at least 6')).toBeVisible();
  await minLength.fill('8');
  await expect(page.getByText('Minimum password length must be at least 6')).toBeHidden();
  await page.getByLabel(/^Max Login Attempts/).fill('11');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('Max login attempts must be at most 10')).toBeVisible();
  await page.getByLabel(/^Max Login Attempts/).fill('5');

  // An error on another tab brings that tab forward.
  await page.getByRole('tab', { name: 'General' }).click();
  await page.getByLabel(/^App Name/).fill('');
  await page.getByLabel(/^Support Email/).fill('not-an-email');
  await page.getByRole('tab', { name: 'File Uploads' }).click();
  await page.getByLabel(/^Max File Size/).fill('0');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('Max file size must be at least 1MB')).toBeVisible();
  await page.getByLabel(/^Max File Size/).fill('10');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('App name is required')).toBeVisible();
  await expect(page.getByText('Invalid email address')).toBeVisible();
  await page.getByLabel(/^Support Email/).fill('');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('Support email is required')).toBeVisible();
  await page.getByRole('tab', { name: 'License' }).click();
  await page.getByLabel(/^Default CE Hours/).fill('-1');
  await page.getByLabel(/^License Expiry Warning/).fill('0');
  await page.getByRole('tab', { name: 'General' }).click();
  await page.getByLabel(/^App Name/).fill('Real Estate License Manager');
  await page.getByLabel(/^Support Email/).fill('support@example.com');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('CE hours cannot be negative')).toBeVisible();
  await expect(page.getByText('Warning days must be at least 1')).toBeVisible();
  await expect(page.getByText('Settings updated successfully!')).toHaveCount(0);
});

test('saving persists, and Reset to Defaults asks first', { lock: SETTINGS_LOCK }, async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'admin', '/settings');
  const phone = `+1 555 ${uid().slice(-4)}`;
  await page.getByLabel(/^Support Phone/).fill(phone);
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('Settings updated successfully!')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(/^Support Phone/)).toHaveValue(phone);

  // Cancel keeps everything.
  await page.getByRole('button', { name: 'Reset to Defaults' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Are you sure you want to reset all settings to their defaults?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByLabel(/^Support Phone/)).toHaveValue(phone);

  await page.getByRole('button', { name: 'Reset to Defaults' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('Settings reset to defaults successfully!')).toBeVisible();
  await expect(page.getByLabel(/^Support Phone/)).toHaveValue('');
  await page.reload();
  await expect(page.getByLabel(/^Support Phone/)).toHaveValue('');
  await expect(page.getByLabel(/^App Name/)).toHaveValue('Real Estate License Manager');
});

test('other roles see the access-denied text', async ({ page }) => {
  await signIn(page, 'agent', '/settings');
  await expect(page.getByText('Access denied. Admin privileges required.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Settings' })).toHaveCount(0);
});

test(
  'App Name is the title of the top bar, the browser tab and the login card; the login shows the support line',
  { lock: SETTINGS_LOCK },
  async ({ page, request }) => {
    test.setTimeout(60_000);
    const name = `Acme Licensing ${uid().slice(-6)}`;
    await signIn(page, 'admin', '/settings');
    await expect(page).toHaveTitle('Settings · Real Estate License Manager');
    await expect(page.getByTestId('app-title')).toHaveText('Real Estate License Manager');
    await page.getByLabel(/^App Name/).fill(name);
    await page.getByLabel(/^Support Phone/).fill('+1 555 0142');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('Settings updated successfully!')).toBeVisible();
    try {
      await expect(page.getByTestId('app-title')).toHaveText(name);
      await expect(page).toHaveTitle(`Settings · ${name}`);
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await expect(page).toHaveTitle(`Dashboard · ${name}`);

      await logOut(page);
      await expect(page.getByTestId('app-name')).toHaveText(name);
      await expect(page).toHaveTitle(`Sign in · ${name}`);
      await expect(page.getByTestId('support-line')).toHaveText('Need help? support@example.com · +1 555 0142');
    } finally {
      // Restore, so the other specs see the defaults.
      await (
        await apiAs(request, 'admin')
      ).put('/api/admin/settings', { settings: { app_name: 'Real Estate License Manager', support_phone: '' } });
    }
  },
);
