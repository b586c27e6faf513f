import { useCallback, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { CertificateBadge } from './certificate-badge.js';
import { CheckStatusBadge } from './check-status-badge.js';
import { DeleteActions } from '../shared/delete-actions.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { Link } from '../shared/link.js';
import { navigate, useRoute } from '../shared/use-route.js';
import { formatDuration, percentileLabel } from '../shared/format-duration.js';
import { CHANNEL_TYPE_LABELS, type ChannelType } from '../alert-channels/alert-channel-form.js';
import { isFormCheckType } from './check-form-rules.js';
import { formatRelativeTime } from '../shared/relative-time.js';
import { ResponseTimeChart } from './response-time-chart.js';
import { ResultDetail } from './result-detail.js';
import { UptimeFigures } from './uptime-figures.js';
import { useLiveRefresh } from '../shared/use-live-refresh.js';
import { MaintenanceBadge } from '../maintenance/maintenance-badge.js';
import { CheckManagedMarker } from '../shared/check-managed-marker.js';
import { CheckTestSessions } from '../test-sessions/check-test-sessions.js';
import { useAccess } from '../access/use-access.js';

/** Percentiles the detail charts and summarizes. */
export const PERCENTILE_METRICS = ['responseTime_p50', 'responseTime_p95', 'responseTime_p99'];

const CheckQuery = graphql(`
  query ConsoleCheck($id: ID!) {
    check(id: $id) {
      maintenance { state windowId windowName startsAt endsAt paused }
      id checkId name checkType activated muted tags locations privateLocations frequency frequencyOffset description
      createdAt updatedAt
      group { id name }
      alertChannels { id type }
      ... on ApiCheck { request { method url } degradedResponseTime maxResponseTime }
      ... on UrlCheck { urlRequest: request { url } degradedResponseTime maxResponseTime }
      ... on TcpCheck { tcpRequest: request { hostname port } degradedResponseTime maxResponseTime }
      ... on DnsCheck { dnsRequest: request { query recordType nameServer } degradedResponseTime maxResponseTime }
      ... on IcmpCheck { icmpRequest: request { hostname pingCount } degradedResponseTime maxResponseTime }
      ... on HeartbeatCheck { heartbeat { period periodUnit grace graceUnit pingUrl } }
      status { checkId health hasFailures hasErrors isDegraded longestRun shortestRun lastRunLocation sslDaysRemaining updatedAt idle { code message } }
      analyticsSummary { values { metric value } }
      uptime24h: analyticsSummary(metrics: ["availability"], quickRange: LAST_24_HOURS) { values { metric value } }
      uptime7d: analyticsSummary(metrics: ["availability"], quickRange: LAST_7_DAYS) { values { metric value } }
      uptime30d: analyticsSummary(metrics: ["availability"], quickRange: LAST_30_DAYS) { values { metric value } }
      results(first: 20) { nodes { id startedAt responseTime hasFailures hasErrors isDegraded runLocation resultType } }
      errorGroups(first: 20) { id cleanedErrorMessage firstSeen lastSeen archived }
      alertNotifications(first: 10) { nodes { notificationId alertType channelType status attempt error createdAt } }
    }
  }
`);

const RunCheck = graphql(`
  mutation ConsoleRunCheck($id: ID!) {
    runCheck(id: $id) { sequenceId results { id hasFailures responseTime } userErrors { field code message } }
  }
`);
const MuteCheck = graphql(`mutation ConsoleMuteCheck($id: ID!) { muteCheck(id: $id) { check { id muted } userErrors { field code message } } }`);
const UnmuteCheck = graphql(`mutation ConsoleUnmuteCheck($id: ID!) { unmuteCheck(id: $id) { check { id muted } userErrors { field code message } } }`);
const ActivateCheck = graphql(`mutation ConsoleActivateCheck($id: ID!) { activateCheck(id: $id) { check { id activated } userErrors { field code message } } }`);
const DeactivateCheck = graphql(`mutation ConsoleDeactivateCheck($id: ID!) { deactivateCheck(id: $id) { check { id activated } userErrors { field code message } } }`);
const DeleteCheck = graphql(`mutation ConsoleDeleteCheck($id: ID!) { deleteCheck(id: $id) { deletedId userErrors { field code message } } }`);
const ArchiveErrorGroup = graphql(`
  mutation ConsoleArchiveErrorGroup($id: ID!) { archiveErrorGroup(id: $id) { errorGroup { id archived } userErrors { field code message } } }
`);

/** One check: settings, live status, percentiles, results (one opened), error groups, alerts, actions. */
export function CheckDetail({ id }: { id: string }) {
  const [{ data, error }, reexecute] = useQuery({ query: CheckQuery, variables: { id }, requestPolicy: 'cache-and-network' });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  useLiveRefresh(refresh, 2000);
  const [run, runCheck] = useMutation(RunCheck);
  const [, mute] = useMutation(MuteCheck);
  const [, unmute] = useMutation(UnmuteCheck);
  const [, activate] = useMutation(ActivateCheck);
  const [, deactivate] = useMutation(DeactivateCheck);
  const [, archive] = useMutation(ArchiveErrorGroup);
  const [, remove] = useMutation(DeleteCheck);
  const [message, setMessage] = useState<string | null>(null);
  const [openResult, setOpenResult] = useState<string | null>(null);
  const { search } = useRoute();
  // Run now for Read & Run and up; mute, activate, edit, archive and delete for Read & Write and up.
  const { can } = useAccess();

  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading the check…</p>;
  const check = data.check;
  if (!check) return <section><h1>Check not found</h1><p>No check of this account has the id {id}. <Link to="/checks">Back to the checks</Link>.</p></section>;

  const act = async (label: string, perform: () => Promise<{ error?: { message: string }; data?: unknown }>, errorsOf: (data: any) => { message: string }[] | undefined) => {
    setMessage(`${label}…`);
    const result = await perform();
    const problems = result.error ? [result.error] : errorsOf(result.data) ?? [];
    setMessage(problems.length ? `${label} failed: ${problems.map((p) => p.message).join(' ')}` : `${label}: done.`);
    if (!problems.length) refresh();
  };
  const target = 'request' in check && check.request ? `${check.request.method} ${check.request.url}`
    : 'urlRequest' in check && check.urlRequest ? check.urlRequest.url
      : 'tcpRequest' in check && check.tcpRequest ? `${check.tcpRequest.hostname}:${check.tcpRequest.port}`
        : 'dnsRequest' in check && check.dnsRequest ? `${check.dnsRequest.recordType} ${check.dnsRequest.query}${check.dnsRequest.nameServer ? ` @${check.dnsRequest.nameServer}` : ''}`
          : 'icmpRequest' in check && check.icmpRequest ? `ping ${check.icmpRequest.hostname} ×${check.icmpRequest.pingCount}`
            : 'heartbeat' in check && check.heartbeat ? check.heartbeat.pingUrl ?? null : null;
  const summary = new Map((check.analyticsSummary?.values ?? []).map((v) => [v.metric, v.value]));
  // Alerts link to `/checks/<id>?result=<result id>`: that result opens until another is chosen.
  const linked = new URLSearchParams(search).get('result');
  const selected = openResult ?? (linked ? `${check.checkId}:${linked}` : check.results.nodes[0]?.id ?? null);
  const { maintenance } = check;

  return (
    <section aria-labelledby="check-title">
      <p><Link to="/checks">← Checks</Link></p>
      <div className="heading-row">
        <h1 id="check-title">{check.name}</h1>
        <CheckStatusBadge health={check.status?.health} />
      </div>
      <DeleteActions label="Check actions" noun="check" question={`Delete ${check.name}? Its results and settings are removed for good.`}
        remove={async () => {
          const answer = await remove({ id: check.id });
          const problems = answer.error ? [answer.error.message] : (answer.data?.deleteCheck.userErrors ?? []).map((e) => e.message);
          if (!problems.length) navigate('/checks');
          return problems;
        }}>
        {can('run') && <button type="button" className="button button--primary" disabled={run.fetching}
          onClick={() => act('Run now', () => runCheck({ id: check.id }), (d) => d?.runCheck?.userErrors)}>{run.fetching ? 'Running…' : 'Run now'}</button>}
        {can('write') && <>
        <button type="button" className="button" onClick={() => (check.muted
          ? act('Unmute', () => unmute({ id: check.id }), (d) => d?.unmuteCheck?.userErrors)
          : act('Mute', () => mute({ id: check.id }), (d) => d?.muteCheck?.userErrors))}>{check.muted ? 'Unmute' : 'Mute'}</button>
        <button type="button" className="button" onClick={() => (check.activated
          ? act('Deactivate', () => deactivate({ id: check.id }), (d) => d?.deactivateCheck?.userErrors)
          : act('Activate', () => activate({ id: check.id }), (d) => d?.activateCheck?.userErrors))}>{check.activated ? 'Deactivate' : 'Activate'}</button>
        {isFormCheckType(check.checkType) && <Link to={`/checks/${encodeURIComponent(check.id)}/edit`} className="button">Edit</Link>}
        </>}
      </DeleteActions>
      {maintenance && <p><MaintenanceBadge maintenance={maintenance} /></p>}
      <CheckManagedMarker checkId={check.id} />
      {message && <p role="status" className="muted">{message}</p>}
      {check.status?.idle && <p className="form-error" role="alert">{check.status.idle.message}</p>}

      <div className="grid-2">
        <section className="card" aria-labelledby="settings-title">
          <h2 id="settings-title">Settings</h2>
          <dl className="settings">
            <dt>Type</dt><dd>{check.checkType}</dd>
            {target && <><dt>{'heartbeat' in check ? 'Ping URL' : 'Target'}</dt><dd className="mono">{target}</dd></>}
            {'heartbeat' in check && check.heartbeat && <><dt>Expected</dt><dd>every {check.heartbeat.period} {check.heartbeat.periodUnit}, {check.heartbeat.grace} {check.heartbeat.graceUnit} grace</dd></>}
            <dt>Runs</dt><dd>{check.frequency ? `every ${check.frequency} min` : `every ${check.frequencyOffset ?? 10} s`}{check.activated ? '' : ' (deactivated)'}</dd>
            <dt>Locations</dt><dd>{[...check.locations, ...check.privateLocations].join(', ') || 'none'}</dd>
            <dt>Tags</dt><dd>{check.tags.join(', ') || 'none'}</dd>
            {check.group && <><dt>Group</dt><dd><Link to={`/groups/${encodeURIComponent(check.group.id)}`}>{check.group.name}</Link></dd></>}
            {'degradedResponseTime' in check && <><dt>Degraded after</dt><dd>{formatDuration(check.degradedResponseTime)}</dd></>}
            {'maxResponseTime' in check && <><dt>Fails after</dt><dd>{formatDuration(check.maxResponseTime)}</dd></>}
            <dt>Alert channels</dt>
            <dd>{check.alertChannels.length ? check.alertChannels.map((c) => CHANNEL_TYPE_LABELS[c.type as ChannelType] ?? c.type).join(', ') : 'none'} · <Link to="/alert-channels">Manage</Link></dd>
            <dt>Notifications</dt><dd>{check.muted ? 'muted' : 'on'}</dd>
            {check.status?.sslDaysRemaining != null && <><dt>Certificate</dt><dd><CertificateBadge long daysRemaining={check.status.sslDaysRemaining} /></dd></>}
            {check.description && <><dt>Description</dt><dd>{check.description}</dd></>}
          </dl>
        </section>
        <section className="card" aria-labelledby="percentiles-title">
          <h2 id="percentiles-title">Uptime and response time</h2>
          <UptimeFigures summaries={check} />
          <dl className="figures" aria-label="Response time over the last 24 hours">
            {PERCENTILE_METRICS.map((metric) => <div key={metric}><dt>{percentileLabel(metric)} (24 h)</dt><dd>{formatDuration(summary.get(metric))}</dd></div>)}
          </dl>
          <ResponseTimeChart id={check.id} />
        </section>
      </div>

      <section className="card" aria-labelledby="results-title">
        <h2 id="results-title">Results</h2>
        {check.results.nodes.length === 0 ? <p className="muted">No results yet. Run the check to get one.</p> : (
          <ol className="timeline" aria-label="Latest results, newest first">
            {check.results.nodes.map((result) => (
              <li key={result.id}>
                <button type="button" className={`timeline__item tone-${result.hasFailures ? 'failing' : result.isDegraded ? 'degraded' : 'passing'}`}
                  aria-pressed={selected === result.id} onClick={() => setOpenResult(result.id)}
                  aria-label={`${result.hasFailures ? 'Failed' : result.isDegraded ? 'Degraded' : 'Passed'} run from ${result.runLocation}, ${formatRelativeTime(result.startedAt)}, ${formatDuration(result.responseTime)}`}>
                  <span className="status__dot" aria-hidden="true" /> {formatRelativeTime(result.startedAt)} · {formatDuration(result.responseTime)} · {result.runLocation}
                </button>
              </li>
            ))}
          </ol>
        )}
        {selected && <ResultDetail id={selected} />}
      </section>

      <CheckTestSessions checkId={check.id} restCheckId={check.checkId} />

      <section className="card" aria-labelledby="errors-title">
        <h2 id="errors-title">Error groups</h2>
        {check.errorGroups.length === 0 ? <p className="muted">No errors seen.</p> : (
          <ul className="plain-list">
            {check.errorGroups.map((group) => (
              <li key={group.id}>
                <span className="mono">{group.cleanedErrorMessage}</span>
                <span className="muted"> · last seen {formatRelativeTime(group.lastSeen)}{group.archived ? ' · archived' : ''}</span>
                {!group.archived && can('write') && <button type="button" className="button button--small" aria-label={`Archive error group ${group.cleanedErrorMessage}`}
                  onClick={() => act('Archive', () => archive({ id: group.id }), (d) => d?.archiveErrorGroup?.userErrors)}>Archive</button>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="alerts-title">
        <h2 id="alerts-title">Alert notifications</h2>
        {check.alertNotifications.nodes.length === 0 ? <p className="muted">No alerts sent.</p> : (
          <table>
            <thead><tr><th scope="col">When</th><th scope="col">Alert</th><th scope="col">Channel</th><th scope="col">Delivery</th></tr></thead>
            <tbody>
              {check.alertNotifications.nodes.map((n) => (
                <tr key={n.notificationId}>
                  <td>{formatRelativeTime(n.createdAt)}</td><td>{n.alertType}</td><td>{n.channelType}</td>
                  <td>{n.status}{n.attempt > 1 ? ` (attempt ${n.attempt})` : ''}{n.error ? `: ${n.error}` : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </section>
  );
}
