import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { logOut, signIn, signInWithForm } from './fixtures/auth.ts';
import { createUser, e2eBrokerageId } from './fixtures/data.ts';
import { E2E_BROKERAGE } from './fixtures/users.ts';

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

test('a profile update the server refuses shows the spec failure text', async ({ page, request }) => {
  const petra = await createAgent(request);
  await signIn(page, petra, '/profile');
  await expect(page.getByRole('tab', { name: 'Profile Information' })).toBeVisible({ timeout: 20_000 });
  await page.getByLabel(/^Email/).fill('admin@e2e.test');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByTestId('profile-error')).toHaveText('Failed to update profile. Please try again.');
  await expect(page.getByText('A user with this email already exists')).toBeVisible();
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

  await page.getByLabel(/^Current Password/).fill(petra.password);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Password changed successfully!')).toBeVisible();
  await expect(page.getByLabel(/^Current Password/)).toHaveValue('');

  await logOut(page);
  await signInWithForm(page, { ...petra, password: 'Next-Passw0rd' });
});
