import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

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

/** Field names selected on the result objects below `set` (through connections, fragments and inline fragments). */
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
 * The REST `fields=` value that serves the results the field being resolved returns (a list of
 * results, or with `connection` a connection of them): only the columns its selection reads, so
 * REST neither reads nor sends the rest. Undefined (every field) when some selected field needs the
 * wide per-type detail.
 */
export function restResultFields(info: GraphQLResolveInfo, connection: boolean): string | undefined {
  // Every item of a list resolves this field with the same field nodes: computed once for all.
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
  // id and checkId key every result (loaders, global ids), whatever was selected.
  const fields = new Set(['id', 'checkId']);
  for (const name of selected) {
    const rest = REST_FIELDS_OF[name];
    if (!rest) return undefined;
    for (const f of rest) fields.add(f);
  }
  return [...fields].sort().join(',');
}
