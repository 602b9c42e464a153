import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { Compliance } from '@lm/shared';
import { CeProgress, ComplianceCell, ExpiryBadge } from './license-badges.tsx';
import { renderUi } from '../../test/render.tsx';

afterEach(cleanup);

describe('ExpiryBadge', () => {
  it.each([
    ['2026-11-01', -21, 'Expired', 'red'],
    ['2026-11-22', 0, '0 days', 'yellow'],
    ['2026-11-30', 8, '8 days', 'yellow'],
    ['2027-01-10', 49, '49 days', 'blue'],
    ['2027-01-10', 90, '90 days', 'blue'],
    ['2027-06-01', 191, '6 months', 'green'],
    ['2031-04-10', 1588, '4 years 4 months', 'green'],
    ['2028-11-22', 731, '2 years', 'green'],
  ])('shows %s (%i days left, as the server counts) as %s in %s', (date, daysLeft, label, color) => {
    renderUi(<ExpiryBadge expirationDate={date} daysLeft={daysLeft} />);
    const badge = screen.getByTestId('expiry-badge');
    expect(badge).toHaveTextContent(label);
    expect(badge).toHaveAttribute('data-color', color);
  });
});

describe('ComplianceCell', () => {
  const c = (over: Partial<Compliance>): Compliance => ({
    state: 'on_track',
    hours_remaining: 0,
    topics_missing: [],
    days_left: 200,
    ...over,
  });

  it('shows the hours still to take while the license is at risk or on track', () => {
    renderUi(<ComplianceCell compliance={c({ state: 'at_risk', hours_remaining: 43, days_left: 40 })} />);
    expect(screen.getByTestId('compliance-badge')).toHaveTextContent('At risk · 43 h');
    expect(screen.getByTestId('compliance-badge')).toHaveAttribute('data-state', 'at_risk');
  });

  it('shows the label alone once complete or expired, and the topics still missing', () => {
    renderUi(
      <ComplianceCell
        compliance={c({
          state: 'expired',
          hours_remaining: 5,
          days_left: -3,
          topics_missing: [
            { topic: 'Ethics', hours: 3 },
            { topic: 'Agency', hours: 2 },
          ],
        })}
      />,
    );
    expect(screen.getByTestId('compliance-badge')).toHaveTextContent(/^Expired$/);
    expect(screen.getByTestId('topics-missing')).toHaveTextContent('Missing: Ethics 3 h, Agency 2 h');
    cleanup();
    renderUi(<ComplianceCell compliance={c({ state: 'complete' })} />);
    expect(screen.getByTestId('compliance-badge')).toHaveTextContent(/^CE complete$/);
  });
});

describe('CeProgress', () => {
  it('shows completed of required hours', () => {
    renderUi(<CeProgress completed={4.5} required={12} complete={false} />);
    expect(screen.getByTestId('ce-progress')).toHaveTextContent('4.5 / 12 hrs');
    expect(screen.getByText('38%')).toBeInTheDocument();
  });
});
