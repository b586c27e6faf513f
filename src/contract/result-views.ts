import { CHECK_TYPES } from '../domain/catalog.js';
import { DateTime, NullableDateTime } from './check-views.js';
import { nullable, ref, type JsonSchema } from './response-shape.js';

const NullableNumber = { type: ['number', 'null'] };
/** Header and parameter maps as the run saw them: names are the target's own. */
const HeaderMap = {
  type: 'object',
  additionalProperties: { type: ['string', 'array'], items: { type: 'string' } },
  description: 'Name → value (a list for repeated headers)',
};

/** An assertion as a run evaluated it. */
export const AssertionOutcome = {
  $id: 'AssertionOutcome',
  type: 'object',
  description: 'An assertion as a run evaluated it',
  required: ['source', 'comparison'],
  properties: {
    source: { type: 'string' },
    property: { type: ['string', 'null'] },
    comparison: { type: 'string' },
    target: { type: ['string', 'number', 'null'] },
    regex: { type: ['string', 'null'] },
    actual: { type: ['string', 'null'], description: 'The value the assertion looked at, as text' },
    passed: { type: 'boolean' },
    error: { type: 'string', description: 'Why it failed or could not be evaluated' },
  },
};

/** One line of a run's job log. */
export const LogLine = {
  $id: 'LogLine',
  type: 'object',
  required: ['time', 'message'],
  properties: { time: { type: 'string' }, level: { type: 'string' }, source: { type: 'string' }, message: { type: 'string' } },
};

/** A file kept from a browser or multi-step run (`GET .../assets/{file}` serves it). */
export const JobAsset = {
  $id: 'JobAsset',
  type: 'object',
  required: ['name', 'type', 'file'],
  properties: {
    name: { type: 'string' }, type: { type: 'string' }, contentType: { type: 'string' }, size: { type: 'integer' }, file: { type: 'string' },
    test: { type: 'string', description: 'PLAYWRIGHT: title of the test that attached the file' },
    project: { type: 'string', description: 'PLAYWRIGHT: its Playwright project' },
  },
};

/** HTTP timing phases in ms. */
export const TimingPhases = {
  $id: 'TimingPhases',
  type: 'object',
  properties: {
    dns: NullableNumber, tcp: NullableNumber, tls: NullableNumber, firstByte: NullableNumber,
    download: NullableNumber, total: NullableNumber, wait: NullableNumber,
  },
};

const logList = { type: 'array', items: ref('LogLine') };

/** `apiCheckResult` of API and URL results. */
export const ApiCheckResult = {
  $id: 'ApiCheckResult',
  type: 'object',
  description: 'What an API or URL run sent and received',
  properties: {
    assertions: { type: 'array', items: ref('AssertionOutcome') },
    request: {
      type: ['object', 'null'],
      properties: { method: { type: 'string' }, url: { type: 'string' }, data: { type: ['string', 'null'] }, headers: HeaderMap, params: HeaderMap },
    },
    response: {
      type: ['object', 'null'],
      required: ['status'],
      properties: {
        status: { type: 'integer' },
        statusText: { type: 'string' },
        body: { type: 'string' },
        headers: HeaderMap,
        timings: { type: ['object', 'null'], additionalProperties: NullableNumber, description: 'Moments of the exchange in ms since it started' },
        timingPhases: nullable(ref('TimingPhases')),
        bodySize: { type: 'integer' },
        bodyTruncated: { type: 'boolean' },
        url: { type: 'string' },
      },
    },
    requestError: { type: ['string', 'null'] },
    jobLog: { type: ['object', 'null'], properties: { setup: logList, request: logList, teardown: logList } },
    jobAssets: { type: ['array', 'null'], items: ref('JobAsset') },
    pcapDataUrl: { type: ['string', 'null'] },
  },
};

