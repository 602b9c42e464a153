/**
 * Solves a sign-in challenge (docs/security.md "Sign-in"): the server's altcha challenge (base64url JSON) with
 * WebCrypto's PBKDF2. altcha-lib's solver awaits each try and yields to the event loop every 200 ms, so the page stays
 * responsive without a worker. Loaded only when a sign-in is refused, not with the page.
 */
function fromBase64url(value: string): string {
  const b64 = value.replace(/-/g, '+').replace(/_/g, '/');
  return new TextDecoder().decode(Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0)));
}

function toBase64url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The solution to send with the sign-in (`solution`), or null when the browser could not solve it in time. */
export async function solveLoginChallenge(encoded: string): Promise<string | null> {
  const [{ solveChallenge }, { deriveKey }] = await Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/web/pbkdf2')]);
  const challenge = JSON.parse(fromBase64url(encoded)) as Parameters<typeof solveChallenge>[0]['challenge'];
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 60_000 });
  return solution ? toBase64url(JSON.stringify({ challenge, solution })) : null;
}
