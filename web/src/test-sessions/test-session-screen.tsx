import { TestSessionDetail } from './test-session-detail.js';
import { TestSessionList } from './test-session-list.js';
import { TestSessionResult } from './test-session-result.js';
import type { TestSessionRoute } from './test-session-route.js';

/** The test session screen a path names (one lazily loaded chunk for the three). */
export function TestSessionScreen({ route }: { route: TestSessionRoute }) {
  if (route.screen === 'list') return <TestSessionList />;
  if (route.screen === 'result') return <TestSessionResult key={`${route.testSessionId}/${route.resultId}`} testSessionId={route.testSessionId} resultId={route.resultId} />;
  return <TestSessionDetail key={route.testSessionId} id={route.testSessionId} accountId={route.accountId} />;
}
