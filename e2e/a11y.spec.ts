import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs } from './fixtures/api.ts';
import { signIn, signInWithForm } from './fixtures/auth.ts';
import { createLicense, myId, uid, uniqueAmount } from './fixtures/data.ts';
import { E2E_USERS, type E2eUserKey } from './fixtures/users.ts';
import { NAV } from '../client/src/app/nav.ts';
import { rows } from './fixtures/ui.ts';

/**
 * axe-core on every screen as every role, in light and dark, with each kind of modal and menu open
 * (docs/decisions.md "Accessibility"). A moderate, serious or critical violation of WCAG 2.1 A/AA or of axe's best
 * practices fails the test.
 *
 * Kept fast for the CI budget: one sign-in per test (the Admin's screens are two tests, run side by side), screens
 * reached through the sidebar (client-side), the colour
 * scheme switched in place with the header's toggle (every rule in one scheme, the colour rule in the other: only
 * colours differ), the header and sidebar measured once per role, and the dialogs and menus of a screen opened once
 * (as the Admin, who sees them all), in whichever scheme the screen ends on (the order alternates, so both are
 * covered).
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
type Scheme = 'light' | 'dark';
/** An open dialog or drawer, and an open menu (Mantine portals them outside <main>). */
const DIALOG = '[role="dialog"]';
const MENU = '[role="menu"]';
/**
 * What a screen shows while its data loads: a loader, or a skeleton in place of the content. Measured once they are
 * gone (the screen as it is used; a skeleton in a drawer on a busy machine otherwise lands in some runs and not others).
 */
const LOADING = '.mantine-Loader-root:visible, .mantine-Skeleton-root[data-visible]:visible';

test.describe.configure({ timeout: 120_000 });

/** Mantine's transitions (modals, menus, drawers) have finished: axe measures colours as they end up. */
async function settled(page: Page) {
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll('[role="dialog"], [role="menu"], .mantine-Modal-overlay, .mantine-Drawer-overlay')).every((el) => {
      const style = getComputedStyle(el);
      return style.opacity === '1' && (style.transform === 'none' || style.transform === 'matrix(1, 0, 0, 1, 0, 0)');
    }),
  );
}

interface Scope {
  /** What to measure (CSS selector); the whole page when absent. */
  within?: string;
  /** Only the colour rule: the page was measured with every rule in the other scheme, and only colours differ. */
  coloursOnly?: boolean;
}

/**
 * axe-core itself, injected once per page load (client-side navigation keeps it) and run in place. (The
 * @axe-core/playwright wrapper injects it again on every call and finishes each run in a new blank page: about
 * 3 times the cost here, with nothing this app needs in return: it has no iframes.)
 */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
type AxeWindow = Window & { axe: { run: (context: unknown, options: RunOptions) => Promise<AxeResults> } };

async function runAxe(page: Page, within: string | undefined, options: RunOptions): Promise<AxeResults> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    ([selector, opts]) => (window as unknown as AxeWindow).axe.run(selector ? { include: [selector] } : document, opts),
    [within, options] as const,
  );
}

async function expectNoViolations(page: Page, where: string, { within, coloursOnly = false }: Scope = {}) {
  await settled(page);
  const t0 = Date.now();
  const results = await runAxe(page, within, {
    // Only violations are collected (passes and incomplete results cost time and are not read).
    resultTypes: ['violations'],
    runOnly: coloursOnly ? { type: 'rule', values: ['color-contrast'] } : { type: 'tag', values: TAGS },
  });
  if (process.env.A11Y_TIMING) console.log(`${where}: ${Date.now() - t0} ms`);
  const bad = results.violations.filter((v) => v.impact === 'moderate' || v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) => `${v.impact} ${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')} — ${v.nodes[0]?.failureSummary ?? ''}`,
  );
  expect.soft(summary, `axe on ${where}`).toEqual([]);
}

async function scheme(page: Page): Promise<Scheme> {
  return (await page.locator('html').getAttribute('data-mantine-color-scheme')) === 'dark' ? 'dark' : 'light';
}

/** Switches the colour scheme in place: the header's toggle when signed in, else the attribute Mantine's CSS reads. */
async function toggleScheme(page: Page) {
  const next: Scheme = (await scheme(page)) === 'dark' ? 'light' : 'dark';
  const toggle = page.getByRole('button', { name: /^Switch to (light|dark) theme$/ });
  if (await toggle.count()) {
    await toggle.click();
    // No tooltip left over the page (axe would measure it half faded).
    await page.mouse.move(0, 0);
    await expect(page.getByRole('tooltip')).toHaveCount(0);
  } else {
    await page.evaluate((s) => document.documentElement.setAttribute('data-mantine-color-scheme', s), next);
  }
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', next);
}

