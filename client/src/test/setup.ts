import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// findBy* and waitFor wait as a person waits for what appears (a menu, a dialog): Testing Library's 1 s default was
// once too short for a Mantine menu on the 2-core CI machine busy with the other test files (row-actions.test.tsx).
configure({ asyncUtilTimeout: 10_000 });

// Mantine reads matchMedia; jsdom does not have it.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
(window as unknown as { ResizeObserver: unknown }).ResizeObserver ??= ResizeObserverStub;
