/**
 * Zod without its compiled fast path in the browser: the app's Content Security Policy has no 'unsafe-eval'
 * (server/src/app.ts), and Zod otherwise probes `new Function` when it builds the first object schema, which the
 * browser reports as a CSP violation in the console (Lighthouse best practices, docs/performance.md "First page").
 * Imported first by main.tsx, so it runs before any shared schema is built. `config` is Zod's documented switch.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
