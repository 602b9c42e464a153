import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { ErrorBoundary, BOUNDARY_STRINGS } from './error-boundary.tsx';
import { isChunkLoadError } from '../lib/chunk-error.ts';
import { renderUi } from '../test/render.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Thrower({ error }: { error: Error | null }) {
  if (error) throw error;
  return <p>Screen content</p>;
}

function Harness({ initial }: { initial: Error | null }) {
  const [error, setError] = useState(initial);
  return (
    <>
      <button onClick={() => setError(null)}>fix</button>
      <ErrorBoundary>
        <Thrower error={error} />
      </ErrorBoundary>
    </>
  );
}

describe('ErrorBoundary (docs/architecture.md "Client")', () => {
  it('shows a crash message with Try again, which renders the children again once they work', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderUi(<Harness initial={new TypeError("Cannot read properties of null (reading 'total')")} />);
    expect(screen.getByText(BOUNDARY_STRINGS.crashTitle)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: BOUNDARY_STRINGS.dashboard })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('button', { name: BOUNDARY_STRINGS.reload })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'fix' }));
    await userEvent.click(screen.getByRole('button', { name: BOUNDARY_STRINGS.tryAgain }));
    expect(screen.getByText('Screen content')).toBeInTheDocument();
  });

  it('offers a page reload for a failed screen download', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderUi(<Harness initial={new TypeError('Failed to fetch dynamically imported module: http://x/assets/licenses-page-abc.js')} />);
    expect(screen.getByText(BOUNDARY_STRINGS.chunkBody)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: BOUNDARY_STRINGS.reload })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: BOUNDARY_STRINGS.tryAgain })).toBeNull();
  });

  it('clears the error when the reset key (the location) changes, not before', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const tree = (key: string, error: Error | null) => (
      <ErrorBoundary resetKey={key}>
        <Thrower error={error} />
      </ErrorBoundary>
    );
    const { rerender } = renderUi(tree('/licenses', new Error('boom')));
    expect(screen.getByTestId('error-fallback')).toBeInTheDocument();
    rerender(tree('/licenses', null));
    expect(screen.getByTestId('error-fallback')).toBeInTheDocument();
    rerender(tree('/courses', null));
    expect(screen.queryByTestId('error-fallback')).toBeNull();
    expect(screen.getByText('Screen content')).toBeInTheDocument();
  });
});

describe('isChunkLoadError', () => {
  it('recognises each browser wording and nothing else', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: /a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/x.css'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });
});
