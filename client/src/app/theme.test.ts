import { DEFAULT_THEME, type MantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrast, cssVariablesResolver, readable, theme } from './theme.ts';

const vars = cssVariablesResolver(DEFAULT_THEME as MantineTheme);
const light = vars.light as Record<string, string>;
const dark = vars.dark as Record<string, string>;
const c = DEFAULT_THEME.colors;
const names = Object.keys(c).filter((n) => n !== 'dark');

describe('theme colours pass WCAG AA contrast (docs/decisions.md "Accessibility")', () => {
  it('computes contrast ratios as WCAG does', () => {
    expect(contrast('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrast('#228be6', '#ffffff')).toBeCloseTo(3.56, 2);
  });

  it('readable() darkens until the target is met, and keeps a colour that already meets it', () => {
    const out = readable('#868e96', ['#ffffff'], 'black');
    expect(contrast(out, '#ffffff')).toBeGreaterThanOrEqual(4.6);
    expect(readable('#000000', ['#ffffff'], 'black')).toBe('#000000');
  });

  it.each(names)('%s: filled with white, light badge on its tint (and hovered tint), coloured text in dark', (n) => {
    expect(contrast(light[`--mantine-color-${n}-filled`]!, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(light[`--mantine-color-${n}-filled-hover`]!, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(light[`--mantine-color-${n}-light-color`]!, c[n]![1])).toBeGreaterThanOrEqual(4.5);
    // Mantine's light-hover is shade 2 (the active sidebar entry under the pointer).
    expect(contrast(light[`--mantine-color-${n}-light-color`]!, c[n]![2])).toBeGreaterThanOrEqual(4.5);
    expect(contrast(light[`--mantine-color-${n}-text`]!, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(dark[`--mantine-color-${n}-text`]!, c.dark[7])).toBeGreaterThanOrEqual(4.5);
  });

  it.each(names)('%s: coloured text in dark passes on its own dark tints (a focused Delete or Reject in a row menu)', (n) => {
    // Mantine's dark light / light-hover: shade 9 darkened by 50 % and 30 % (red was 3.89:1 with shade 4).
    const darken = (hex: string, t: number) =>
      `#${[1, 3, 5]
        .map((i) =>
          Math.round(parseInt(hex.slice(i, i + 2), 16) * (1 - t))
            .toString(16)
            .padStart(2, '0'),
        )
        .join('')}`;
    for (const tint of [darken(c[n]![9], 0.5), darken(c[n]![9], 0.3)]) {
      expect(contrast(dark[`--mantine-color-${n}-text`]!, tint)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('dimmed text, links and errors pass on the page in both schemes', () => {
    for (const v of ['dimmed', 'anchor', 'error', 'success']) {
      expect(contrast(light[`--mantine-color-${v}`]!, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(contrast(light[`--mantine-color-${v}`]!, c.gray[1])).toBeGreaterThanOrEqual(4.5);
      expect(contrast(dark[`--mantine-color-${v}`]!, c.dark[7])).toBeGreaterThanOrEqual(4.5);
      expect(contrast(dark[`--mantine-color-${v}`]!, c.dark[5])).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('theme behaviour (docs/decisions.md "Honest screens and accessibility")', () => {
  it('honours reduced motion and keeps dialog headers from being a second banner', () => {
    expect(theme.respectReducedMotion).toBe(true);
    for (const name of ['Modal', 'Drawer']) {
      expect(theme.components?.[name]?.defaultProps).toMatchObject({ attributes: { header: { role: 'none' } } });
    }
  });
});
