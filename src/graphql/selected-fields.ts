import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

function walk(set: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, names: ReadonlySet<string>, seen: Set<string>): boolean {
  for (const sel of set?.selections ?? []) {
    if (sel.kind === Kind.FIELD) {
      if (names.has(sel.name.value)) return true;
      // A connection's `nodes` / `edges { node }` hold the objects whose fields matter.
      if ((sel.name.value === 'nodes' || sel.name.value === 'edges' || sel.name.value === 'node') && walk(sel.selectionSet, fragments, names, seen)) return true;
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      if (walk(sel.selectionSet, fragments, names, seen)) return true;
    } else if (!seen.has(sel.name.value)) {
      seen.add(sel.name.value);
      if (walk(fragments[sel.name.value]?.selectionSet, fragments, names, seen)) return true;
    }
  }
  return false;
}

/**
 * Whether the field being resolved selects any of `names` on the objects it returns (directly, in
 * fragments, or under a connection's nodes/edges). Lets a resolver skip REST work no field needs.
 */
export function selectsAnyField(info: GraphQLResolveInfo, names: readonly string[]): boolean {
  const wanted = new Set(names);
  return info.fieldNodes.some((node) => walk(node.selectionSet, info.fragments, wanted, new Set()));
}
