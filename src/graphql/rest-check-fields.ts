import { createRestFieldsOfSelection } from './rest-fields-of-selection.js';

/** Fields of the check types resolved from the REST check field of the same name. */
const SAME_NAME = [
  'checkType', 'name', 'activated', 'muted', 'doubleCheck', 'shouldFail', 'locations', 'privateLocations', 'tags', 'alertSettings',
  'useGlobalAlertSettings', 'groupId', 'groupOrder', 'runtimeId', 'retryStrategy', 'runParallel', 'description', 'frequency',
  'frequencyOffset', 'alertChannelSubscriptions', 'environmentVariables', 'triggerIncident', 'request', 'degradedResponseTime',
  'maxResponseTime', 'sslCheckDomain', 'setupSnippetId', 'tearDownSnippetId', 'localSetupScript', 'localTearDownScript', 'heartbeat',
  'script', 'scriptPath', 'dependencies', 'prompt',
  'playwrightConfig', 'setupScriptPath', 'setupScriptDependencies', 'tearDownScriptPath', 'tearDownScriptDependencies',
];

/**
 * REST check fields each `Check` field is resolved from (relations read the check's id or a foreign
 * key). A field missing here (one whose resolver may read more of the check) makes the layer ask
 * for the whole check.
 */
const REST_FIELDS_OF: Record<string, readonly string[]> = {
  ...Object.fromEntries(SAME_NAME.map((name) => [name, [name]])),
  __typename: [],
  id: ['id'],
  checkId: ['id'],
  group: ['groupId'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
  status: ['id'],
  latestResults: ['id'],
  results: ['id'],
  errorGroups: ['id'],
  analytics: ['id', 'checkType'],
  alertChannels: ['alertChannelSubscriptions'],
};

/**
 * The REST `fields=` value that serves the checks the field being resolved returns (a check, or
 * with `connection` a connection of them): only what its selection reads, plus `id` and
 * `checkType` (which type a check resolves to). Undefined (the whole check) when some selected
 * field may need more.
 */
export const restCheckFields = createRestFieldsOfSelection({ restFieldsOf: REST_FIELDS_OF, always: ['id', 'checkType'] });
