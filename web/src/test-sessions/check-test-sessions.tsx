import { useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { Link } from '../shared/link.js';
import { formatRelativeTime } from '../shared/relative-time.js';
import { testSessionPath } from './test-session-route.js';
import { TestSessionStatusBadge } from './test-session-status-badge.js';

const CheckSessionsQuery = graphql(`
  query ConsoleCheckTestSessions($checkId: ID!, $first: Int!) {
    testSessions(first: $first, checkId: $checkId) {
      nodes {
        id testSessionId name runLocation createdAt startedAt
        checkRuns { checkId status resultIds }
      }
    }
  }
`);

/**
 * A check's triggered runs (`checkly trigger`, `checkly checks run`, test sessions of the API): they
 * stay out of its results and status, so they are listed apart, each linking to its session.
 */
export function CheckTestSessions({ checkId, restCheckId }: { checkId: string; restCheckId: string }) {
  const [{ data, error }] = useQuery({ query: CheckSessionsQuery, variables: { checkId, first: 10 }, requestPolicy: 'cache-and-network' });
  return (
    <section className="card" aria-labelledby="check-sessions-title">
      <h2 id="check-sessions-title">Triggered runs</h2>
      <p className="muted">Runs of test sessions: not part of the results, status or alerts above.</p>
      {error && !data ? <ErrorNotice error={error} /> : !data ? <p aria-busy="true">Loading…</p> : data.testSessions.nodes.length === 0 ? <p className="muted">No test session ran this check yet.</p> : (
        <ul className="plain-list" aria-label="Test sessions that ran this check">
          {data.testSessions.nodes.map((s) => {
            const run = s.checkRuns.find((r) => r.checkId === restCheckId);
            // Results are not read here: one REST call each, for every session of the list, would exceed the operation's cost bound.
            const resultId = run?.resultIds.at(-1);
            return (
              <li key={s.id}>
                <span className="pill">test session</span>
                {run && <TestSessionStatusBadge status={run.status} />}{' '}
                {s.runLocation && <span className="muted">{s.runLocation} · </span>}
                <span className="muted">{formatRelativeTime(s.startedAt ?? s.createdAt)} · </span>
                <Link to={testSessionPath(s.testSessionId)}>{s.name}</Link>
                {resultId && <> · <Link to={testSessionPath(s.testSessionId, resultId)} aria-label={`Result in ${s.name}`}>result</Link></>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
