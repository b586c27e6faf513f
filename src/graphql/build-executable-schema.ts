import {
  buildSchema, isInterfaceType, isObjectType, isUnionType, type GraphQLFieldResolver, type GraphQLSchema,
} from 'graphql';

type FieldConfig = GraphQLFieldResolver<unknown, unknown> | { resolve?: GraphQLFieldResolver<unknown, unknown>; subscribe?: GraphQLFieldResolver<unknown, unknown> };
/** Resolver maps as codegen types them, loosely: type name → field name → resolver (or `__resolveType`). */
export type ResolverMap = Record<string, Record<string, unknown>>;

/** Merges resolver maps type by type (later maps win per field). */
export function mergeResolvers(maps: ResolverMap[]): ResolverMap {
  const out: ResolverMap = {};
  for (const map of maps) for (const [type, fields] of Object.entries(map)) out[type] = { ...out[type], ...fields };
  return out;
}

/**
 * An executable schema from SDL and resolver maps: field resolvers (functions, or `{resolve, subscribe}`
 * for subscriptions), `__resolveType` on interfaces and unions, `__isTypeOf` on objects. A resolver for
 * a type or field the SDL does not declare is a programming error and throws.
 */
export function buildExecutableSchema(typeDefs: string, resolvers: ResolverMap): GraphQLSchema {
  const schema = buildSchema(typeDefs);
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
