import { createRestFieldsOfSelection } from './rest-fields-of-selection.js';

/**
 * REST result fields each `CheckResult` field is resolved from, for the fields that need no wide
 * column. A field missing here (a per-type part, errors, assertions) needs the whole result.
 */
const REST_FIELDS_OF: Record<string, readonly string[]> = {
  __typename: [],
  id: ['id', 'checkId'],
  resultId: ['id'],
  checkId: ['checkId'],
  check: ['checkId'],
  name: ['name'],
  checkType: ['checkType'],
  resultType: ['resultType'],
  hasFailures: ['hasFailures'],
  hasErrors: ['hasErrors'],
  isDegraded: ['isDegraded'],
  isCancelled: ['isCancelled'],
  overMaxResponseTime: ['overMaxResponseTime'],
  runLocation: ['runLocation'],
  startedAt: ['startedAt'],
  stoppedAt: ['stoppedAt'],
  createdAt: ['created_at'],
  responseTime: ['responseTime'],
  attempts: ['attempts'],
  sequenceId: ['sequenceId'],
  checkRunId: ['checkRunId'],
  errorGroupIds: ['errorGroupIds'],
  errorGroups: ['errorGroupIds'],
};

/**
 * The REST `fields=` value that serves the results the field being resolved returns (a list of
 * results, or with `connection` a connection of them): only the columns its selection reads (and
 * `id`, `checkId`, which key every result), so REST neither reads nor sends the rest. Undefined
 * (every field) when some selected field needs the wide per-type detail.
 */
export const restResultFields = createRestFieldsOfSelection({ restFieldsOf: REST_FIELDS_OF, always: ['id', 'checkId'] });
