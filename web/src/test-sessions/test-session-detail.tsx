import { useCallback, useEffect } from 'react';
import { useQuery, useSubscription } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { formatDuration } from '../shared/format-duration.js';
import { Link } from '../shared/link.js';
import { formatRelativeTime } from '../shared/relative-time.js';
import { resultErrorMessage } from './result-error-message.js';
import { testSessionPath } from './test-session-route.js';
import { TestSessionStatusBadge } from './test-session-status-badge.js';

const SessionQuery = graphql(`
  query ConsoleTestSession($id: ID!) {
    testSession(id: $id) {
      id testSessionId name status runLocation environment createdAt startedAt stoppedAt link
      checkRuns {
        checkId name checkType status resultIds
        check { id }
        results {
          id resultId responseTime runLocation hasFailures hasErrors isDegraded startedAt
          errors { message }
          assertions { passed source property comparison target actual error }
          apiCheckResult { requestError }
          browserCheckResult { errors { message } }
          multiStepCheckResult { errors { message } }
        }
      }
    }
  }
`);

const SessionUpdates = graphql(`
  subscription ConsoleTestSessionUpdated($id: ID!) {
    testSessionUpdated(testSessionId: $id) { testSessionId status }
  }
`);

/** How often a running session is re-read besides its events (an event may pass before the socket subscribes). */
const RUNNING_REREAD_MS = 5000;

/**
 * One test session (the page the `checkly` CLI's "Open session" link opens): its checks, each one's
 * state, duration, location and error, with links to each result; live while it runs.
 */
export function TestSessionDetail({ id, accountId }: { id: string; accountId: string | null }) {
  const [{ data, error }, reexecute] = useQuery({ query: SessionQuery, variables: { id }, requestPolicy: 'cache-and-network' });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const running = data?.testSession?.status === 'RUNNING';
  useSubscription({ query: SessionUpdates, variables: { id }, pause: data !== undefined && !running }, (_previous, event) => {
    refresh();
    return event;
  });
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(refresh, RUNNING_REREAD_MS);
    return () => clearInterval(timer);
  }, [running, refresh]);

  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading the test session…</p>;
  const session = data.testSession;
  if (!session) {
    return (
      <section>
        <h1>Test session not found</h1>
        <p>No test session of the signed-in account has the id {id}{accountId ? ` (the link names account ${accountId}: sign in with a key of that account to open it)` : ''}. <Link to="/test-sessions">See the recent test sessions</Link>.</p>
      </section>
    );
  }
  const elapsed = session.startedAt ? (session.stoppedAt ? Date.parse(session.stoppedAt) : Date.now()) - Date.parse(session.startedAt) : null;
  return (
    <section aria-labelledby="session-title">
      <p><Link to="/test-sessions">← Test sessions</Link></p>
      <div className="heading-row">
        <h1 id="session-title">{session.name}</h1>
        <TestSessionStatusBadge status={session.status} />
      </div>
      <dl className="settings card">
        <dt>Session id</dt><dd className="mono">{session.testSessionId}</dd>
        <dt>Started</dt><dd>{formatRelativeTime(session.startedAt ?? session.createdAt)}</dd>
        <dt>Duration</dt><dd>{formatDuration(elapsed)}{running ? ' so far' : ''}</dd>
        {session.runLocation && <><dt>Location</dt><dd>{session.runLocation}</dd></>}
        {session.environment && <><dt>Environment</dt><dd>{session.environment}</dd></>}
        <dt>From a terminal</dt><dd className="mono">checkly test-sessions get {session.testSessionId}</dd>
      </dl>
      <section className="card" aria-labelledby="session-checks-title">
        <h2 id="session-checks-title">Checks ({session.checkRuns.length})</h2>
        <table aria-label="Checks of the session">
          <thead><tr><th scope="col">Check</th><th scope="col">Status</th><th scope="col">Duration</th><th scope="col">Location</th><th scope="col">Error</th><th scope="col">Result</th></tr></thead>
          <tbody>
            {session.checkRuns.map((run) => {
              const result = run.results.at(-1);
              const message = result ? resultErrorMessage(result) : null;
              return (
                <tr key={run.checkId} data-check-id={run.checkId}>
                  <th scope="row">{run.check ? <Link to={`/checks/${encodeURIComponent(run.check.id)}`}>{run.name}</Link> : run.name} <span className="muted">{run.checkType}</span></th>
                  <td><TestSessionStatusBadge status={run.status} /></td>
                  <td className="num">{result ? formatDuration(result.responseTime) : '–'}</td>
                  <td>{result?.runLocation ?? session.runLocation ?? '–'}</td>
                  <td className={message ? 'tone-failing' : undefined}>{message ?? ''}</td>
                  <td>{run.results.map((r) => (
                    <Link key={r.resultId} to={testSessionPath(session.testSessionId, r.resultId)} aria-label={`Result of ${run.name} from ${r.runLocation}`}>View result</Link>
                  ))}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
    </section>
  );
}
