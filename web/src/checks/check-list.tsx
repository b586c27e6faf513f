import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { CertificateBadge } from './certificate-badge.js';
import { CheckBulkActions } from './check-bulk-actions.js';
import { CheckStatusBadge } from './check-status-badge.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { Link } from '../shared/link.js';
import {
  CHECK_STATES, CHECK_TYPES, formatCheckFilter, isFilterEmpty, matchesCheckFilter, parseCheckFilter, toGraphqlCheckFilter,
  type CheckListFilter, type CheckStateName, type CheckTypeName,
} from './check-filter.js';
import { formatRelativeTime } from '../shared/relative-time.js';
import { Sparkline } from './sparkline.js';
import { navigate, useRoute } from '../shared/use-route.js';
import { useLiveRefresh } from '../shared/use-live-refresh.js';
import { UptimeFigures } from './uptime-figures.js';
import { MaintenanceBadge } from '../maintenance/maintenance-badge.js';
import { useAccess } from '../access/use-access.js';

/** Rows per page: a page of checks with their sparklines renders in well under the 1 s budget. */
export const CHECKS_PER_PAGE = 50;

const ChecksQuery = graphql(`
  query ConsoleChecks($first: Int!, $after: String, $filter: CheckFilter) {
    checks(first: $first, after: $after, filter: $filter) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes {
        id checkId name checkType activated muted tags
        maintenance { state windowId windowName startsAt endsAt paused }
        status { checkId health hasFailures isDegraded sslDaysRemaining updatedAt }
        latestResults(count: 10) { id responseTime hasFailures startedAt }
        uptime24h: analyticsSummary(metrics: ["availability"], quickRange: LAST_24_HOURS) { values { metric value } }
        uptime7d: analyticsSummary(metrics: ["availability"], quickRange: LAST_7_DAYS) { values { metric value } }
        uptime30d: analyticsSummary(metrics: ["availability"], quickRange: LAST_30_DAYS) { values { metric value } }
      }
    }
  }
`);

