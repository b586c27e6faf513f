import { StoredFile } from './checkly-storage-views.js';

/** A test session started by `checkly trigger` (`POST /next/test-sessions/trigger`). */
export const TriggeredTestSession = {
  $id: 'TriggeredTestSession',
  type: 'object',
  description: 'The session started, the checks it runs and the sequence id of each (check id → sequence id): live results are published over MQTT under those',
  required: ['testSessionId', 'checks', 'sequenceIds'],
  properties: {
    testSessionId: { type: 'string', format: 'uuid' },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'checkType'],
        properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, checkType: { type: 'string' }, groupId: { type: ['integer', 'null'] } },
      },
    },
    sequenceIds: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

/** A `checkly test` run started (`POST /v1/test-sessions/run`). */
export const TestSessionRunStarted = {
  $id: 'TestSessionRunStarted',
  type: 'object',
  description: 'The session the submitted checks run in, its scheduling id (dispatch is immediate) and the sequence id of each check by logical id',
  required: ['testSessionId', 'schedulingId', 'sequenceIds'],
  properties: {
    testSessionId: { type: 'string', format: 'uuid' },
    schedulingId: { type: 'string' },
    sequenceIds: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

/** How the dispatch of a `checkly test` run went. */
export const TestSessionScheduling = {
  $id: 'TestSessionScheduling',
  type: 'object',
  required: ['schedulingId', 'testSessionId', 'status', 'checksTotal', 'error', 'createdAt'],
  properties: {
    schedulingId: { type: 'string' },
    testSessionId: { type: ['string', 'null'] },
    status: { type: 'string', enum: ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED'] },
    checksTotal: { type: 'integer' },
    error: { type: ['object', 'null'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

export const TEST_SESSION_RUN_VIEW_SCHEMAS = [TriggeredTestSession, TestSessionRunStarted, TestSessionScheduling, StoredFile];
