import {
  getNamedType, getNullableType, getOperationAST, isInterfaceType, isListType, isObjectType, Kind,
  getVariableValues, SchemaMetaFieldDef, TypeMetaFieldDef, valueFromASTUntyped,
  type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLNamedType,
  type GraphQLSchema, type GraphQLType, type SelectionSetNode, type ValueNode,
} from 'graphql';

/** What the limits look at in one operation, computed before it runs. */
export interface OperationMeasure {
  /** Deepest nesting of fields (a root field is at depth 1), introspection fields included. */
  depth: number;
  /** Aliased fields, counted once per place they appear after fragments are spread. */
  aliases: number;
  /** Upper bound of the REST calls the operation makes, from the fields' `@restCost`. */
  cost: number;
}

/** Size assumed for a list whose length the operation does not bound (and the most a `first` may ask). */
export const MAX_LIST_SIZE = 100;

/** What one `__schema` field costs when the caller does not say (`GRAPHQL_INTROSPECTION_COST`). */
export const DEFAULT_INTROSPECTION_COST = 50;

/** Options of measureOperation. */
export interface MeasureOptions {
  /** Cost of one `__schema` field (default DEFAULT_INTROSPECTION_COST); `__type` costs 1. */
  introspectionCost?: number;
}

/**
 * One selection set's contribution, linear in the number of parent objects `m` it is resolved for:
 * its cost is `fixed + m * perParent`. Batched fields are fixed (once per occurrence); perParent fields
 * and everything perParent below them scale with the parents.
 */
interface Summary {
  depth: number;
  aliases: number;
  fixed: number;
  perParent: number;
}

const EMPTY: Summary = { depth: 0, aliases: 0, fixed: 0, perParent: 0 };

function add(a: Summary, b: Summary): Summary {
  return { depth: Math.max(a.depth, b.depth), aliases: a.aliases + b.aliases, fixed: a.fixed + b.fixed, perParent: a.perParent + b.perParent };
}

/** `@restCost(calls, perParent)` of a field definition; no directive means no REST call. */
function restCostOf(field: GraphQLField<unknown, unknown>): { calls: number; perParent: boolean } {
  const directive = field.astNode?.directives?.find((d) => d.name.value === 'restCost');
  if (!directive) return { calls: 0, perParent: false };
  let calls = 1;
  let perParent = false;
  for (const arg of directive.arguments ?? []) {
    if (arg.name.value === 'calls' && arg.value.kind === Kind.INT) calls = Number(arg.value.value);
    if (arg.name.value === 'perParent' && arg.value.kind === Kind.BOOLEAN) perParent = arg.value.value;
  }
  return { calls, perParent };
}

/** How many list levels wrap a type (`[[X]]` is two). */
function listDepth(type: GraphQLType): number {
  let levels = 0;
  for (let t = getNullableType(type); isListType(t); t = getNullableType(t.ofType)) levels++;
  return levels;
}

/**
 * Measures an operation of `document` (the one named `operationName`, or the only one) against
 * `schema`, before execution. The cost rule is the one schema/base.graphql states for `@restCost`:
 * batched fields cost `calls` once per occurrence; `perParent` fields cost `calls` for every parent,
 * the sizes of the enclosing lists multiplied in: a connection's `first` (its variable's value, or the
 * argument's default when absent, at most 100) for the lists directly inside the connection (and a
 * list field's own `first`), 100 for other lists. Federation's `_entities` costs one call per representation.
 * Introspection is measured like any field (its depth and aliases count): answering it makes no REST
 * call, but a whole schema is a large answer, so `__schema` costs `introspectionCost` (default 50) and
 * `__type` costs 1; `__typename` is free. Fields under `@skip(if: true)` or
 * `@include(if: false)` are left out. Fragments are summarised once each, so a document spreading
 * fragments exponentially often is measured (and refused) in linear time.
 */
