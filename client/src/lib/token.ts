/** The stored session token (docs/product.md section 4: a stored token survives reloads). */
const KEY = 'lm.token';

export const tokenStore = {
  get: (): string | null => localStorage.getItem(KEY),
  set: (token: string) => localStorage.setItem(KEY, token),
  clear: () => localStorage.removeItem(KEY),
};
