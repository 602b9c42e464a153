import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { logOut, signIn, signInWithForm } from './fixtures/auth.ts';
import { createUser, e2eBrokerageId } from './fixtures/data.ts';
import { E2E_BROKERAGE } from './fixtures/users.ts';
import { waitForEmail } from './fixtures/outbox.ts';

// The machines running this suite are shared and busy: give server answers more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

/** A user of its own for each test: profile and password changes must not disturb the shared e2e accounts. */
async function createAgent(request: APIRequestContext) {
  const admin = await apiAs(request, 'admin');
  return createUser(admin, 'Agent', { first_name: 'Petra', brokerage_id: await e2eBrokerageId(admin) });
}

test('the profile shows both tabs and the account card, and saves the user’s own details', async ({ page, request }) => {
  test.slow();
  const petra = await createAgent(request);
  await signIn(page, petra);
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('tab', { name: 'Profile Information' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('tab', { name: 'Profile Information' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Change Password' })).toBeVisible();
  const card = page.getByTestId('account-information');
  await expect(card.getByText('Account Information')).toBeVisible();
  await expect(card).toContainText('Agent');
  await expect(card).toContainText(E2E_BROKERAGE);
  await expect(card).toContainText('Member Since');
  await expect(card).toContainText('Last Login');
  await expect(card).not.toContainText('N/A');

  await expect(page.getByLabel(/^Email/)).toHaveValue(petra.email);
  await page.getByLabel(/^First Name/).fill('');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await page.getByLabel(/^First Name/).fill('Paloma');
  await expect(page.getByText('First name is required')).toBeHidden();
  await page.getByLabel('Phone').fill('(555) 010-5000');
  await page.getByLabel('City').fill('Orlando');
  await page.getByLabel('State').fill('FL');
  await page.getByLabel('Zip Code').fill('32801');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByText('Profile updated successfully!')).toBeVisible();
  await expect(page.getByTestId('user-menu')).toContainText(`Paloma ${petra.last_name}`);

  await page.reload();
  await expect(page.getByLabel(/^First Name/)).toHaveValue('Paloma');
  await expect(page.getByLabel('City')).toHaveValue('Orlando');
  await expect(page.getByLabel('Zip Code')).toHaveValue('32801');
});

test('a profile update the server refuses shows the spec failure text; a new email needs the password and a confirmation', async ({
  page,
  request,
}) => {
  const petra = await createAgent(request);
  await signIn(page, petra, '/profile');
  await expect(page.getByRole('tab', { name: 'Profile Information' })).toBeVisible({ timeout: 20_000 });
  // A new sign-in email asks for the current password (docs/security.md "Re-authentication and stolen tokens").
  await page.getByLabel(/^Email/).fill('admin@e2e.test');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByText('Enter your current password to change your sign-in email.')).toBeVisible();
  await page.getByLabel(/^Current Password/).fill('Wrong-Passw0rd');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByTestId('profile-error')).toHaveText('Failed to update profile. Please try again.');
  await expect(page.getByText('Current password is incorrect')).toBeVisible();
  // The right password: the change waits for the link sent to the new address, taken or not (same answer).
  await page.getByLabel(/^Current Password/).fill(petra.password);
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByTestId('email-change-pending')).toContainText('We sent a confirmation link to admin@e2e.test');
  await expect(page.getByLabel(/^Email/)).toHaveValue(petra.email);
  await expect(page.getByLabel(/^Current Password/)).toBeHidden();
});

