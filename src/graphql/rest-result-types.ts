/**
 * REST payloads of run data as the GraphQL layer receives them: results, statuses, error groups,
 * test sessions and analytics (codegen maps the schema's types onto these). Each is a component
 * schema of the REST API's OpenAPI document (see rest-types.ts); the few fields this layer adds
 * are said so where they are added.
 */
import type { components } from '../contract/__generated__/openapi.js';

type Schemas = components['schemas'];

/** An assertion as a run evaluated it. */
export type RestAssertionOutcome = Schemas['AssertionOutcome'];

/** One line of a run's job log. */
export type RestLogLine = Schemas['LogLine'];

/** A file kept from a browser or multi-step run; `path` is added by this layer (REST path of the download). */
export type RestJobAsset = Schemas['JobAsset'] & { path?: string };

/** HTTP timing phases in ms. */
export type RestTimingPhases = Schemas['TimingPhases'];

/** `apiCheckResult` of an API or URL result. */
export type RestApiCheckResult = Schemas['ApiCheckResult'];

/** `browserCheckResult` / `multiStepCheckResult`. */
export type RestScriptCheckResult = Schemas['ScriptCheckResult'];

/** A check result (`GET /v1/check-results/{checkId}/{id}`, entries of `/v2/check-results`). */
export type RestCheckResult = Schemas['CheckResult'];

/** `GET /v1/check-statuses` entries. */
export type RestCheckStatus = Schemas['CheckStatus'];

/** A check error group (`/v1/error-groups`). */
export type RestErrorGroup = Schemas['ErrorGroup'];

/** A test session error group (`/v1/test-session-error-groups/{id}`). */
export type RestTestSessionErrorGroup = Schemas['TestSessionErrorGroup'];

/** What check and test session error groups share (service-api.md describes them side by side). */
export type RestErrorGroupCore = Pick<RestErrorGroup, keyof RestErrorGroup & keyof RestTestSessionErrorGroup>;

/** One check of a test session; `testSessionId` is added by its parent so its results are read through the session. */
export type RestTestSessionCheckRun = Schemas['TestSessionCheckRun'] & { testSessionId?: string };

/** One result of a test session (`GET /v1/test-sessions/{id}/results/{resultId}`) and its session's id. */
export interface TestSessionResultParent {
  testSessionId: string;
  result: RestCheckResult;
}

/** A test session (`/v1/test-sessions/{id}`). */
export type RestTestSession = Schemas['TestSession'];

/** One bucket of an analytics series: its bounds and one value per metric name (this layer adds the names it holds). */
export type RestAnalyticsBucket = Pick<Schemas['AnalyticsBucket'], 'from' | 'to'> & Record<string, unknown>;

/** One series of an analytics report (`runLocation` or `statusCode` set when grouped). */
export type RestAnalyticsSeries = Schemas['AnalyticsSeries'] & {
  /** The metric names asked for, in order (added by this layer: buckets hold them as keys). */
  metrics?: string[];
};

/** `GET /v1/analytics/{type}/{id}`. */
export type RestAnalyticsReport = Schemas['AnalyticsReport'];

/** A metric's value as the GraphQL layer hands it on (a GraphQL-layer shape, not a REST one). */
export interface RestMetricValue {
  metric: string;
  value: number | null;
}

/** What REST's group trigger answers for each check of the group. */
export interface RestGroupRunCheck {
  checkId: string;
  sequenceId: string | null;
  results: RestCheckResult[];
  error: { code: string; message: string } | null;
}
