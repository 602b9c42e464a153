import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { CeProgress, ExpiryBadge } from './license-badges.tsx';

afterEach(cleanup);

const wrap = (ui: React.ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

describe('ExpiryBadge', () => {
  it.each([
    ['2026-11-01', 'Expired', 'red'],
    ['2026-11-30', '8 days', 'yellow'],
    ['2027-01-10', '49 days', 'blue'],
    ['2027-06-01', '191 days', 'green'],
  ])('shows %s as %s in %s', (date, label, color) => {
    wrap(<ExpiryBadge expirationDate={date} today="2026-11-22" />);
    const badge = screen.getByTestId('expiry-badge');
    expect(badge).toHaveTextContent(label);
    expect(badge).toHaveAttribute('data-color', color);
  });
});

describe('CeProgress', () => {
  it('shows completed of required hours', () => {
    wrap(<CeProgress completed={4.5} required={12} />);
    expect(screen.getByTestId('ce-progress')).toHaveTextContent('4.5 / 12 hrs');
    expect(screen.getByText('38%')).toBeInTheDocument();
  });
});