test('change password: mismatch, the server rule text, a wrong current password, then success', async ({ page, request }) => {
  test.slow();
  const petra = await createAgent(request);
  await signIn(page, petra, '/profile');
  await expect(page.getByRole('tab', { name: 'Profile Information' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('tab', { name: 'Change Password' }).click();
  await expect(page.getByText('At least 8 characters, with uppercase, lowercase and numbers.')).toBeVisible();

  await page.getByLabel(/^Current Password/).fill(petra.password);
  await page.getByLabel(/^New Password/).fill('Next-Passw0rd');
  await page.getByLabel(/^Confirm New Password/).fill('Next-Passw0rd-typo');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('New passwords do not match')).toBeVisible();

  await page.getByLabel(/^New Password/).fill('short');
  await page.getByLabel(/^Confirm New Password/).fill('short');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();

  await page.getByLabel(/^New Password/).fill('alllowercase1');
  await page.getByLabel(/^Confirm New Password/).fill('alllowercase1');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByTestId('password-error')).toHaveText('Password must contain uppercase, lowercase and numbers');

  await page.getByLabel(/^Current Password/).fill('Wrong-Passw0rd');
  await page.getByLabel(/^New Password/).fill('Next-Passw0rd');
  await page.getByLabel(/^Confirm New Password/).fill('Next-Passw0rd');
  await expect(page.getByTestId('password-error')).toBeHidden();
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByTestId('password-error')).toHaveText('Current password is incorrect');
  // A wrong current password does not sign the user out.
  await expect(page).toHaveURL(/\/profile$/);

  // Another session with a calendar link: the change signs it out and offers a new link (the old one stops).
  const elsewhere = await apiAs(request, petra);
  const { url: oldFeed } = await elsewhere.post<{ url: string }>('/api/calendar/token');
  await page.getByLabel(/^Current Password/).fill(petra.password);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Password changed successfully!')).toBeVisible();
  await expect(page.getByLabel(/^Current Password/)).toHaveValue('');
  const changed = page.getByTestId('password-changed');
  await expect(changed).toContainText('1 other session was signed out.');
  expect((await elsewhere.raw('get', '/api/auth/me')).status()).toBe(401);
  await changed.getByRole('button', { name: 'Get a new calendar link' }).click();
  await expect(changed.getByLabel('Your new calendar link (shown once)')).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  expect((await request.get(new URL(oldFeed).pathname)).status()).toBe(404);

  await logOut(page);
  await signInWithForm(page, { ...petra, password: 'Next-Passw0rd' });
});

/** The path and query of an e-mail change link (/email-change/confirm?token=… or /email-change/undo?token=…). */
function emailLinkPath(body: string, kind: 'confirm' | 'undo'): string {
  const m = new RegExp(`https?://[^/\\s]+(/email-change/${kind}\\?token=[A-Za-z0-9_%-]+)`).exec(body);
  if (!m) throw new Error(`no ${kind} link in: ${body}`);
  return m[1]!;
}

test('a sign-in email change: confirmed from the new address, undone from the old one', async ({ page, request }) => {
  test.slow();
  const petra = await createAgent(request);
  const newEmail = `moved-${Date.now()}@e2e.test`;
  const asPetra = await apiAs(request, petra);
  await asPetra.put('/api/users/me/profile', {
    first_name: 'Petra',
    last_name: petra.last_name,
    email: newEmail,
    currentPassword: petra.password,
  });

  // Signed out: the links' pages act only on the button.
  const confirm = await waitForEmail(newEmail, /confirm your new sign-in email/);
  await page.goto(emailLinkPath(confirm.body, 'confirm'));
  await expect(page.getByRole('heading', { name: 'Confirm your new email' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm my new email' }).click();
  await expect(page.getByTestId('email-link-done')).toHaveText(`Your sign-in email is now ${newEmail}.`);

  const notice = await waitForEmail(petra.email, /your sign-in email was changed/);
  await page.goto(emailLinkPath(notice.body, 'undo'));
  await page.getByRole('button', { name: 'Undo the change and secure my account' }).click();
  await expect(page.getByTestId('email-link-done')).toContainText(`Your sign-in email is ${petra.email} again.`);
  // Everyone was signed out, and a used link says so.
  expect((await asPetra.raw('get', '/api/auth/me')).status()).toBe(401);
  await page.reload();
  await page.getByRole('button', { name: 'Undo the change and secure my account' }).click();
  await expect(page.getByTestId('email-link-error')).toHaveText('This link is invalid, already used or expired.');
});