/**
 * Both schemes on the screen as it is: every rule in the current one, then the colours in the other (the scheme
 * stays switched, so the next screen starts in it).
 */
async function checkBothSchemes(page: Page, where: string, within?: string) {
  await expectNoViolations(page, `${where} (${await scheme(page)})`, { within });
  await toggleScheme(page);
  await expectNoViolations(page, `${where} (${await scheme(page)})`, { within, coloursOnly: true });
}

async function waitForScreen(page: Page) {
  await expect(page.locator('h1')).toHaveCount(1, { timeout: 20_000 });
  // Wait out loaders so the measured screen has its data.
  await expect(page.locator(LOADING)).toHaveCount(0, { timeout: 20_000 });
}

async function closeDialog(page: Page) {
  const dialog = page.getByRole('dialog').last();
  const cancel = dialog.getByRole('button', { name: 'Cancel' });
  if (await cancel.count()) await cancel.first().click();
  else await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/** The screen's own dialogs and menus: its "Add …" form, a row's actions menu, the delete confirm, a row's drawer. */
async function checkDialogsAndMenus(page: Page, path: string) {
  const main = page.locator('main');
  const s = await scheme(page);
  if (path !== '/backup-restore') {
    // The page's create button ("Add License", "Record Payment", ...), never a bulk or row action.
    const add = main.locator('button:has(svg.tabler-icon-plus)').first();
    if (await add.count()) {
      await add.click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoViolations(page, `${path}: create dialog (${s})`, { within: DIALOG });
      await closeDialog(page);
    }
  }
  const actions = main.locator('tbody button[aria-label^="Actions for"]').first();
  if (await actions.count()) {
    await actions.click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectNoViolations(page, `${path}: row actions menu (${s})`, { within: MENU });
    const del = page.getByRole('menuitem', { name: 'Delete' });
    if (await del.count()) {
      await del.click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoViolations(page, `${path}: delete confirm (${s})`, { within: DIALOG });
      await closeDialog(page);
    } else {
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toHaveCount(0);
    }
  }
  if (path === '/documents') {
    // The upload dialog (its Dropzone), then a row's drawer (preview, versions, and for a certificate what was read).
    await main.getByRole('button', { name: 'Upload document' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoViolations(page, `${path}: upload dialog (${s})`, { within: DIALOG });
    await closeDialog(page);
    await rows(page).first().locator('td').first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.locator(LOADING)).toHaveCount(0, { timeout: 30_000 });
    await expectNoViolations(page, `${path}: document drawer (${s})`, { within: DIALOG });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
  if (path === '/notifications') {
    // The other two tabs: preferences (a table of switches) and the calendar feed.
    for (const tab of ['Preferences', 'Calendar']) {
      await main.getByRole('tab', { name: tab }).click();
      await expect(page.locator(LOADING)).toHaveCount(0, { timeout: 20_000 });
      await expectNoViolations(page, `${path}: ${tab} tab (${s})`, { within: 'main' });
    }
  }
  if (path === '/licenses') {
    // A row opens the license's CE transcript drawer.
    await rows(page).first().locator('td').first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.locator(LOADING)).toHaveCount(0, { timeout: 20_000 });
    await expectNoViolations(page, `${path}: transcript drawer (${s})`, { within: DIALOG });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
}

/** A CE certificate of the agent's, so the documents list has a row and its drawer shows what was read. */
async function seedCertificate(request: APIRequestContext) {
  await (
    await apiAs(request, 'agent')
  ).post('/api/documents', undefined, {
    status: 201,
    multipart: {
      category: 'ce_certificate',
      file: {
        name: 'certificate.pdf',
        mimeType: 'application/pdf',
        buffer: fs.readFileSync(path.resolve(import.meta.dirname, '../server/test/fixtures/certificates/certificate-typed.pdf')),
      },
    },
  });
}

/** A license of the agent's, so the licenses list has a row (its menu, its delete confirm, its transcript drawer). */
async function seedLicense(request: APIRequestContext) {
  const agentId = await myId(await apiAs(request, 'agent'));
  await createLicense(await apiAs(request, 'admin'), {
    user_id: agentId,
    license_number: `AX-${uid()}`,
    state: 'FL',
    expiration_date: '2027-01-01',
  });
}

/** An unread notification of the agent's (a payment recorded for it), so its notification centre shows an unread card. */
async function seedNotification(request: APIRequestContext) {
  const agentId = await myId(await apiAs(request, 'agent'));
  await (await apiAs(request, 'admin')).post('/api/payments', { user_id: agentId, amount: uniqueAmount(25).amount });
}

test('signed-out screens, light and dark', async ({ page }) => {
  await page.goto('/login');
  await waitForScreen(page);
  await checkBothSchemes(page, '/login');
  await page.getByRole('link', { name: /forgot/i }).click();
  await waitForScreen(page);
  await checkBothSchemes(page, '/forgot-password');
  await page.goto('/reset-password?token=abc');
  await waitForScreen(page);
  await checkBothSchemes(page, '/reset-password');
});

test('the focus goes to the page’s h1 after sign-in and route changes; dialogs honour reduced motion', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // Signed in through the form, then to Licenses through the sidebar: each time the focus is on the page's h1.
  await signInWithForm(page, 'admin');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Licenses', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'License Management' })).toBeFocused({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Add License' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New License' });
  await expect(dialog.getByRole('combobox', { name: /^License Holder/ })).toBeFocused();
  // No transition: the dialog's box takes 0 s to appear.
  expect(await dialog.evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0s');
});

/**
 * A role's screens in sidebar order, in tests of at most this many screens: the Admin's fifteen (with their
 * dialogs and menus) are two tests, which the two workers run side by side (fullyParallel).
 */
const SCREENS_PER_TEST = 8;

for (const who of Object.keys(E2E_USERS) as E2eUserKey[]) {
  const entries = NAV.filter((e) => e.roles.includes(E2E_USERS[who].role));
  const parts = Math.ceil(entries.length / SCREENS_PER_TEST);
  for (let part = 0; part < parts; part++) {
    const screens = entries.slice(part * SCREENS_PER_TEST, (part + 1) * SCREENS_PER_TEST);
    const first = part === 0;
    const last = part === parts - 1;
    const what = parts === 1 ? 'every screen' : `screens ${part * SCREENS_PER_TEST + 1}-${part * SCREENS_PER_TEST + screens.length}`;
    test(`${who}: ${what}, light and dark, with its dialogs and menus open`, async ({ page, request }) => {
      const paths = screens.map((e) => e.path);
      if (who === 'admin') {
        if (paths.includes('/licenses')) await seedLicense(request);
        if (paths.includes('/documents')) await seedCertificate(request);
      }
      if (who === 'agent' && paths.includes('/notifications')) await seedNotification(request);
      // Straight onto the part's first screen; each screen is then reached through the sidebar (client-side).
      await signIn(page, who, screens[0]!.path);
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      for (const [i, entry] of screens.entries()) {
        const link = nav.getByRole('link', { name: entry.label, exact: true });
        await link.click();
        await expect(link).toHaveAttribute('aria-current', 'page');
        await waitForScreen(page);
        // The agent's notification centre is measured with its unread card (a tinted background of its own).
        if (who === 'agent' && entry.path === '/notifications') await expect(page.locator('[data-unread="true"]').first()).toBeVisible();
        // The header and sidebar are the same on every screen: measured whole on the role's first, then the page itself.
        await checkBothSchemes(page, `${entry.path} as ${who}`, first && i === 0 ? undefined : 'main');
        if (who === 'admin') await checkDialogsAndMenus(page, entry.path);
      }
      if (!last) return;
      // Profile, through the user menu (open, it is measured too).
      await page.getByTestId('user-menu').click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectNoViolations(page, `user menu as ${who} (${await scheme(page)})`, { within: MENU });
      await page.getByRole('menuitem', { name: 'Profile' }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await waitForScreen(page);
      await checkBothSchemes(page, `/profile as ${who}`, 'main');
    });
  }
}

/**
 * The import page (docs/product.md "Imports"; not in the sidebar: reached from Users and Courses › Completions): the
 * upload step, a preview with its mapping table, counts and an error row, and the history, in both schemes.
 */
test('the import page: upload, preview with an error row, history; light and dark', async ({ page, request }) => {
  const tag = uid();
  const csv = `First,Last,Email,License #,State,Expires\nIma,A11y${tag},ima.${tag}@e2e.test,A11Y${tag},FL,2028-01-31\nBad,A11y${tag},not-an-email,A11Y${tag}X,FL,2028-01-31\n`;
  const preview = await (
    await apiAs(request, 'admin')
  ).post<{ import_id: number }>('/api/imports', undefined, {
    status: 201,
    multipart: { kind: 'roster', file: { name: `a11y-${tag}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) } },
  });
  await signIn(page, 'admin', '/imports?kind=roster');
  await waitForScreen(page);
  await checkBothSchemes(page, '/imports (upload)', 'main');
  await page.goto(`/imports?kind=roster&id=${preview.import_id}`);
  await waitForScreen(page);
  await expect(page.getByTestId('stat-import-error')).not.toHaveText('0');
  await checkBothSchemes(page, '/imports (preview)', 'main');
  await page.getByRole('tab', { name: 'History' }).click();
  await waitForScreen(page);
  await checkBothSchemes(page, '/imports (history)', 'main');
});
