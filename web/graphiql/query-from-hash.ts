/** The operation a `#query=<percent-encoded>` fragment carries, or undefined (none, or not decodable). */
export function queryFromHash(hash: string): string | undefined {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('query');
  return value && value.trim() !== '' ? value : undefined;
}
