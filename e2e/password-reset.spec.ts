import { expect, test } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { logOut, submitLogin } from './fixtures/auth.ts';
import { createUser, uid } from './fixtures/data.ts';
import { emailsTo, linkPath, waitForEmail } from './fixtures/outbox.ts';

const NEW_PASSWORD = 'Brand-N3w-pass';

test('Forgot password? through to signing in with the new password; the link works once', async ({ page, request }) => {
  test.setTimeout(60_000);
  const rosa = await createUser(await apiAs(request, 'admin'), 'Agent', { first_name: 'Rosa', password: 'Initial-Passw0rd' });
  const email = rosa.email;
  // The welcome e-mail carries a link to choose a password, never the password (its wording is the
  // user_registered template's, which other specs may add; server/test/password-reset.test.ts checks the default).
  const welcome = await waitForEmail(email);
  expect(linkPath(welcome)).toMatch(/^\/reset-password\?token=/);
  expect(welcome.body).not.toContain('Initial-Passw0rd');
  const before = (await emailsTo(email)).length;

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel(/^Email/).fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByTestId('forgot-done')).toHaveText(
    'If an account exists for that address, we have sent it a link to reset the password. The link works once, for 60 minutes.',
  );

  const mail = await waitForEmail(email, /./, before);
  expect(mail.body).toContain('60 minutes');
  const path = linkPath(mail);
  await page.goto(path);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  // The form checks the confirmation; the server checks the policy.
  await page.getByLabel(/^New Password/).fill(NEW_PASSWORD);
  await page.getByLabel(/^Confirm New Password/).fill('Something-else1');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel(/^New Password/).fill('alllowercase1');
  await page.getByLabel(/^Confirm New Password/).fill('alllowercase1');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByTestId('reset-error')).toHaveText('Password must contain uppercase, lowercase and numbers');
  await page.getByLabel(/^New Password/).fill(NEW_PASSWORD);
  await page.getByLabel(/^Confirm New Password/).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password has been changed. Please sign in.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await submitLogin(page, email, NEW_PASSWORD);
  await expect(page.getByText('Welcome back, Rosa!')).toBeVisible();

  // The same link a second time: a clear refusal.
  await logOut(page);
  await page.goto(path);
  await page.getByLabel(/^New Password/).fill('An0ther-password');
  await page.getByLabel(/^Confirm New Password/).fill('An0ther-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByTestId('reset-error')).toHaveText('This password link is invalid, expired or already used. Ask for a new one.');
});

test('an unknown address gets the same confirmation', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByLabel(/^Email/).fill(`nobody-${uid()}@e2e.test`);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByTestId('forgot-done')).toContainText('If an account exists for that address');
});
