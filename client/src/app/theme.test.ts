import { DEFAULT_THEME, type MantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrast, cssVariablesResolver, readable } from './theme.ts';

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

  it('dimmed text, links and errors pass on the page in both schemes', () => {
    for (const v of ['dimmed', 'anchor', 'error', 'success']) {
      expect(contrast(light[`--mantine-color-${v}`]!, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(contrast(light[`--mantine-color-${v}`]!, c.gray[1])).toBeGreaterThanOrEqual(4.5);
      expect(contrast(dark[`--mantine-color-${v}`]!, c.dark[7])).toBeGreaterThanOrEqual(4.5);
      expect(contrast(dark[`--mantine-color-${v}`]!, c.dark[5])).toBeGreaterThanOrEqual(4.5);
    }
  });
});