/** The account's checks: filters in the URL, one page at a time, statuses and sparklines live. */
export function CheckList() {
  const { search } = useRoute();
  const filter = useMemo(() => parseCheckFilter(search), [search]);
  // What the text box shows answers each key at once; the URL (and the server query) follows shortly.
  const [text, setText] = useState(filter.text ?? '');
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1] ?? null;
  useEffect(() => setCursors([null]), [search]);
  useEffect(() => {
    if ((filter.text ?? '') === text.trim()) return;
    const timer = setTimeout(() => setFilter({ ...filter, text }), 250);
    return () => clearTimeout(timer);
  }, [text, filter]);

  const variables = useMemo(() => ({ first: CHECKS_PER_PAGE, after, filter: toGraphqlCheckFilter(filter) }), [after, filter]);
  const [{ data, error, fetching }, reexecute] = useQuery({ query: ChecksQuery, variables });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  useLiveRefresh(refresh, 2000);

  const typed = { ...filter, text };
  const rows = (data?.checks.nodes ?? []).filter((check) => matchesCheckFilter({ ...check, health: check.status?.health }, typed));
  const ids = { text: useId(), tag: useId(), type: useId(), state: useId() };
  // Selected checks (global ids) among the rows shown: a selection never acts on a row out of sight.
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  // Selecting serves only the bulk actions, all of them changes: roles below Read & Write see neither.
  const canWrite = useAccess().can('write');
  const selected = rows.filter((check) => picked.has(check.id)).map((check) => check.id);
  const toggle = (id: string, on: boolean) => setPicked((prev) => { const next = new Set(prev); if (on) next.add(id); else next.delete(id); return next; });

  return (
    <section aria-labelledby="checks-title">
      <div className="heading-row">
        <h1 id="checks-title">Checks</h1>
        {canWrite && <Link to="/checks/new" className="button button--primary">New check</Link>}
      </div>
      <form className="filters" role="search" aria-label="Filter checks" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={ids.text}>Name contains</label>
          <input id={ids.text} type="search" name="q" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.tag}>Tag</label>
          <input id={ids.tag} name="tag" defaultValue={filter.tag ?? ''} key={filter.tag ?? ''}
            onKeyDown={(e) => { if (e.key === 'Enter') setFilter({ ...filter, tag: e.currentTarget.value }); }}
            onBlur={(e) => { if (e.currentTarget.value.trim() !== (filter.tag ?? '')) setFilter({ ...filter, tag: e.currentTarget.value }); }} />
        </div>
        <div className="field">
          <label htmlFor={ids.type}>Type</label>
          <select id={ids.type} name="type" value={filter.type ?? ''} onChange={(e) => setFilter({ ...filter, type: (e.target.value || undefined) as CheckTypeName | undefined })}>
            <option value="">Any type</option>
            {CHECK_TYPES.map((type) => <option key={type} value={type}>{type}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.state}>State</label>
          <select id={ids.state} name="state" value={filter.state ?? ''} onChange={(e) => setFilter({ ...filter, state: (e.target.value || undefined) as CheckStateName | undefined })}>
            <option value="">Any state</option>
            {CHECK_STATES.map((state) => <option key={state} value={state}>{state.charAt(0) + state.slice(1).toLowerCase()}</option>)}
          </select>
        </div>
        {!isFilterEmpty(typed) && <button type="button" className="button" onClick={() => { setText(''); setFilter({}); }}>Clear filters</button>}
      </form>
      {error && <ErrorNotice error={error} />}
      {!data ? <p aria-busy="true">Loading checks…</p> : (
        <>
          <p className="muted" aria-live="polite">{summary(data.checks.totalCount ?? rows.length, rows.length, fetching)}</p>
          {canWrite && <CheckBulkActions selected={selected} nameOf={(id) => rows.find((c) => c.id === id)?.name ?? id} onClear={() => setPicked(new Set())}
            onDone={(_action, done) => { setPicked((prev) => new Set([...prev].filter((id) => !done.includes(id)))); refresh(); }} />}
          <table className="checks-table">
            <thead>
              <tr>{canWrite && <th scope="col"><input type="checkbox" aria-label="Select all checks on this page" checked={rows.length > 0 && selected.length === rows.length}
                onChange={(e) => setPicked(e.target.checked ? new Set(rows.map((c) => c.id)) : new Set())} /></th>}<th scope="col">Status</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Tags</th><th scope="col">Response times</th><th scope="col">Uptime 24 h · 7 d · 30 d</th><th scope="col">Last change</th></tr>
            </thead>
            <tbody>
              {rows.map((check) => (
                <tr key={check.id} data-check-id={check.checkId} data-health={check.status?.health ?? 'NONE'}>
                  {canWrite && <td><input type="checkbox" aria-label={`Select ${check.name}`} checked={picked.has(check.id)} onChange={(e) => toggle(check.id, e.target.checked)} /></td>}
                  <td><CheckStatusBadge health={check.status?.health} /></td>
                  <td>
                    <Link to={`/checks/${encodeURIComponent(check.id)}`}>{check.name}</Link>
                    {!check.activated && <span className="pill">deactivated</span>}
                    {check.muted && <span className="pill">muted</span>}
                    <CertificateBadge daysRemaining={check.status?.sslDaysRemaining} />
                    <MaintenanceBadge maintenance={check.maintenance} compact />
                  </td>
                  <td>{check.checkType}</td>
                  <td>{check.tags.map((tag) => <button key={tag} type="button" className="pill pill--button" aria-label={`Filter by tag ${tag}`} onClick={() => setFilter({ ...filter, tag })}>{tag}</button>)}</td>
                  <td><Sparkline label={`Response times of ${check.name}`} values={check.latestResults.map((r) => r.responseTime).reverse()} /></td>
                  <td><UptimeFigures compact summaries={check} /></td>
                  <td>{formatRelativeTime(check.status?.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 && <p>No check matches these filters.</p>}
          <nav className="pager" aria-label="Pages of checks">
            <button type="button" className="button" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>Previous page</button>
            <span className="muted">Page {cursors.length}</span>
            <button type="button" className="button" disabled={!data.checks.pageInfo.hasNextPage}
              onClick={() => setCursors([...cursors, data.checks.pageInfo.endCursor ?? null])}>Next page</button>
          </nav>
        </>
      )}
    </section>
  );
}

/** Puts a filter in the address (replacing the entry: typing is not history). */
function setFilter(filter: CheckListFilter) {
  const query = formatCheckFilter(filter);
  navigate(query ? `/checks?${query}` : '/checks', { replace: true });
}

function summary(total: number, shown: number, fetching: boolean): string {
  const base = `${total} ${total === 1 ? 'check' : 'checks'}${shown < total ? `, ${shown} on this page` : ''}`;
  return fetching ? `${base} (updating…)` : base;
}
