import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/** Field names selected on the objects below `set` (through connections, fragments and inline fragments). */
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

/** What createRestFieldsOfSelection needs to know of one REST resource. */
export interface RestFieldsOptions {
  /** REST fields each GraphQL field is resolved from; a field missing here needs the whole object. */
  restFieldsOf: Readonly<Record<string, readonly string[]>>;
  /** REST fields always asked for (keys, type resolution). */
  always: readonly string[];
}

/**
 * A function giving the REST `fields=` value that serves the objects the field being resolved
 * returns (objects, or with `connection` a connection of them): only what its selection reads, plus
 * `always`. Undefined (the whole object) when some selected field may need more. Every item of a
 * list resolves its field with the same field nodes, so the answer is computed once per node list.
 */
export function createRestFieldsOfSelection({ restFieldsOf, always }: RestFieldsOptions) {
  const cache = new WeakMap<GraphQLResolveInfo['fieldNodes'], string | null>();
  return (info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, connection: boolean): string | undefined => {
    const cached = cache.get(info.fieldNodes);
    if (cached !== undefined) return cached ?? undefined;
    const selected = new Set<string>();
    for (const node of info.fieldNodes) collect(node.selectionSet, info.fragments, selected, new Set(), connection);
    const fields = new Set(always);
    let answer: string | null = null;
    if ([...selected].every((name) => Object.hasOwn(restFieldsOf, name))) {
      for (const name of selected) for (const f of restFieldsOf[name]!) fields.add(f);
      answer = [...fields].sort().join(',');
    }
    cache.set(info.fieldNodes, answer);
    return answer ?? undefined;
  };
}
