/** Longest path a sign-in goes back to; longer ones fall back to the console's home. */
const MAX_LENGTH = 2000;

/**
 * Where a sign-in may send the browser back to: a path on this server (`/checks?q=api`), never
 * another site. Anything else (absolute URLs, `//host` and `/\host`, which browsers read as other
 * hosts, control characters) answers `/`, so a crafted sign-in link cannot become an open redirect.
 */
export function localReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_LENGTH || !value.startsWith('/')) return '/';
  if (value.startsWith('//') || value.includes('\\') || /[\u0000-\u001f\u007f]/.test(value)) return '/';
  const base = 'http://lookout.invalid';
  let parsed: URL;
  try {
    parsed = new URL(value, base);
  } catch {
    return '/';
  }
  if (parsed.origin !== base) return '/';
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}
