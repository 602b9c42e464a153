import {
  DEFAULT_THEME,
  createTheme,
  type ActionIconProps,
  type BadgeProps,
  type CloseButtonProps,
  type CSSVariablesResolver,
  type DrawerProps,
  type MantineColorsTuple,
  type MenuProps,
  type ModalProps,
  type SelectProps,
} from '@mantine/core';

/**
 * A component's theme entry as a plain object: `Modal.extend(...)` would import the component itself, and the
 * theme is part of the sign-in page, which must not carry dialogs, menus and selects (docs/performance.md
 * "First page"). The props type keeps the defaults checked.
 */
const themed = <P>(entry: { defaultProps?: Partial<P>; styles?: Record<string, Record<string, string | number>> }) => entry;

/*
 * Colours that pass WCAG 2.1 AA contrast (4.5:1 for text) in light and dark (docs/decisions.md "Accessibility").
 * Mantine's palette shades are kept; the variables that colour text (filled buttons and badges, light badges,
 * coloured and dimmed text, links, errors) are set to the first tone of the colour that reaches the target
 * against the background it is drawn on, found by mixing the shade with black (light) or white (dark).
 */

const TARGET = 4.6; // 4.5 plus a margin for anti-aliasing and rounding.

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [n >> 16, (n >> 8) & 255, n & 255];
}

function hex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

function luminance(color: string): number {
  const w = [0.2126, 0.7152, 0.0722];
  return rgb(color).reduce((sum, v, i) => {
    const c = v / 255;
    return sum + w[i]! * (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  }, 0);
}

/** The WCAG contrast ratio of two #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

function mix(color: string, toward: string, t: number): string {
  const [c, d] = [rgb(color), rgb(toward)];
  return hex([c[0] + (d[0] - c[0]) * t, c[1] + (d[1] - c[1]) * t, c[2] + (d[2] - c[2]) * t]);
}

/** `color` mixed with black (or white) in 2 % steps until it reaches `target`:1 against every background. */
export function readable(color: string, backgrounds: string[], toward: 'black' | 'white', target = TARGET): string {
  const end = toward === 'black' ? '#000000' : '#ffffff';
  for (let t = 0; t <= 1; t += 0.02) {
    const c = mix(color, end, t);
    if (backgrounds.every((bg) => contrast(c, bg) >= target)) return c;
  }
  return end;
}

const colors = DEFAULT_THEME.colors;
const WHITE = '#ffffff';
const dark = colors.dark;
/** The dark scheme's surfaces: body (dark-7), cards/inputs (dark-6), hovered rows (dark-5). */
const DARK_SURFACES = [dark[7], dark[6], dark[5]];

function colorVariables(scheme: 'light' | 'dark'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, shades] of Object.entries(colors) as [string, MantineColorsTuple][]) {
    if (name === 'dark') continue;
    // Filled buttons/badges carry white text: shade 8, darker where white on it is still below 4.5:1.
    out[`--mantine-color-${name}-filled`] = readable(shades[8], [WHITE], 'black');
    out[`--mantine-color-${name}-filled-hover`] = readable(shades[9], [WHITE], 'black');
    if (scheme === 'light') {
      // Light variant: text on shade 1 (shade 2 hovered, e.g. the active sidebar entry under the pointer);
      // coloured text on white, gray-0 and the light tint.
      const text = readable(shades[9], [shades[2], shades[1], shades[0], colors.gray[0], colors.gray[1]], 'black');
      out[`--mantine-color-${name}-light-color`] = text;
      out[`--mantine-color-${name}-text`] = text;
      out[`--mantine-color-${name}-outline`] = text;
    } else {
      // Coloured text on the dark surfaces and on the colour's own dark tints (Mantine's light and light-hover: shade 9
      // darkened by 50 % and 30 %), e.g. a focused Delete or Reject in a row menu (3.89:1 with shade 4).
      const tints = [mix(shades[9], '#000000', 0.5), mix(shades[9], '#000000', 0.3)];
      out[`--mantine-color-${name}-text`] = readable(shades[4], [...DARK_SURFACES, ...tints], 'white');
      out[`--mantine-color-${name}-outline`] = readable(shades[4], [...DARK_SURFACES, ...tints], 'white');
    }
  }
  return out;
}

