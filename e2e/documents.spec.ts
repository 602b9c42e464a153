import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { apiAs } from './fixtures/api.ts';
import { signIn } from './fixtures/auth.ts';
import { createBrokerage, createUser, uid } from './fixtures/data.ts';
import { holdRequest } from './fixtures/network.ts';

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 200]);
  page.drawText(text, { x: 20, y: 100, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

test.describe.configure({ timeout: 60_000 });

test('an Agent uploads a PDF, previews it, adds a version; an Agent of another brokerage cannot see it', async ({ page, request }) => {
  const name = `license-${uid()}.pdf`;
  await signIn(page, 'agent', '/documents');
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Upload document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload document' });
  // A ".pdf" that is really HTML: the server's message is shown in the modal.
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: 'evil.pdf', mimeType: 'application/pdf', buffer: Buffer.from('<html><body>x</body></html>') });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('evil.pdf is not a real PDF file');
  await dialog.locator('input[type="file"]').setInputFiles({ name, mimeType: 'application/pdf', buffer: await pdf('License copy') });
  await expect(dialog.getByText(name)).toBeVisible();
  // The upload is held until the progress bar has been seen while it is in flight.
  const release = await holdRequest(page, '**/api/documents');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Upload progress' })).toBeAttached();
  release();
  await expect(page.getByText('Document uploaded')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await row.click();
  const drawer = page.getByRole('dialog', { name: 'Document' });
  await expect(drawer.getByTitle(`Preview of ${name}`)).toBeVisible();
  await expect(drawer.getByRole('button', { name: `Download ${name} (version 1)` })).toBeVisible();

  const second = `license-v2-${uid()}.pdf`;
  await drawer.getByRole('button', { name: 'Upload new version' }).click();
  const versionDialog = page.getByRole('dialog', { name: 'Upload new version' });
  await versionDialog
    .locator('input[type="file"]')
    .setInputFiles({ name: second, mimeType: 'application/pdf', buffer: await pdf('Renewed') });
  await versionDialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('New version uploaded')).toBeVisible();
  const versions = drawer.getByRole('table', { name: 'Versions' });
  await expect(versions.getByRole('row')).toHaveCount(3);
  await expect(versions.getByText(name)).toBeVisible();
  await expect(versions.getByText(second)).toBeVisible();

  // An Agent of another brokerage: not in the list, 404 on the document.
  const admin = await apiAs(request, 'admin');
  const elsewhere = await createBrokerage(admin, `Elsewhere Realty ${uid()}`);
  const stranger = await apiAs(request, await createUser(admin, 'Agent', { first_name: 'Stan', brokerage_id: elsewhere.brokerage_id }));
  const { documents } = await stranger.get<{ documents: Array<{ title: string }> }>('/api/documents?limit=500');
  expect(documents.map((d) => d.title)).not.toContain(second);
  const agent = await apiAs(request, 'agent');
  const mine = await agent.get<{ documents: Array<{ document_id: number }> }>(`/api/documents?search=${encodeURIComponent(second)}`);
  const id = mine.documents[0]!.document_id;
  expect((await stranger.raw('get', `/api/documents/${id}`)).status()).toBe(404);
  expect((await stranger.raw('get', `/api/documents/${id}/download`)).status()).toBe(404);
});
