import { Kind, type ConstDirectiveNode, type DocumentNode, type NamedTypeNode } from 'graphql';
import type { GraphqlContext } from './context.js';
import { fromGlobalId } from './global-id.js';
import type { NodeType } from './node-type.js';

/** What the router sends `_entities` for one entity: its type name and its key fields. */
export interface EntityRepresentation {
  __typename: string;
  id?: unknown;
}

const implementsNode = (interfaces: readonly NamedTypeNode[] | undefined) => interfaces?.some((i) => i.name.value === 'Node') ?? false;

const KEY_BY_ID: ConstDirectiveNode = {
  kind: Kind.DIRECTIVE,
  name: { kind: Kind.NAME, value: 'key' },
  arguments: [{ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 'fields' }, value: { kind: Kind.STRING, value: 'id' } }],
};

/**
 * Names of the object types implementing `Node` (in their definition or in an `extend type`): the
 * entities of the subgraph, each keyed by its global id.
 */
export function entityTypeNames(document: DocumentNode): Set<string> {
  const names = new Set<string>();
  for (const def of document.definitions) {
    if ((def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.OBJECT_TYPE_EXTENSION) && implementsNode(def.interfaces)) {
      names.add(def.name.value);
    }
  }
  return names;
}

/**
 * The document with `@key(fields: "id")` on the definition of every object type implementing `Node`
 * that has no `@key` yet. Done when the schema is built rather than written in each module, so a node
 * type added later is an entity without anyone remembering to say so.
 */
export function withEntityKeys(document: DocumentNode): DocumentNode {
  const entities = entityTypeNames(document);
  const keyed = new Set<string>();
  for (const def of document.definitions) {
    if ((def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.OBJECT_TYPE_EXTENSION) && def.directives?.some((d) => d.name.value === 'key')) {
      keyed.add(def.name.value);
    }
  }
  return {
    ...document,
    definitions: document.definitions.map((def) => {
      if (def.kind !== Kind.OBJECT_TYPE_DEFINITION || !entities.has(def.name.value) || keyed.has(def.name.value)) return def;
      return { ...def, directives: [...(def.directives ?? []), KEY_BY_ID] };
    }),
  };
}

/**
 * `__resolveReference` of every entity: the representation's global id is refetched through the node
 * type registry, exactly as `node(id)` does, with the caller's credentials. An id that is malformed,
 * unknown, another account's, or of another type than `__typename` resolves to null.
 */
export function createReferenceResolver(nodeTypes: readonly NodeType[]) {
  return async (reference: EntityRepresentation, ctx: GraphqlContext): Promise<unknown> => {
    const g = typeof reference.id === 'string' ? fromGlobalId(reference.id) : null;
    const nodeType = g ? nodeTypes.find((t) => t.idType === g.type) : undefined;
    if (!g || !nodeType) return null;
    const value = await nodeType.fetch(ctx, g.restId);
    if (!value || nodeType.typeName(value) !== reference.__typename) return null;
    // A copy: the subgraph library marks the entity with __typename, and the loaders cache the original.
    return { ...(value as object) };
  };
}