/** `browserCheckResult` / `multiStepCheckResult`. */
export const ScriptCheckResult = {
  $id: 'ScriptCheckResult',
  type: 'object',
  description: 'What a browser or multi-step run did: versions, errors, log and screenshots',
  properties: {
    type: { type: 'string' },
    runtimeVersion: { type: ['string', 'null'] },
    playwrightVersion: { type: ['string', 'null'] },
    browserVersion: { type: ['string', 'null'] },
    startedAt: { type: ['string', 'null'] },
    stoppedAt: { type: ['string', 'null'] },
    errors: { type: 'array', items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, stack: { type: 'string' } } } },
    jobLog: logList,
    jobAssets: { type: 'array', items: ref('JobAsset') },
    playwrightTestTraces: { type: 'array', items: { type: 'object', additionalProperties: true } },
    playwrightTestVideos: { type: 'array', items: { type: 'object', additionalProperties: true } },
    playwrightTestResults: {
      type: ['object', 'null'],
      description: 'PLAYWRIGHT: per Playwright project (passed, failed, or notRun with the reason) and per test',
      properties: {
        projects: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' }, status: { type: 'string', enum: ['passed', 'failed', 'notRun'] }, reason: { type: ['string', 'null'] },
              notes: { type: 'array', items: { type: 'string' } },
              passed: { type: 'integer' }, failed: { type: 'integer' }, flaky: { type: 'integer' }, skipped: { type: 'integer' },
            },
          },
        },
        tests: { type: 'array', items: { type: 'object', additionalProperties: true } },
      },
    },
  },
};

/** What a type's executor observed, for types without a field of their own in service-api.md. */
const detail = (what: string) => ({ type: ['object', 'null'], additionalProperties: true, description: what });

const RESULT_PROPERTIES: JsonSchema = {
  id: { type: 'string', format: 'uuid' },
  name: { type: 'string' },
  checkId: { type: 'string', format: 'uuid' },
  checkType: { type: 'string', enum: [...CHECK_TYPES] },
  resultType: { type: 'string', enum: ['FINAL', 'ATTEMPT'] },
  hasFailures: { type: 'boolean' },
  hasErrors: { type: 'boolean' },
  isDegraded: { type: 'boolean' },
  isCancelled: { type: 'boolean' },
  overMaxResponseTime: { type: 'boolean' },
  runLocation: { type: 'string' },
  startedAt: DateTime,
  stoppedAt: DateTime,
  created_at: DateTime,
  responseTime: { type: 'number' },
  apiCheckResult: nullable(ref('ApiCheckResult')),
  browserCheckResult: nullable(ref('ScriptCheckResult')),
  multiStepCheckResult: nullable(ref('ScriptCheckResult')),
  agenticCheckResult: detail('AGENTIC: summary, prompt, assertions, steps'),
  tcpCheckResult: detail('TCP: {connected, bytesSent, bytesReceived, response}'),
  dnsCheckResult: detail('DNS: {query, recordType, rcode, answers, authority, nameServer, port, ...}'),
  icmpCheckResult: detail('ICMP: the ping statistics'),
  heartbeatCheckResult: detail('HEARTBEAT: the ping or missed deadline'),
  sslCheckResult: detail('SSL: {hostname, port, resolvedIp, protocol, cipherSuite, daysUntilExpiry, handshakeTimeMs, chainTrusted, hostnameVerified, certificate, chain, findings, securityBaseline}'),
  tracerouteCheckResult: detail('TRACEROUTE: {hostname, resolvedIp, protocol, totalHops, destinationReached, truncationReason, finalHopLatency, packetLoss, hops}'),
  grpcCheckResult: detail('GRPC: {grpcStatusCode, grpcStatusMessage, healthStatus, healthStatusLabel, discoveredMethods, requestError, timingPhases, assertions, response}'),
  checkRunId: { type: ['integer', 'string', 'null'] },
  attempts: { type: 'integer' },
  sequenceId: { type: ['string', 'null'] },
  errorGroupIds: { type: ['array', 'null'], items: { type: 'string' } },
  maintenanceWindowIds: {
    type: 'array', items: { type: 'integer' },
    description: 'Maintenance windows in progress that covered the check when it ran (its alerts were silenced); absent when none did',
  },
  ranOn: {
    type: 'object',
    description: 'Where the run really ran: a runner process of the service ({kind: runner, hostname}) or an agent of the location ({kind: agent, agentId}); absent on results stored before this was recorded',
    required: ['kind'],
    properties: { kind: { type: 'string', enum: ['runner', 'agent'] }, hostname: { type: 'string' }, agentId: { type: 'string', format: 'uuid' } },
  },
  errors: {
    type: ['array', 'null'],
    items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
  },
};

