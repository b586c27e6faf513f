import { buildSubgraphSchema } from '@apollo/subgraph';
import {
  isInterfaceType, isObjectType, isUnionType, parse, type GraphQLFieldResolver, type GraphQLSchema,
} from 'graphql';
import { entityTypeNames, withEntityKeys } from './federation.js';

type FieldConfig = GraphQLFieldResolver<unknown, unknown> | { resolve?: GraphQLFieldResolver<unknown, unknown>; subscribe?: GraphQLFieldResolver<unknown, unknown> };
/** Resolver maps as codegen types them, loosely: type name → field name → resolver (or `__resolveType`). */
export type ResolverMap = Record<string, Record<string, unknown>>;

/** Merges resolver maps type by type (later maps win per field). */
export function mergeResolvers(maps: ResolverMap[]): ResolverMap {
  const out: ResolverMap = {};
  for (const map of maps) for (const [type, fields] of Object.entries(map)) out[type] = { ...out[type], ...fields };
  return out;
}

/** Options of buildExecutableSchema. */
export interface ExecutableSchemaOptions {
  /** `__resolveReference` of every federation entity (object types implementing Node); unset: entities cannot be resolved. */
  resolveReference?: (reference: never, context: never, info: never) => unknown;
}

/**
 * An executable schema from SDL and resolver maps: field resolvers (functions, or `{resolve, subscribe}`
 * for subscriptions), `__resolveType` on interfaces and unions, `__isTypeOf` on objects. A resolver for
 * a type or field the SDL does not declare is a programming error and throws.
 *
 * The schema is also an Apollo Federation v2 subgraph (built with @apollo/subgraph's buildSubgraphSchema,
 * which adds `_service` and `_entities`): every object type implementing Node gets `@key(fields: "id")`
 * and `options.resolveReference`.
 */
export function buildExecutableSchema(typeDefs: string, resolvers: ResolverMap, options: ExecutableSchemaOptions = {}): GraphQLSchema {
  const document = withEntityKeys(parse(typeDefs));
  const references: ResolverMap = {};
  if (options.resolveReference) {
    for (const name of entityTypeNames(document)) references[name] = { __resolveReference: options.resolveReference };
  }
  const schema = buildSubgraphSchema([{ typeDefs: document, resolvers: references as never }]);
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (!type) throw new Error(`Resolvers given for unknown type ${typeName}`);
    for (const [name, value] of Object.entries(fields)) {
      if (name === '__resolveType' && (isInterfaceType(type) || isUnionType(type))) {
        type.resolveType = value as never;
        continue;
      }
      if (name === '__isTypeOf' && isObjectType(type)) {
        type.isTypeOf = value as never;
        continue;
      }
      if (!isObjectType(type)) throw new Error(`Cannot attach ${typeName}.${name}`);
      const field = type.getFields()[name];
      if (!field) throw new Error(`Resolver given for unknown field ${typeName}.${name}`);
      const config = value as FieldConfig;
      if (typeof config === 'function') field.resolve = config;
      else {
        if (config.resolve) field.resolve = config.resolve;
        if (config.subscribe) field.subscribe = config.subscribe;
      }
    }
  }
  return schema;
}
