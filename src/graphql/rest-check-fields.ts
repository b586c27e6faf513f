import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/** Fields of the check types resolved from the REST check field of the same name. */
const SAME_NAME = [
  'checkType', 'name', 'activated', 'muted', 'doubleCheck', 'shouldFail', 'locations', 'privateLocations', 'tags', 'alertSettings',
  'useGlobalAlertSettings', 'groupId', 'groupOrder', 'runtimeId', 'retryStrategy', 'runParallel', 'description', 'frequency',
  'frequencyOffset', 'alertChannelSubscriptions', 'environmentVariables', 'triggerIncident', 'request', 'degradedResponseTime',
  'maxResponseTime', 'sslCheckDomain', 'setupSnippetId', 'tearDownSnippetId', 'localSetupScript', 'localTearDownScript', 'heartbeat',
  'script', 'scriptPath', 'dependencies', 'prompt',
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

/** Field names selected on the checks below `set` (through connections, fragments and inline fragments). */
function collect(set: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, out: Set<string>, seen: Set<string>, inConnection: boolean): void {
  for (const sel of set?.selections ?? []) {
    if (sel.kind === Kind.FIELD) {
      const name = sel.name.value;
      if (inConnection && (name === 'nodes' || name === 'edges')) collect(sel.selectionSet, fragments, out, seen, name === 'edges');
      else if (inConnection && name === 'node') collect(sel.selectionSet, fragments, out, seen, false);
      else if (!inConnection) out.add(name);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      collect(sel.selectionSet, fragments, out, seen, inConnection);
    } else if (!seen.has(sel.name.value)) {
      seen.add(sel.name.value);
      collect(fragments[sel.name.value]?.selectionSet, fragments, out, seen, inConnection);
    }
  }
}

/**
 * The REST `fields=` value that serves the checks the field being resolved returns (a check, or
 * with `connection` a connection of them): only what its selection reads, plus `id` and
 * `checkType` (which type a check resolves to). Undefined (the whole check) when some selected
 * field may need more.
 */
export function restCheckFields(info: GraphQLResolveInfo, connection: boolean): string | undefined {
  // A field inside a list resolves with the same field nodes for every item: computed once.
  const cached = cache.get(info.fieldNodes);
  if (cached !== undefined) return cached ?? undefined;
  const fields = computeFields(info, connection);
  cache.set(info.fieldNodes, fields ?? null);
  return fields;
}

const cache = new WeakMap<GraphQLResolveInfo['fieldNodes'], string | null>();

function computeFields(info: GraphQLResolveInfo, connection: boolean): string | undefined {
  const selected = new Set<string>();
  for (const node of info.fieldNodes) collect(node.selectionSet, info.fragments, selected, new Set(), connection);
  const fields = new Set(['id', 'checkType']);
  for (const name of selected) {
    const rest = Object.hasOwn(REST_FIELDS_OF, name) ? REST_FIELDS_OF[name] : undefined;
    if (!rest) return undefined;
    for (const f of rest) fields.add(f);
  }
  return [...fields].sort().join(',');
}
