/**
 * Where the console shows a test session: the path the `checkly` CLI builds its "Open session" link
 * from (`<api url>/accounts/<account>/test-sessions/<id>`), so the link a CLI prints and the one the
 * server hands out land on the same page. With `resultId`, the page of one of its results (the CLI's
 * `…/results/<id>` report links).
 */
export function testSessionConsoleUrl(publicUrl: string, accountId: string, testSessionId: string, resultId?: string): string {
  const base = `${publicUrl.replace(/\/+$/, '')}/accounts/${encodeURIComponent(accountId)}/test-sessions/${encodeURIComponent(testSessionId)}`;
  return resultId ? `${base}/results/${encodeURIComponent(resultId)}` : base;
}
