import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth.ts';
import { SETTINGS_LOCK, uid } from './fixtures/data.ts';

const CREATE_CONFIRM = 'Are you sure you want to create a new backup? This may take a few minutes.';
const DELETE_CONFIRM = 'Are you sure you want to delete this backup? This action cannot be undone.';

// The restore puts back the system settings as the backup found them: not while another test changes them.
test('Admin creates, downloads, uploads, restores and deletes a backup', { lock: SETTINGS_LOCK }, async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'admin', '/backup-restore');
  await expect(page.getByRole('heading', { name: 'Backup & Restore' })).toBeVisible();
  for (const card of ['Total Backups', 'Completed', 'In Progress', 'Total Size']) {
    await expect(page.getByTestId(`stat-${card}`)).toBeVisible();
  }
  await expect(page.getByTestId('stat-Total Size')).toHaveText(/^\d+(\.\d\d)? (Bytes|KB|MB|GB)$/);

  // Create: the confirm question first; cancelling does nothing.
  const description = `E2E backup ${uid()}`;
  await page.getByLabel('Backup description').fill(description);
  await page.getByRole('button', { name: 'Create Backup' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(CREATE_CONFIRM)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('row').filter({ hasText: description })).toHaveCount(0);
  await page.getByRole('button', { name: 'Create Backup' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Backup created successfully!')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: description });
  await expect(row).toBeVisible();
  await expect(row.getByText('by Ada Admin')).toBeVisible();
  await expect(row.getByText('Completed')).toBeVisible();
  await expect(row.getByText('Manual')).toBeVisible();
  await expect(row.getByText(/^\d+(\.\d\d)? (Bytes|KB|MB)$/)).toBeVisible();

  // Download: a zip named backup_{id}.zip.
  const downloading = page.waitForEvent('download');
  await row.getByRole('button', { name: `Download ${description}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^backup_\d+\.zip$/);
  await expect(page.getByText('Backup downloaded successfully!')).toBeVisible();
  const id = download.suggestedFilename().match(/\d+/)![0];
  const file = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(file);

  // Upload it back: listed as a new backup of type Uploaded.
  await page.locator('input[type="file"]').setInputFiles(file);
  await expect(page.getByText('Backup uploaded successfully!')).toBeVisible();
  const uploaded = page.getByRole('row').filter({ hasText: `Uploaded copy of backup #${id} (${description})` });
  await expect(uploaded).toBeVisible();
  await expect(uploaded.getByText('Uploaded', { exact: true })).toBeVisible();

  // Restore: warning, one checkbox per group; only the settings group here (the e2e database is shared).
  await row.getByRole('button', { name: `Restore ${description}` }).click();
  const modal = page.getByRole('dialog', { name: 'Restore Backup' });
  await expect(modal.getByText(/Restoring replaces the current data of the selected groups/)).toBeVisible();
  const groups = ['Users', 'Licenses', 'Courses and completions', 'Payments', 'Documents', 'Brokerages', 'System settings'];
  for (const g of groups) await expect(modal.getByRole('checkbox', { name: g })).toBeChecked();
  for (const g of groups) await modal.getByRole('checkbox', { name: g }).uncheck();
  await expect(modal.getByText('Select at least one kind of data to restore')).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Restore' })).toBeDisabled();
  // Each group says what it holds; one that holds more than its name says asks again (Back returns to the choice).
  await expect(modal.getByText('Contains licenses, renewals, CE rules, CE adjustments')).toBeVisible();
  await modal.getByRole('checkbox', { name: 'Licenses' }).check();
  await modal.getByRole('button', { name: 'Restore' }).click();
  await expect(modal.getByRole('alert').filter({ hasText: 'Also restored' })).toContainText(
    'Restoring Licenses also rolls back CE rules and CE adjustments to this backup. Restore anyway?',
  );
  await modal.getByRole('button', { name: 'Back' }).click();
  await modal.getByRole('checkbox', { name: 'Licenses' }).uncheck();
  await modal.getByRole('checkbox', { name: 'System settings' }).check();
  await modal.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('Backup restored successfully!')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: `Safety backup before restoring backup #${id}` })).toBeVisible();

  // Delete the uploaded copy, after its confirm.
  await uploaded.getByRole('button', { name: /^Delete / }).click();
  await expect(page.getByRole('dialog').getByText(DELETE_CONFIRM)).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Backup deleted successfully!')).toBeVisible();
  await expect(uploaded).toHaveCount(0);
});

test('an upload that is not a backup shows the server error', async ({ page }) => {
  await signIn(page, 'admin', '/backup-restore');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'notes.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip') });
  await expect(page.getByText('This file is not a License Manager backup')).toBeVisible();
});

test('other roles see the access-denied text', async ({ page }) => {
  await signIn(page, 'broker', '/backup-restore');
  await expect(page.getByText('Access denied. Admin privileges required.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create Backup' })).toHaveCount(0);
});
