/**
 * The settings the GraphQL layer reads, declared here so the layer depends on no server module:
 * the process's Config (src/config.ts) satisfies it, and a gateway-only process could pass its own.
 */
export interface GraphqlSettings {
  /** REST backend (`GRAPHQL_BACKEND_URL`); unset: this process's own API, in-process. */
  graphqlBackendUrl: string | undefined;
  /** REST calls one operation may make. */
  graphqlRestBudget: number;
  /** Deepest field nesting (0: no limit). */
  graphqlMaxDepth: number;
  /** Aliased fields in an operation (0: no limit). */
  graphqlMaxAliases: number;
  /** Estimated REST calls of an operation, checked before it runs (0: no limit). */
  graphqlMaxCost: number;
  /** Whether introspection is answered. */
  graphqlIntrospection: boolean;
  /** Whether browsers get a minimal local query page at GET /graphql. */
  graphqlLandingPage: boolean;
  /** Largest document (query text) in bytes, refused before it is parsed. */
  graphqlMaxDocumentBytes: number;
  /** Largest variables object in bytes of JSON. */
  graphqlMaxVariablesBytes: number;
  /** What one `__schema` introspection field counts towards the cost limit. */
  graphqlIntrospectionCost: number;
  /** Deepest nesting of a JSON body (`LOOKOUT_MAX_JSON_DEPTH`): GraphQL variables may nest one level more. */
  maxJsonDepth: number;
  /** Invalid keys an error answer lists at most. */
  maxErrorIssues: number;
}
