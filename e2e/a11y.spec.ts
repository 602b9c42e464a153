import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { apiToken, signIn } from './fixtures/auth.ts';
import { E2E_USERS, type E2eUserKey } from './fixtures/users.ts';
import { NAV } from '../client/src/app/nav.ts';

/**
 * axe-core on every screen as every role, in light and dark, with each kind of modal and menu open
 * (docs/decisions.md "Accessibility"). A serious or critical violation of WCAG 2.1 A/AA fails the test.
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];

test.describe.configure({ timeout: 240_000 });

async function setScheme(page: Page, scheme: Scheme) {
  // The key of the app's colour-scheme manager (client/src/app/providers.tsx).
  await page.addInitScript((s) => window.localStorage.setItem('lm.color-scheme', s), scheme);
}

async function expectNoSeriousViolations(page: Page, where: string) {
  // Let Mantine's transitions (modals, menus) finish before measuring colours.
  await page.waitForTimeout(350);
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) => `${v.impact} ${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')} — ${v.nodes[0]?.failureSummary ?? ''}`,
  );
  expect.soft(summary, `axe on ${where}`).toEqual([]);
}

async function waitForScreen(page: Page) {
  await expect(page.locator('h1')).toHaveCount(1, { timeout: 20_000 });
  // Wait out loaders so the measured screen has its data.
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0, { timeout: 20_000 });
}

for (const scheme of SCHEMES) {
  test(`signed-out screens have no serious violations (${scheme})`, async ({ page }) => {
    await setScheme(page, scheme);
    for (const path of ['/login', '/forgot-password', '/reset-password?token=abc']) {
      await page.goto(path);
      await waitForScreen(page);
      await expectNoSeriousViolations(page, `${path} (${scheme})`);
    }
  });

  for (const who of Object.keys(E2E_USERS) as E2eUserKey[]) {
    test(`${who}: every screen has no serious violations (${scheme})`, async ({ page }) => {
      await setScheme(page, scheme);
      await signIn(page, who);
      const paths = [...NAV.filter((e) => e.roles.includes(E2E_USERS[who].role)).map((e) => e.path), '/profile'];
      for (const path of paths) {
        await page.goto(path);
        await waitForScreen(page);
        await expectNoSeriousViolations(page, `${path} as ${who} (${scheme})`);
      }
      // The user menu open.
      await page.getByTestId('user-menu').click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectNoSeriousViolations(page, `user menu as ${who} (${scheme})`);
    });
  }

  test(`modals, confirm, drawer and row menu have no serious violations (${scheme})`, async ({ page, request }) => {
    const token = await apiToken(request, 'admin');
    const me = await request.get('/api/auth/me', { headers: { authorization: `Bearer ${await apiToken(request, 'agent')}` } });
    const agentId = ((await me.json()) as { user_id: number }).user_id;
    const number = `AX-${scheme}-${Date.now()}`;
    const res = await request.post('/api/licenses', {
      headers: { authorization: `Bearer ${token}` },
      data: { user_id: agentId, license_number: number, state: 'FL', issue_date: '2025-01-01', expiration_date: '2027-01-01' },
    });
    expect(res.status()).toBe(200);

    await setScheme(page, scheme);
    await signIn(page, 'admin');
    await page.goto(`/licenses?search=${number}`);
    await waitForScreen(page);
    const row = page.getByRole('row').filter({ hasText: number });
    await expect(row).toHaveCount(1);

    // A form modal.
    await page.getByRole('button', { name: 'Add License' }).click();
    await expect(page.getByRole('dialog', { name: 'Add New License' })).toBeVisible();
    await expectNoSeriousViolations(page, `Add License modal (${scheme})`);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The row actions menu.
    await row.getByRole('button', { name: `Actions for license ${number}` }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectNoSeriousViolations(page, `row actions menu (${scheme})`);

    // A confirm.
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousViolations(page, `delete confirm (${scheme})`);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The transcript drawer.
    await row.click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.locator('.mantine-Loader-root')).toHaveCount(0, { timeout: 20_000 });
    await expectNoSeriousViolations(page, `transcript drawer (${scheme})`);
  });
}
