import type { ReactNode } from 'react';
import { render, type RenderOptions } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';

/**
 * Mantine's test environment (its testing guide): no transitions and no portals, and a menu or popover is never
 * hidden as "detached". Without it a dropdown went `display: none` whenever Floating UI measured jsdom's zero-size
 * layout before the test looked, which made a menu test fail on a busy machine.
 */
function TestProviders({ children }: { children: ReactNode }) {
  return <MantineProvider env="test">{children}</MantineProvider>;
}

/** Testing Library's render inside the app's UI kit; `rerender` keeps the providers. */
export const renderUi = (ui: ReactNode, options?: Omit<RenderOptions, 'wrapper'>) => render(ui, { wrapper: TestProviders, ...options });
