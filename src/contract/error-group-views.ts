import type { JsonSchema } from './response-shape.js';

/** What check and test session error groups share (service-api.md describes them side by side). */
const CORE: JsonSchema = {
  id: { type: 'string', format: 'uuid' },
  errorHash: { type: 'string', description: 'Hash of the cleaned message' },
  rawErrorMessage: { type: ['string', 'null'] },
  cleanedErrorMessage: { type: 'string' },
  firstSeen: { type: 'string', format: 'date-time' },
  lastSeen: { type: 'string', format: 'date-time' },
  archivedUntilNextEvent: { type: 'boolean' },
  rootCauseAnalyses: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'None are made here' },
};
const CORE_REQUIRED = ['id', 'errorHash', 'cleanedErrorMessage', 'firstSeen', 'lastSeen', 'archivedUntilNextEvent'];

/** A check error group (`/v1/error-groups`). */
export const ErrorGroup = {
  $id: 'ErrorGroup',
  type: 'object',
  description: 'Errors of a check\'s runs grouped by cleaned message; archivedUntilNextEvent is true while archived either way',
  required: [...CORE_REQUIRED, 'checkId', 'archiveForEver'],
  properties: { ...CORE, checkId: { type: 'string', format: 'uuid' }, archiveForEver: { type: 'boolean' } },
};

/** A test session error group (`/v1/test-session-error-groups/{id}`). */
export const TestSessionErrorGroup = {
  $id: 'TestSessionErrorGroup',
  type: 'object',
  description: 'Errors observed in test sessions, grouped by cleaned message',
  required: CORE_REQUIRED,
  properties: {
    ...CORE,
    projectId: { type: ['string', 'null'] },
    environments: { type: ['array', 'null'], items: { type: 'string' } },
    pwtMetadata: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        properties: { projectName: { type: 'string' }, testFile: { type: 'string' }, testTitle: { type: 'string' }, suitePath: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
};

/** Schemas of this file registered as named components. */
export const ERROR_GROUP_VIEW_SCHEMAS = [ErrorGroup, TestSessionErrorGroup];
