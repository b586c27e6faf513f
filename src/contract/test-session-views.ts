import { ref } from './response-shape.js';

/** One check of a test session and how its run went. */
export const TestSessionCheckRun = {
  $id: 'TestSessionCheckRun',
  type: 'object',
  required: ['checkId', 'name', 'checkType', 'status'],
  properties: {
    checkId: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    checkType: { type: 'string' },
    status: { type: 'string', enum: ['PENDING', 'RUNNING', 'PASSED', 'FAILED', 'CANCELLED'] },
    resultIds: { type: 'array', items: { type: 'string' } },
    sequenceId: { type: ['string', 'null'] },
    testSessionResultId: { type: ['string', 'null'], description: 'The latest FINAL result (null while none)' },
    testSessionResultLink: { type: ['string', 'null'] },
    runLocation: { type: ['string', 'null'] },
    resultType: { type: ['string', 'null'] },
    hasFailures: { type: 'boolean' },
    hasErrors: { type: 'boolean' },
    isDegraded: { type: 'boolean' },
    aborted: { type: 'boolean' },
  },
};

/** A test session (`/v1/test-sessions/{id}`). */
export const TestSession = {
  $id: 'TestSession',
  type: 'object',
  description: 'Checks run now, together, from CI/CD or the API',
  required: ['id', 'name', 'status', 'created_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['RUNNING', 'PASSED', 'FAILED', 'CANCELLED'] },
    runLocation: { type: ['string', 'null'] },
    environment: { type: ['string', 'null'] },
    checkIds: { type: 'array', items: { type: 'string' } },
    results: { type: 'array', items: ref('TestSessionCheckRun') },
    errorGroupIds: { type: 'array', items: { type: 'string' } },
    testSessionErrorGroupIds: { type: 'array', items: { type: 'string' }, description: 'Same as errorGroupIds' },
    created_at: { type: 'string', format: 'date-time' },
    startedAt: { type: ['string', 'null'], format: 'date-time' },
    stoppedAt: { type: ['string', 'null'], format: 'date-time' },
    updated_at: { type: ['string', 'null'], format: 'date-time' },
    testSessionId: { type: 'string', format: 'uuid', description: 'Same as id (the CLI reads it)' },
    testSessionLink: { type: 'string', description: 'The session\'s page in the console (under LOOKOUT_PUBLIC_URL)' },
    accountId: { type: 'string', format: 'uuid' },
    projectId: { type: ['string', 'null'] },
    provider: { type: 'string', enum: ['API'] },
    region: { type: ['string', 'null'] },
    timeElapsed: { type: 'integer', description: 'Milliseconds from start to stop (or to now)' },
    running: { type: 'array', items: { type: 'string' }, description: 'Ids of the checks not finished yet' },
    passed: { type: 'array', items: { type: 'string' } },
    failed: { type: 'array', items: { type: 'string' } },
    cancelled: { type: 'array', items: { type: 'string' } },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

/** A page of `GET /v1/test-sessions`. */
export const TestSessionPage = {
  $id: 'TestSessionPage',
  type: 'object',
  required: ['length', 'entries', 'nextId'],
  properties: {
    length: { type: 'integer' },
    entries: { type: 'array', items: ref('TestSession') },
    nextId: { type: ['string', 'null'] },
  },
};

/** `GET /next/test-sessions/{id}/link`: the session's console page (the CLI's "Detailed session summary"). */
export const TestSessionLink = {
  $id: 'TestSessionLink',
  type: 'object',
  required: ['link'],
  properties: { link: { type: 'string' } },
};

/** `GET /next/test-sessions/{id}/results/{resultId}/links`: where the CLI sends people to see one result. */
export const TestSessionResultLinks = {
  $id: 'TestSessionResultLinks',
  type: 'object',
  required: ['testResultLink', 'testTraceLinks', 'videoLinks'],
  properties: {
    testResultLink: { type: 'string', description: 'The result\'s page in the console' },
    testTraceLinks: { type: 'array', items: { type: 'string' }, description: 'Always empty: traces are reached from the result\'s page' },
    videoLinks: { type: 'array', items: { type: 'string' }, description: 'Always empty: videos are reached from the result\'s page' },
  },
};

/** Schemas of this file registered as named components, in dependency order. */
export const TEST_SESSION_VIEW_SCHEMAS = [TestSessionCheckRun, TestSession, TestSessionPage, TestSessionLink, TestSessionResultLinks];