export function measureOperation(
  schema: GraphQLSchema, document: DocumentNode, operationName?: string | null, variables?: Record<string, unknown> | null,
  { introspectionCost = DEFAULT_INTROSPECTION_COST }: MeasureOptions = {},
): OperationMeasure {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return { depth: 0, aliases: 0, cost: 0 };
  // Only whether they coerce matters here: the first error is enough (a huge list of wrong values
  // would otherwise build one error per item before execution reports at most 50 of them).
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 1 });
  // Variables that do not coerce fail the operation before any REST call; measure as if they were left out.
  const vars: Record<string, unknown> = coerced.coerced ?? {};
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const fragmentSummaries = new Map<string, Summary>();

  const valueOf = (node: ValueNode | undefined): unknown => (node ? valueFromASTUntyped(node, vars) : undefined);

  const included = (node: { directives?: readonly { name: { value: string }; arguments?: readonly { name: { value: string }; value: ValueNode }[] }[] }): boolean => {
    for (const d of node.directives ?? []) {
      if (d.name.value !== 'skip' && d.name.value !== 'include') continue;
      const value = valueOf(d.arguments?.find((a) => a.name.value === 'if')?.value);
      if (typeof value !== 'boolean') continue;
      if (d.name.value === 'skip' ? value : !value) return false;
    }
    return true;
  };

  /** Items a connection field asks for: its `first`, bounded to 0..100; 100 when unknown. */
  const firstOf = (field: GraphQLField<unknown, unknown>, node: FieldNode): number => {
    const arg = node.arguments?.find((a) => a.name.value === 'first');
    let value = arg ? valueOf(arg.value) : undefined;
    if (value === undefined || value === null) value = field.args.find((a) => a.name === 'first')?.defaultValue;
    return typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(Math.trunc(value), 0), MAX_LIST_SIZE) : MAX_LIST_SIZE;
  };

  /** Representations `_entities` is asked for (100 when the operation does not say). */
  const representationsOf = (node: FieldNode): number => {
    const value = valueOf(node.arguments?.find((a) => a.name.value === 'representations')?.value);
    return Array.isArray(value) ? value.length : MAX_LIST_SIZE;
  };

  const field = (node: FieldNode, parentType: GraphQLNamedType, connectionSize: number | null): Summary => {
    const name = node.name.value;
    const aliases = node.alias ? 1 : 0;
    if (name === '__typename' || !(isObjectType(parentType) || isInterfaceType(parentType))) return { ...EMPTY, depth: 1, aliases };
    // The meta fields are not among the root type's own fields; they exist on the query root only.
    const introspection = (name === '__schema' || name === '__type') && parentType === schema.getQueryType();
    const def = introspection ? (name === '__schema' ? SchemaMetaFieldDef : TypeMetaFieldDef) as GraphQLField<unknown, unknown> : parentType.getFields()[name];
    if (!def) return { ...EMPTY, depth: 1, aliases };
    const entities = name === '_entities' ? representationsOf(node) : null;
    const { calls, perParent } = entities !== null ? { calls: entities, perParent: false }
      : introspection ? { calls: name === '__schema' ? introspectionCost : 1, perParent: false }
        : restCostOf(def);
    const own: Summary = { depth: 1, aliases, fixed: perParent ? 0 : calls, perParent: perParent ? calls : 0 };
    if (!node.selectionSet) return own;
    // A list has as many items as the connection around it (or its own `first`) asks for; else up to 100.
    const levels = listDepth(def.type);
    const first = def.args.some((a) => a.name === 'first') ? firstOf(def, node) : null;
    const outerSize = entities ?? (levels > 0 ? first : null) ?? connectionSize ?? MAX_LIST_SIZE;
    let size = 1;
    for (let i = 0; i < levels; i++) size *= i === 0 ? outerSize : MAX_LIST_SIZE;
    const child = selectionSet(node.selectionSet, getNamedType(def.type), levels === 0 ? first : null);
    return {
      depth: 1 + child.depth,
      aliases: aliases + child.aliases,
      fixed: own.fixed + child.fixed,
      perParent: own.perParent + size * child.perParent,
    };
  };

  const selectionSet = (set: SelectionSetNode, parentType: GraphQLNamedType, connectionSize: number | null): Summary => {
    let sum = EMPTY;
    for (const selection of set.selections) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.FIELD) sum = add(sum, field(selection, parentType, connectionSize));
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parentType;
        if (type) sum = add(sum, selectionSet(selection.selectionSet, type, connectionSize));
      } else {
        const fragment = fragments.get(selection.name.value);
        const type = fragment && schema.getType(fragment.typeCondition.name.value);
        if (!fragment || !type) continue;
        const key = `${fragment.name.value}\u0000${connectionSize}`;
        let summary = fragmentSummaries.get(key);
        if (!summary) {
          // A cycle (refused by validation anyway) measures as empty rather than recursing for ever.
          fragmentSummaries.set(key, EMPTY);
          summary = selectionSet(fragment.selectionSet, type, connectionSize);
          fragmentSummaries.set(key, summary);
        }
        sum = add(sum, summary);
      }
    }
    return sum;
  };

  const root = schema.getRootType(operation.operation);
  if (!root) return { depth: 0, aliases: 0, cost: 0 };
  const s = selectionSet(operation.selectionSet, root, null);
  return { depth: s.depth, aliases: s.aliases, cost: s.fixed + s.perParent };
}
