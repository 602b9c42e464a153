/**
 * Work that must not hold up the answer (e-mails sent after a request has answered). Errors are
 * logged, never thrown: the request has already succeeded. Tests and shutdown wait with settled().
 */
const inFlight = new Set<Promise<unknown>>();

export function runInBackground(label: string, work: () => Promise<unknown>): void {
  const p = Promise.resolve()
    .then(work)
    .catch((err: unknown) => console.error(`${label} failed:`, err))
    .finally(() => inFlight.delete(p));
  inFlight.add(p);
}

/** Resolves when every background task started so far (and any they start) has finished. */
export async function backgroundSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}
