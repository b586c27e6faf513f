/**
 * REST payloads of run data as the GraphQL layer receives them: results, statuses, error groups,
 * test sessions and analytics (codegen maps the schema's types onto these).
 */

/** An assertion as a run evaluated it. */
export interface RestAssertionOutcome {
  source: string;
  property?: string | null;
  comparison: string;
  target?: string | number | null;
  regex?: string | null;
  actual?: string | null;
  passed?: boolean;
  error?: string;
}

/** One line of a run's job log. */
export interface RestLogLine {
  time: string;
  level?: string;
  source?: string;
  message: string;
}

/** A file kept from a browser or multi-step run; `path` is added by this layer (REST path of the download). */
export interface RestJobAsset {
  name: string;
  type: string;
  contentType?: string;
  size?: number;
  file: string;
  path?: string;
}

/** HTTP timing phases in ms. */
export interface RestTimingPhases {
  dns?: number | null;
  tcp?: number | null;
  tls?: number | null;
  firstByte?: number | null;
  download?: number | null;
  total?: number | null;
  wait?: number | null;
}

/** `apiCheckResult` of an API or URL result. */
export interface RestApiCheckResult {
  assertions?: RestAssertionOutcome[];
  request?: { method?: string; url?: string; data?: string; headers?: Record<string, string>; params?: Record<string, string> } | null;
  response?: {
    status: number;
    statusText?: string;
    body?: string;
    headers?: Record<string, string | string[]>;
    timings?: Record<string, number | null>;
    timingPhases?: RestTimingPhases | null;
    bodySize?: number;
    bodyTruncated?: boolean;
    url?: string;
  } | null;
  requestError?: string | null;
  jobLog?: { setup?: RestLogLine[]; request?: RestLogLine[]; teardown?: RestLogLine[] } | null;
  jobAssets?: RestJobAsset[] | null;
}

/** `browserCheckResult` / `multiStepCheckResult`. */
export interface RestScriptCheckResult {
  type?: string;
  runtimeVersion?: string | null;
  playwrightVersion?: string | null;
  browserVersion?: string | null;
  startedAt?: string | null;
  stoppedAt?: string | null;
  errors?: { code?: string; message?: string; stack?: string }[];
  jobLog?: RestLogLine[];
  jobAssets?: RestJobAsset[];
}

/** A check result (`GET /v1/check-results/{checkId}/{id}`, entries of `/v2/check-results`). */
export interface RestCheckResult {
  id: string;
  name: string;
  checkId: string;
  checkType: string;
  resultType: string;
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  isCancelled: boolean;
  overMaxResponseTime: boolean;
  runLocation: string;
  startedAt: string;
  stoppedAt: string;
  created_at: string;
  responseTime: number;
  apiCheckResult?: RestApiCheckResult | null;
  browserCheckResult?: RestScriptCheckResult | null;
  multiStepCheckResult?: RestScriptCheckResult | null;
  agenticCheckResult?: Record<string, unknown> | null;
  tcpCheckResult?: Record<string, unknown> | null;
  dnsCheckResult?: Record<string, unknown> | null;
  icmpCheckResult?: Record<string, unknown> | null;
  heartbeatCheckResult?: Record<string, unknown> | null;
  checkRunId?: number | string | null;
  attempts: number;
  sequenceId?: string | null;
  errorGroupIds?: string[] | null;
  errors?: { code: string; message: string }[] | null;
  [key: string]: unknown;
}

/** `GET /v1/check-statuses` entries. */
export interface RestCheckStatus {
  name: string;
  checkId: string;
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  longestRun?: number | null;
  shortestRun?: number | null;
  lastRunLocation?: string | null;
  lastCheckRunId?: string | number | null;
  sslDaysRemaining?: number | null;
  created_at: string;
  updated_at?: string | null;
}

/** What check and test session error groups share (service-api.md describes them side by side). */
export interface RestErrorGroupCore {
  id: string;
  errorHash: string;
  rawErrorMessage?: string | null;
  cleanedErrorMessage: string;
  firstSeen: string;
  lastSeen: string;
  archivedUntilNextEvent: boolean;
}

/** A check error group (`/v1/error-groups`). */
export interface RestErrorGroup extends RestErrorGroupCore {
  checkId: string;
  archiveForEver?: boolean;
}

/** A test session error group (`/v1/test-session-error-groups/{id}`). */
export interface RestTestSessionErrorGroup extends RestErrorGroupCore {
  projectId?: string | null;
  environments?: string[] | null;
}

/** One check of a test session. */
export interface RestTestSessionCheckRun {
  checkId: string;
  name: string;
  checkType: string;
  status: string;
  resultIds?: string[];
  sequenceId?: string | null;
}

/** A test session (`/v1/test-sessions/{id}`). */
export interface RestTestSession {
  id: string;
  name: string;
  status: string;
  runLocation?: string | null;
  environment?: string | null;
  checkIds?: string[];
  results?: RestTestSessionCheckRun[];
  errorGroupIds?: string[];
  created_at: string;
  startedAt?: string | null;
  stoppedAt?: string | null;
  updated_at?: string | null;
}

/** One bucket of an analytics series: its bounds and one value per metric name. */
export type RestAnalyticsBucket = { from: string; to: string } & Record<string, unknown>;

/** One series of an analytics report (`runLocation` or `statusCode` set when grouped). */
export interface RestAnalyticsSeries {
  runLocation?: string | null;
  statusCode?: number | null;
  data: RestAnalyticsBucket[];
  /** The metric names asked for, in order (added by this layer: buckets hold them as keys). */
  metrics?: string[];
}

/** `GET /v1/analytics/{type}/{id}`. */
export interface RestAnalyticsReport {
  checkId: string;
  name: string;
  checkType: string;
  from: string;
  to: string;
  series: RestAnalyticsSeries[];
  pagination: { page: number; limit: number };
  metadata: Record<string, { label: string; unit?: string; aggregation?: string }>;
}

/** A metric's value as the GraphQL layer hands it on. */
export interface RestMetricValue {
  metric: string;
  value: number | null;
}