/** A check result (`GET /v1/check-results/{checkId}/{checkResultId}`, entries of the lists). */
export const CheckResult = {
  $id: 'CheckResult',
  type: 'object',
  description: 'One run of a check (FINAL) or one attempt of it (ATTEMPT)',
  required: [
    'id', 'name', 'checkId', 'checkType', 'resultType', 'hasFailures', 'hasErrors', 'isDegraded', 'isCancelled', 'overMaxResponseTime',
    'runLocation', 'startedAt', 'stoppedAt', 'created_at', 'responseTime', 'attempts',
  ],
  properties: RESULT_PROPERTIES,
};

/** An entry of the cursor lists: a check result, or only the fields `fields=` named. */
export const CheckResultEntry = {
  $id: 'CheckResultEntry',
  type: 'object',
  description: 'A check result; with fields=, only the fields named',
  properties: RESULT_PROPERTIES,
};

/** A page of `GET /v2/check-results/{checkId}`. */
export const CheckResultPage = {
  $id: 'CheckResultPage',
  type: 'object',
  required: ['length', 'entries', 'nextId'],
  properties: {
    length: { type: 'integer' },
    entries: { type: 'array', items: ref('CheckResultEntry') },
    nextId: { type: ['string', 'null'], description: 'Pass as nextId for the next page; null on the last page' },
  },
};

/** `GET /v2/check-results?checkIds=`: the latest results of each check, in the order asked. */
export const CheckResultBatch = {
  $id: 'CheckResultBatch',
  type: 'object',
  description: 'The latest results of each check asked for, in the order asked, newest first within a check',
  required: ['length', 'entries'],
  properties: {
    length: { type: 'integer' },
    entries: { type: 'array', items: ref('CheckResultEntry') },
  },
};

/** What running a check now answers: the FINAL results of the run. */
export const CheckRun = {
  $id: 'CheckRun',
  type: 'object',
  required: ['checkId', 'sequenceId', 'results'],
  properties: {
    checkId: { type: 'string', format: 'uuid' },
    sequenceId: { type: ['string', 'null'] },
    results: { type: 'array', items: ref('CheckResult') },
  },
};

/** The latest known state of a check (`/v1/check-statuses`). */
export const CheckStatus = {
  $id: 'CheckStatus',
  type: 'object',
  description: 'The latest known state of a check that has run',
  required: ['name', 'checkId', 'hasFailures', 'hasErrors', 'isDegraded', 'created_at'],
  properties: {
    name: { type: 'string' },
    checkId: { type: 'string', format: 'uuid' },
    hasFailures: { type: 'boolean' },
    hasErrors: { type: 'boolean' },
    isDegraded: { type: 'boolean' },
    longestRun: NullableNumber,
    shortestRun: NullableNumber,
    lastRunLocation: { type: ['string', 'null'] },
    lastCheckRunId: { type: ['integer', 'string', 'null'] },
    sslDaysRemaining: { type: ['integer', 'null'] },
    idle: {
      type: ['object', 'null'],
      description: 'Why the check is not running now (null while it runs as scheduled)',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** Schemas of this file registered as named components, in dependency order. */
export const RESULT_VIEW_SCHEMAS = [
  AssertionOutcome, LogLine, JobAsset, TimingPhases, ApiCheckResult, ScriptCheckResult, CheckResult, CheckResultEntry, CheckResultPage, CheckResultBatch, CheckRun, CheckStatus,
];
