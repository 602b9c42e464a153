import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { CeHoursBar } from './ce-parts.tsx';
import { renderUi } from '../test/render.tsx';

afterEach(cleanup);

describe('CeHoursBar', () => {
  it('reads "6 of 10 hours" with the hours remaining', () => {
    renderUi(<CeHoursBar completed={6} required={10} remaining={4} complete={false} />);
    expect(screen.getByTestId('ce-hours-label')).toHaveTextContent('6 of 10 hours');
    expect(screen.getByText('4 hours remaining')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'CE hours: 6 of 10 hours' })).toHaveAttribute('aria-valuenow', '60');
  });

  it('says Complete when the cycle is done, and names outstanding topics when only they are missing', () => {
    renderUi(<CeHoursBar completed={10} required={10} remaining={0} complete />);
    expect(screen.getByText('Complete')).toBeInTheDocument();
    cleanup();
    renderUi(<CeHoursBar completed={10} required={10} remaining={0} complete={false} />);
    expect(screen.getByText('Topics outstanding')).toBeInTheDocument();
  });
});
