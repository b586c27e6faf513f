import type { ResultRow } from './result-row.js';

/**
 * Where a type's detail (ProbeResult.details) appears on a result, for types whose detail has no
 * field in the spec's check result.
 */
const DETAIL_FIELDS: Record<string, string> = {
  TCP: 'tcpCheckResult',
  DNS: 'dnsCheckResult',
  ICMP: 'icmpCheckResult',
  HEARTBEAT: 'heartbeatCheckResult',
  SSL: 'sslCheckResult',
  TRACEROUTE: 'tracerouteCheckResult',
  GRPC: 'grpcCheckResult',
};

/** Top-level fields of a result that only the wide `detail` column can fill. */
export const DETAIL_RESULT_FIELDS = [
  'apiCheckResult', 'browserCheckResult', 'multiStepCheckResult', 'agenticCheckResult', 'errors', 'ranOn', ...Object.values(DETAIL_FIELDS),
];

/**
 * A stored result as the API shows it: the spec's check result, plus `checkType`, `errors`
 * ({code, message} of each error of the run) and, for TCP, DNS, ICMP and heartbeat checks, the
 * executor's detail as `tcpCheckResult`, `dnsCheckResult`, `icmpCheckResult` or
 * `heartbeatCheckResult`. Rows read without `detail` show those fields as null.
 */
export function toResultView(row: ResultRow): Record<string, any> {
  const d = row.detail ?? {};
  const view: Record<string, any> = {
    id: row.id,
    name: row.name,
    checkId: row.check_id,
    checkType: row.check_type,
    resultType: row.result_type,
    hasFailures: row.has_failures,
    hasErrors: row.has_errors,
    isDegraded: row.is_degraded,
    isCancelled: row.is_cancelled,
    overMaxResponseTime: row.over_max_response_time,
    runLocation: row.run_location,
    startedAt: row.started_at.toISOString(),
    stoppedAt: row.stopped_at.toISOString(),
    created_at: row.created_at.toISOString(),
    responseTime: row.response_time,
    apiCheckResult: d.apiCheckResult ?? null,
    browserCheckResult: d.browserCheckResult ?? null,
    multiStepCheckResult: d.multiStepCheckResult ?? null,
    agenticCheckResult: d.agenticCheckResult ?? null,
    checkRunId: row.check_run_id,
    attempts: row.attempts,
    sequenceId: row.sequence_id,
    errorGroupIds: row.error_group_ids,
    errors: d.errors ?? [],
  };
  if (Array.isArray(d.maintenanceWindowIds) && d.maintenanceWindowIds.length > 0) view.maintenanceWindowIds = d.maintenanceWindowIds;
  if (d.ranOn && typeof d.ranOn === 'object') view.ranOn = d.ranOn;
  const detailField = DETAIL_FIELDS[row.check_type];
  if (detailField) view[detailField] = d.details ?? null;
  return view;
}

