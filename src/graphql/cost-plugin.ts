import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { GraphqlContext } from './context.js';
import { measureReadsVariables } from './measure-reads-variables.js';
import { measureOperation, type MeasureOptions, type OperationMeasure } from './operation-measure.js';

/** Limits an operation is held to before it runs; 0 turns a limit off. */
export interface OperationLimits {
  /** Deepest nesting of fields (`GRAPHQL_MAX_DEPTH`). */
  maxDepth: number;
  /** Aliased fields (`GRAPHQL_MAX_ALIASES`). */
  maxAliases: number;
  /** Estimated REST calls (`GRAPHQL_MAX_COST`). */
  maxCost: number;
}

/** The first limit `measure` breaks, as the coded error refusing the operation (HTTP 400); null when within all. */
export function limitError(measure: OperationMeasure, limits: OperationLimits): GraphQLError | null {
  const checks = [
    ['QUERY_TOO_DEEP', measure.depth, limits.maxDepth, `The operation is nested ${measure.depth} levels deep`],
    ['TOO_MANY_ALIASES', measure.aliases, limits.maxAliases, `The operation uses ${measure.aliases} aliases`],
    ['QUERY_TOO_COSTLY', measure.cost, limits.maxCost, `The operation may make up to ${measure.cost} REST calls`],
  ] as const;
  for (const [code, value, limit, message] of checks) {
    if (limit > 0 && value > limit) {
      return new GraphQLError(`${message}; at most ${limit} are allowed`, { extensions: { code, limit, value, http: { status: 400 } } });
    }
  }
  return null;
}

/** Measures of one parsed document by operation name, or null when they depend on the variables. */
type DocumentMeasures = Map<string, OperationMeasure> | null;

/**
 * measureOperation, remembered per parsed document when its measure cannot depend on the variables
 * (measureReadsVariables): Apollo hands every request of the same query text the same validated
 * DocumentNode from its document store, so a repeated operation is measured once. Held weakly: a
 * document Apollo's store drops is dropped here too.
 */
export function createMeasureCache(schema: GraphQLSchema, options: MeasureOptions) {
  const byDocument = new WeakMap<DocumentNode, DocumentMeasures>();
  return (document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | null | undefined): OperationMeasure => {
    let measures = byDocument.get(document);
    if (measures === undefined) {
      measures = measureReadsVariables(document) ? null : new Map();
      byDocument.set(document, measures);
    }
    if (measures === null) return measureOperation(schema, document, operationName, variables, options);
    const key = operationName ?? '';
    let measure = measures.get(key);
    if (!measure) {
      measure = measureOperation(schema, document, operationName, variables, options);
      measures.set(key, measure);
    }
    return measure;
  };
}

/**
 * Measures each operation once it is parsed, validated and chosen, before any resolver runs, and
 * refuses it with QUERY_TOO_DEEP, TOO_MANY_ALIASES or QUERY_TOO_COSTLY (HTTP 400) past a limit.
 * Every response reports in `extensions.cost` the REST calls used, the budget and the estimate.
 */
export function createCostPlugin({ limits, budget, measure: measureOptions = {} }: {
  limits: OperationLimits;
  budget: number;
  /** How introspection is costed (`GRAPHQL_INTROSPECTION_COST`). */
  measure?: MeasureOptions;
}): ApolloServerPlugin<GraphqlContext> {
  // One cache per schema (Apollo serves one; a gateway may swap it).
  let cached: { schema: GraphQLSchema; measure: ReturnType<typeof createMeasureCache> } | undefined;
  const measureOf = (schema: GraphQLSchema) => {
    if (cached?.schema !== schema) cached = { schema, measure: createMeasureCache(schema, measureOptions) };
    return cached.measure;
  };
  return {
    async requestDidStart() {
      let estimated: number | undefined;
      return {
        async didResolveOperation({ schema, document, operationName, request }) {
          const measure = measureOf(schema)(document, operationName, request.variables);
          estimated = measure.cost;
          const error = limitError(measure, limits);
          if (error) throw error;
        },
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single') return;
          const rest = (contextValue as Partial<GraphqlContext>).rest;
          response.body.singleResult.extensions = {
            ...response.body.singleResult.extensions,
            cost: { restCalls: rest?.calls ?? 0, budget: rest?.budget ?? budget, ...(estimated === undefined ? {} : { estimated }) },
          };
        },
      };
    },
  };
}
