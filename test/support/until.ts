/**
 * Resolves with what `condition` answers once it is truthy, asking again every `everyMs`: for
 * state another process or a background loop writes (a database row, a child's health), where no
 * event says when. Fails naming `what` after `timeoutMs` (a generous bound, not a timing claim).
 */
export async function until<T>(condition: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
