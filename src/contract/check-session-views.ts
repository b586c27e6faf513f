import { ref } from './response-shape.js';

const CHECK_SESSION_PROPERTIES = {
  checkSessionId: { type: 'string', format: 'uuid', description: 'Also the id of the test session it runs as' },
  checkSessionLink: { type: 'string' },
  checkId: { type: 'string', format: 'uuid' },
  checkType: { type: ['string', 'null'] },
  name: { type: 'string' },
  status: { type: 'string', enum: ['STARTED', 'PROGRESS', 'PASSED', 'FAILED', 'CANCELLED'] },
  startedAt: { type: 'string', format: 'date-time' },
  stoppedAt: { type: ['string', 'null'], format: 'date-time' },
  timeElapsed: { type: 'integer', description: 'Milliseconds from start to stop (or to now)' },
  runLocations: { type: 'array', items: { type: 'string' } },
  runSource: { type: ['string', 'null'] },
};

/** One check's run started by `checkly checks run`. */
export const CheckSession = {
  $id: 'CheckSession',
  type: 'object',
  required: ['checkSessionId', 'checkId', 'status', 'startedAt', 'stoppedAt', 'timeElapsed', 'runLocations'],
  properties: CHECK_SESSION_PROPERTIES,
};

/** `POST /v2/check-sessions/trigger`: the sessions started. */
export const CheckSessionsTriggered = {
  $id: 'CheckSessionsTriggered',
  type: 'object',
  required: ['sessions'],
  properties: { sessions: { type: 'array', items: ref('CheckSession') } },
};

/** A finished check session with the FINAL results of its check. */
export const CompletedCheckSession = {
  $id: 'CompletedCheckSession',
  type: 'object',
  required: ['checkSessionId', 'checkId', 'status', 'startedAt', 'timeElapsed', 'runLocations', 'results'],
  properties: {
    ...CHECK_SESSION_PROPERTIES,
    results: {
      type: 'array',
      items: {
        type: 'object',
        required: ['checkResultId', 'checkId', 'checkType', 'name', 'runLocation', 'resultType', 'hasErrors', 'hasFailures', 'isDegraded', 'aborted', 'isCancelled'],
        properties: {
          checkResultId: { type: 'string', format: 'uuid' }, checkResultLink: { type: 'string' }, checkId: { type: 'string', format: 'uuid' },
          checkType: { type: 'string' }, name: { type: 'string' }, runLocation: { type: 'string' }, resultType: { type: ['string', 'null'] },
          hasErrors: { type: 'boolean' }, hasFailures: { type: 'boolean' }, isDegraded: { type: ['boolean', 'null'] }, aborted: { type: 'boolean' },
          isCancelled: { type: 'boolean' }, responseTime: { type: ['number', 'null'] },
          startedAt: { type: ['string', 'null'], format: 'date-time' }, stoppedAt: { type: ['string', 'null'], format: 'date-time' },
        },
      },
    },
  },
};

/** Schemas of this file registered as named components, in dependency order. */
export const CHECK_SESSION_VIEW_SCHEMAS = [CheckSession, CheckSessionsTriggered, CompletedCheckSession];