const LIGHT_SURFACES = [WHITE, colors.gray[0], colors.gray[1]];

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    ...colorVariables('light'),
    '--mantine-color-dimmed': readable(colors.gray[6], LIGHT_SURFACES, 'black'),
    '--mantine-color-anchor': readable(colors.blue[8], LIGHT_SURFACES, 'black'),
    '--mantine-color-error': readable(colors.red[8], LIGHT_SURFACES, 'black'),
    '--mantine-color-success': readable(colors.teal[8], LIGHT_SURFACES, 'black'),
  },
  dark: {
    ...colorVariables('dark'),
    '--mantine-color-dimmed': readable(dark[2], DARK_SURFACES, 'white'),
    '--mantine-color-anchor': readable(colors.blue[4], DARK_SURFACES, 'white'),
    '--mantine-color-error': readable(colors.red[5], DARK_SURFACES, 'white'),
    '--mantine-color-success': readable(colors.teal[5], DARK_SURFACES, 'white'),
  },
});

const TABBABLE = 'input:not([type="hidden"]), select, textarea, button, a[href], [tabindex]:not([tabindex="-1"])';

/** Moves the focus from the newest dialog's header to the first enabled control of its body (unless it is already inside). */
function moveFocusIntoBody() {
  const dialogs = document.querySelectorAll<HTMLElement>('[role="dialog"]');
  const dialog = dialogs[dialogs.length - 1];
  const body = dialog?.querySelector<HTMLElement>('.mantine-Modal-body, .mantine-Drawer-body');
  if (!body || body.contains(document.activeElement)) return;
  const first = Array.from(body.querySelectorAll<HTMLElement>(TABBABLE)).find(
    (el) => !el.hasAttribute('disabled') && el.getAttribute('aria-hidden') !== 'true' && el.getClientRects().length > 0,
  );
  first?.focus();
}

/**
 * A dialog's enter transition ended: the focus moves to the first field of its body. Once now (the dialog is drawn and
 * its focus trap has focused the header), and once more after the next frame: with reduced motion the transition
 * "ends" before the dialog is drawn and before its trap moves the focus (a timer queued when it mounts).
 */
export function focusFirstField() {
  moveFocusIntoBody();
  requestAnimationFrame(() => setTimeout(moveFocusIntoBody));
}

/** Inner attributes of every Modal and Drawer (Mantine's Styles API `attributes`). */
const DIALOG_ATTRIBUTES = { header: { role: 'none' } };

export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  // Under prefers-reduced-motion every Mantine transition (dialogs, drawers, menus, collapses) takes 0 ms.
  respectReducedMotion: true,
  components: {
    // A badge in a narrow table column keeps its whole label instead of "COURSE F…".
    Badge: themed<BadgeProps>({ styles: { root: { minWidth: 'max-content' } } }),
    // Every dialog's close button has a name, and once open the focus moves to the first field of its body
    // (a confirm's Cancel), not to the × in the header (docs/decisions.md "Accessibility").
    // A dialog's header is Mantine's <header>, a second page banner to assistive technology (axe
    // landmark-no-duplicate-banner): it is no landmark (role "none"; the dialog is named by its title).
    Modal: themed<ModalProps>({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' }, onEnterTransitionEnd: focusFirstField, attributes: DIALOG_ATTRIBUTES },
    }),
    Drawer: themed<DrawerProps>({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' }, onEnterTransitionEnd: focusFirstField, attributes: DIALOG_ATTRIBUTES },
    }),
    // Every other close button (notifications, alerts, inputs' clear buttons) has a name too, unless it says its own.
    CloseButton: themed<CloseButtonProps>({ defaultProps: { 'aria-label': 'Close' } as Partial<CloseButtonProps> }),
    // A menu's children are its items only (axe aria-required-children): no focus placeholder before them.
    Menu: themed<MenuProps>({ defaultProps: { withInitialFocusPlaceholder: false } }),
    // A searchable select does not open its list on focus alone (typing, a click or ArrowDown opens it): a dialog
    // that opens on such a field is not covered by its list, and the list (a scroll region reached with the arrows
    // from the input) is not left open with no keyboard stop of its own (axe scrollable-region-focusable).
    Select: themed<SelectProps>({ defaultProps: { openOnFocus: false } }),
    // WCAG 2.5.8: icon buttons are at least 24 px square.
    ActionIcon: themed<ActionIconProps>({ defaultProps: { size: 'md' } }),
  },
});
