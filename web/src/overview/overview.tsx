import { useCallback } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { CheckStatusBadge } from '../checks/check-status-badge.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { Link } from '../shared/link.js';
import { formatRelativeTime } from '../shared/relative-time.js';
import { useLiveRefresh } from '../shared/use-live-refresh.js';

const OverviewQuery = graphql(`
  query ConsoleOverview {
    viewer { id name }
    accountOverview {
      totalChecks activatedChecks passingChecks failingChecks degradedChecks checksWithoutStatus
      failing(first: 20) { nodes { id name checkType status { checkId health updatedAt } } }
      degraded(first: 20) { nodes { id name checkType status { checkId health updatedAt } } }
    }
  }
`);

/** Counts of the account's checks by state and the failing and degraded ones, live. */
export function Overview() {
  const [{ data, error, fetching }, reexecute] = useQuery({ query: OverviewQuery });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  useLiveRefresh(refresh);
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy={fetching}>Loading the overview…</p>;
  const o = data.accountOverview;
  const counts: [string, number, string, string][] = [
    ['Checks', o.totalChecks, '', '/checks'],
    ['Passing', o.passingChecks, 'passing', '/checks?state=PASSING'],
    ['Degraded', o.degradedChecks, 'degraded', '/checks?state=DEGRADED'],
    ['Failing', o.failingChecks, 'failing', '/checks?state=FAILING'],
    ['Not run yet', o.checksWithoutStatus, 'unknown', '/checks'],
    ['Activated', o.activatedChecks, '', '/checks'],
  ];
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">{data.viewer.name}</h1>
      <ul className="tiles" aria-label="Checks by state">
        {counts.map(([label, count, tone, to]) => (
          <li key={label} className={`tile ${tone ? `tone-${tone}` : ''}`} data-count={label}>
            <Link to={to}><span className="tile__count">{count}</span> <span className="tile__label">{label}</span></Link>
          </li>
        ))}
      </ul>
      <CheckGroupList title="Failing checks" empty="No check is failing." checks={o.failing.nodes} />
      <CheckGroupList title="Degraded checks" empty="No check is degraded." checks={o.degraded.nodes} />
    </section>
  );
}

function CheckGroupList({ title, empty, checks }: { title: string; empty: string; checks: readonly { id: string; name: string; checkType: string; status?: { health: string; updatedAt?: string | null } | null }[] }) {
  return (
    <section className="card">
      <h2>{title}</h2>
      {checks.length === 0 ? <p className="muted">{empty}</p> : (
        <ul className="plain-list">
          {checks.map((check) => (
            <li key={check.id}>
              <CheckStatusBadge health={check.status?.health} /> <Link to={`/checks/${encodeURIComponent(check.id)}`}>{check.name}</Link>
              <span className="muted"> · {check.checkType} · changed {formatRelativeTime(check.status?.updatedAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
