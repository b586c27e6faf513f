import type { GraphqlContext } from './context.js';

/**
 * One kind of node `node(id)` can refetch: the type part of its global id, how to fetch it by REST id
 * (null when unknown or another account's) and which GraphQL object type a fetched payload is.
 * Each resolver module exports the node types it owns; createGraphql gathers them.
 */
export interface NodeType {
  /** The type part of the global id (`Check` for every check type, so an id never depends on the type). */
  idType: string;
  /** The payload behind a REST id taken from a global id; null when unknown or of another account. */
  fetch(ctx: GraphqlContext, restId: string): Promise<unknown>;
  /** The concrete GraphQL object type of a fetched payload. */
  typeName(value: unknown): string | null;
}

/** Concrete type of every payload `node`/`nodes` returned, read by `Node.__resolveType`. */
const typeOfNode = new WeakMap<object, string>();

/** Records the concrete type of a payload about to be returned as a `Node`. */
export function markNodeType<T>(value: T, typeName: string | null): T {
  if (value && typeof value === 'object' && typeName) typeOfNode.set(value, typeName);
  return value;
}

/** The concrete type recorded by markNodeType. */
export function nodeTypeOf(value: unknown): string | null {
  return value && typeof value === 'object' ? typeOfNode.get(value) ?? null : null;
}
