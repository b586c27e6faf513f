/** How one action over many items went: the ids it was done for, and the problems of the others. */
export interface BulkOutcome {
  succeeded: string[];
  failed: { id: string; problems: string[] }[];
}

/**
 * Runs `perform` for every id, at most `concurrency` at once (the API's rate limit and the server's
 * two cores are shared), and collects what each answered: no problems, or the reasons it was not
 * done. A rejected promise counts as a failure with its message; the others still run.
 */
export async function runBulk(ids: readonly string[], perform: (id: string) => Promise<string[]>, concurrency = 4): Promise<BulkOutcome> {
  const outcomes = new Map<string, string[]>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      try {
        outcomes.set(id, await perform(id));
      } catch (err) {
        outcomes.set(id, [err instanceof Error ? err.message : String(err)]);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, ids.length)) }, worker));
  const succeeded: string[] = [];
  const failed: BulkOutcome['failed'] = [];
  for (const id of ids) {
    const problems = outcomes.get(id) ?? [];
    if (problems.length) failed.push({ id, problems });
    else succeeded.push(id);
  }
  return { succeeded, failed };
}
