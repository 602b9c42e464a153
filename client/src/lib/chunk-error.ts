/**
 * Whether an error is a failed download of a lazily loaded screen (docs/architecture.md "Client"): the browser's
 * dynamic import rejects (a dropped connection, or a redeploy removed the old hashed file), or Vite's preload of
 * its CSS/JS fails. Each browser words it differently.
 */
const CHUNK_PATTERNS = [
  /Failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /Unable to preload CSS/i, // Vite's preload helper
  /Loading (CSS )?chunk .* failed/i,
];

export function isChunkLoadError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'ChunkLoadError') return true;
  return CHUNK_PATTERNS.some((re) => re.test(err.message));
}
