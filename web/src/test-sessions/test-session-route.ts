/** Which test session screen a console path names; null when it names none. */
export type TestSessionRoute =
  | { screen: 'list' }
  | { screen: 'session'; testSessionId: string; accountId: string | null }
  | { screen: 'result'; testSessionId: string; resultId: string; accountId: string | null };

const LIST = /^(?:\/accounts\/[^/]+)?\/test-sessions\/?$/;
const SESSION = /^(?:\/accounts\/([^/]+))?\/test-sessions\/([^/]+)(?:\/results\/([^/]+))?\/?$/;

/**
 * Parses the test session paths of the console: `/test-sessions`, and the path the `checkly` CLI
 * prints ("Open session"), `/accounts/<account>/test-sessions/<id>`, with its `/results/<id>` report
 * links; the account part is optional (the console's own links leave it out).
 */
export function testSessionRoute(path: string): TestSessionRoute | null {
  if (LIST.test(path)) return { screen: 'list' };
  const match = SESSION.exec(path);
  if (!match) return null;
  const accountId = match[1] ? decodeURIComponent(match[1]) : null;
  const testSessionId = decodeURIComponent(match[2]!);
  return match[3]
    ? { screen: 'result', testSessionId, resultId: decodeURIComponent(match[3]), accountId }
    : { screen: 'session', testSessionId, accountId };
}

/** The console path of a test session, or of one of its results. */
export function testSessionPath(testSessionId: string, resultId?: string): string {
  const session = `/test-sessions/${encodeURIComponent(testSessionId)}`;
  return resultId ? `${session}/results/${encodeURIComponent(resultId)}` : session;
}
