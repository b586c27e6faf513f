import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { buildExecutableSchema, mergeResolvers, type ResolverMap } from './build-executable-schema.js';
import { createContextFactory, type GraphqlContext, type IncomingHeaders } from './context.js';
import { createErrorFormatter } from './errors.js';
import { createRestClient, type RestClient } from './rest-client.js';
import { checkGroupResolvers } from './resolvers/check-group-resolvers.js';
import { checkMutationResolvers } from './resolvers/check-mutation-resolvers.js';
import { checkResolvers } from './resolvers/check-resolvers.js';
import { overviewResolvers } from './resolvers/overview-resolvers.js';
import { coreNodeTypes, createQueryResolvers } from './resolvers/query-resolvers.js';
import type { NodeType } from './node-type.js';

/** The path of the GraphQL endpoint (HTTP here, graphql-ws on the same path). */
export const GRAPHQL_PATH = '/graphql';

/** The SDL of every module in schema/, in file-name order. */
export function loadTypeDefs(): string {
  const dir = new URL('../../schema/', import.meta.url);
  return readdirSync(dir).filter((f) => f.endsWith('.graphql')).sort().map((f) => readFileSync(new URL(f, dir), 'utf8')).join('\n');
}

/** Types `node(id)` can refetch, from every resolver module. */
export const NODE_TYPES: NodeType[] = [...coreNodeTypes];

/** Resolvers of the HTTP part of the graph (queries and mutations). */
export const CORE_RESOLVERS = [
  createQueryResolvers(NODE_TYPES), checkResolvers, checkGroupResolvers, checkMutationResolvers, overviewResolvers,
] as unknown as ResolverMap[];

/** Options of createGraphql. */
export interface GraphqlOptions {
  app: FastifyInstance;
  config: Pick<Config, 'graphqlBackendUrl' | 'graphqlRestBudget'>;
  logger: Logger;
  /** More resolver maps (subscriptions) merged over the core ones. */
  resolvers?: ResolverMap[];
}

/** What the GraphQL layer exposes to the rest of the process (subscriptions reuse schema and context). */
export interface Graphql {
  /** The executable schema. */
  schema: GraphQLSchema;
  /** Context of one operation from request headers or graphql-ws connection params (lower-case header names). */
  contextFromHeaders(headers: IncomingHeaders): GraphqlContext;
  /** The REST client (pools per backend), closed with the Fastify app. */
  client: RestClient;
}

/** This process's own address once listening: the default backend. */
function ownUrl(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo | null;
  if (!address) throw new Error('GraphQL layer used before the server listens: set GRAPHQL_BACKEND_URL or listen first');
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/**
 * Registers Apollo Server at /graphql on the existing Fastify app. The route is public for the REST
 * auth hook: the caller's Authorization and account headers are forwarded on every REST call instead,
 * so the REST API authenticates (and rate-limits) each call as the caller.
 */
export async function createGraphql({ app, config, logger, resolvers = [] }: GraphqlOptions): Promise<Graphql> {
  const schema = buildExecutableSchema(loadTypeDefs(), mergeResolvers([...CORE_RESOLVERS, ...resolvers]));
  const client = createRestClient({ baseUrl: () => config.graphqlBackendUrl ?? ownUrl(app), budget: config.graphqlRestBudget });
  const contextFromHeaders = createContextFactory({ client, logger });

  const costPlugin: ApolloServerPlugin<GraphqlContext> = {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single') return;
          const rest = (contextValue as Partial<GraphqlContext>).rest;
          response.body.singleResult.extensions = {
            ...response.body.singleResult.extensions,
            cost: { restCalls: rest?.calls ?? 0, budget: rest?.budget ?? config.graphqlRestBudget },
          };
        },
      };
    },
  };

  const apollo = new ApolloServer<GraphqlContext>({
    schema,
    formatError: createErrorFormatter(logger),
    includeStacktraceInErrorResponses: false,
    plugins: [costPlugin],
  });
  await apollo.start();

  app.route({
    method: ['GET', 'POST', 'OPTIONS'],
    url: GRAPHQL_PATH,
    schema: { hide: true },
    // The REST calls it makes are each authenticated and rate-limited as the caller.
    config: { public: true, rateLimit: false } as never,
    handler: fastifyApolloHandler(apollo, { context: async (req) => contextFromHeaders(req.headers) }),
  });
  app.addHook('onClose', async () => {
    await apollo.stop();
    await client.close();
  });
  return { schema, contextFromHeaders, client };
}
