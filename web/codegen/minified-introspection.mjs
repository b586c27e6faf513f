// A graphql-codegen plugin (codegen.yml): the schema as graphcache needs it (types, interfaces,
// unions, keys), minified at build time so the console ships neither descriptions nor the SDL.
import { getIntrospectedSchema, minifyIntrospectionQuery } from '@urql/introspection';

/** Writes the minified introspection of the completed schema as a TypeScript module. */
export const plugin = (schema) => {
  const minified = minifyIntrospectionQuery(getIntrospectedSchema(schema), { includeDirectives: false, includeScalars: true, includeEnums: false, includeInputs: false });
  return [
    "import type { CacheExchangeOpts } from '@urql/exchange-graphcache';",
    `export const schema = ${JSON.stringify(minified)} as unknown as NonNullable<CacheExchangeOpts['schema']>;`,
    '',
  ].join('\n');
};
