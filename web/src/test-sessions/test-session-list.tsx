import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { formatDuration } from '../shared/format-duration.js';
import { Link } from '../shared/link.js';
import { formatRelativeTime } from '../shared/relative-time.js';
import { testSessionPath } from './test-session-route.js';
import { TestSessionStatusBadge } from './test-session-status-badge.js';

const SessionsQuery = graphql(`
  query ConsoleTestSessions($first: Int!, $after: String) {
    testSessions(first: $first, after: $after) {
      nodes { id testSessionId name status runLocation environment createdAt startedAt stoppedAt checkRuns { checkId status } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

const PAGE = 25;

/** The account's recent test sessions (`checkly test`, `trigger`, `checks run`, the API), newest first. */
export function TestSessionList() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors.at(-1) ?? null;
  const [{ data, error }] = useQuery({ query: SessionsQuery, variables: { first: PAGE, after }, requestPolicy: 'cache-and-network' });
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading the test sessions…</p>;
  const sessions = data.testSessions.nodes;
  return (
    <section aria-labelledby="sessions-title">
      <h1 id="sessions-title">Test sessions</h1>
      <p className="muted">Checks run on demand: <code>checkly test</code>, <code>checkly trigger</code>, <code>checkly checks run</code> and the API. Their runs stay out of the checks' status and alerts.</p>
      {sessions.length === 0 ? <p className="muted">No test sessions yet. Run <code>npx checkly test</code> in a project to start one.</p> : (
        <table className="card" aria-label="Recent test sessions">
          <thead><tr><th scope="col">Session</th><th scope="col">Status</th><th scope="col">Checks</th><th scope="col">Started</th><th scope="col">Duration</th><th scope="col">Location</th></tr></thead>
          <tbody>
            {sessions.map((s) => {
              const failed = s.checkRuns.filter((r) => r.status === 'FAILED').length;
              const elapsed = s.startedAt && s.stoppedAt ? Date.parse(s.stoppedAt) - Date.parse(s.startedAt) : null;
              return (
                <tr key={s.id}>
                  <th scope="row"><Link to={testSessionPath(s.testSessionId)}>{s.name}</Link>{s.environment && <span className="pill">{s.environment}</span>}</th>
                  <td><TestSessionStatusBadge status={s.status} /></td>
                  <td>{s.checkRuns.length}{failed ? ` (${failed} failed)` : ''}</td>
                  <td>{formatRelativeTime(s.startedAt ?? s.createdAt)}</td>
                  <td>{formatDuration(elapsed)}</td>
                  <td>{s.runLocation ?? '–'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="pager">
        {cursors.length > 1 && <button type="button" className="button" onClick={() => setCursors((c) => c.slice(0, -1))}>Newer</button>}
        {data.testSessions.pageInfo.hasNextPage && <button type="button" className="button" onClick={() => setCursors((c) => [...c, data.testSessions.pageInfo.endCursor ?? null])}>Older</button>}
      </div>
    </section>
  );
}
