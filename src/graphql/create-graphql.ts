import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { GraphqlSettings } from './graphql-settings.js';
import { createBoundedCache } from './bounded-cache.js';
import { buildExecutableSchema, mergeResolvers, type ResolverMap } from './build-executable-schema.js';
import { createCallerVerifier } from './create-caller-verifier.js';
import { createInProcessDispatcher } from './create-in-process-dispatcher.js';
import { createCostPlugin } from './cost-plugin.js';
import { createContextFactory, type GraphqlContext, type IncomingHeaders } from './context.js';
import { createErrorFormatter } from './errors.js';
import { createReferenceResolver } from './federation.js';
import { landingPagePlugin } from './landing-page.js';
import { createGraphqlRouteGuard } from './graphql-route-guard.js';
import { createDocumentGuard } from './create-document-guard.js';
import { legacyJsonStatus } from './legacy-json-status.js';
import { loadTypeDefs } from './load-type-defs.js';
import { DEFAULT_INTROSPECTION_COST } from './operation-measure.js';
import { DEFAULT_REQUEST_SIZE_LIMITS, variablesDepthLimit } from './request-size-error.js';
import { documentLimitsOf, tooManyTokensError, type DocumentLimits } from './document-limit-error.js';
import { createRestClient, type RestClient } from './rest-client.js';
import { checkGroupResolvers } from './resolvers/check-group-resolvers.js';
import { checkMutationResolvers } from './resolvers/check-mutation-resolvers.js';
import { checkResolvers } from './resolvers/check-resolvers.js';
import { overviewResolvers } from './resolvers/overview-resolvers.js';
import { coreNodeTypes, createQueryResolvers } from './resolvers/query-resolvers.js';
import { alertChannelMutationResolvers } from './resolvers/alert-channel-mutation-resolvers.js';
import { alertChannelActionResolvers } from './resolvers/alert-channel-action-resolvers.js';
import { alertChannelNodeTypes, alertChannelResolvers } from './resolvers/alert-channel-resolvers.js';
import { alertNotificationResolvers } from './resolvers/alert-notification-resolvers.js';
import { groupMutationResolvers } from './resolvers/group-mutation-resolvers.js';
import { privateLocationNodeTypes, privateLocationResolvers } from './resolvers/private-location-resolvers.js';
import { snippetNodeTypes, snippetResolvers } from './resolvers/snippet-resolvers.js';
import { statusPageIncidentNodeTypes, statusPageIncidentResolvers } from './resolvers/status-page-incident-resolvers.js';
import { statusPageIncidentMutationResolvers } from './resolvers/status-page-incident-mutation-resolvers.js';
import { statusPageNodeTypes, statusPageResolvers } from './resolvers/status-page-resolvers.js';
import { statusPageMutationResolvers } from './resolvers/status-page-mutation-resolvers.js';
import { maintenanceNodeTypes, maintenanceResolvers } from './resolvers/maintenance-resolvers.js';
import { maintenanceMutationResolvers } from './resolvers/maintenance-mutation-resolvers.js';
import { dashboardNodeTypes, dashboardResolvers } from './resolvers/dashboard-resolvers.js';
import { dashboardMutationResolvers } from './resolvers/dashboard-mutation-resolvers.js';
import { clientCertificateMutationResolvers } from './resolvers/client-certificate-mutation-resolvers.js';
import { accountMutationResolvers } from './resolvers/account-mutation-resolvers.js';
import { apiKeyResolvers } from './resolvers/api-key-resolvers.js';
import { auditLogResolvers } from './resolvers/audit-log-resolvers.js';
import { memberResolvers } from './resolvers/member-resolvers.js';
import { runGroupResolvers } from './resolvers/run-group-resolvers.js';
import { projectMutationResolvers } from './resolvers/project-mutation-resolvers.js';
import { testSessionErrorGroupMutationResolvers } from './resolvers/test-session-error-group-mutation-resolvers.js';
import { projectNodeTypes, projectResolvers } from './resolvers/project-resolvers.js';
import { variableResolvers } from './resolvers/variable-resolvers.js';
import { publicBadgeResolvers } from './resolvers/public-badge-resolvers.js';
import { checkRunDataResolvers } from './resolvers/check-run-data-resolvers.js';
import { grpcCheckResolvers } from './resolvers/grpc-check-resolvers.js';
import { errorGroupNodeTypes, errorGroupResolvers } from './resolvers/error-group-resolvers.js';
import { resultNodeTypes, resultResolvers } from './resolvers/result-resolvers.js';
import { runCheckResolvers } from './resolvers/run-check-resolvers.js';
import { subscriptionEventResolvers } from './resolvers/subscription-event-resolvers.js';
import type { EventBus } from '../events/event-bus.js';
import { testSessionNodeTypes, testSessionResolvers } from './resolvers/test-session-resolvers.js';
import type { NodeType } from './node-type.js';

/** The path of the GraphQL endpoint (HTTP here, graphql-ws on the same path). */
export const GRAPHQL_PATH = '/graphql';

export { loadTypeDefs };

/** Characters of query text automatic persisted queries keep at most (about 16 MB as UTF-16). */
const APQ_CACHE_CHARS = 8 * 1024 * 1024;

/** Types `node(id)` can refetch, from every resolver module. */
export const NODE_TYPES: NodeType[] = [...coreNodeTypes, ...alertChannelNodeTypes, ...snippetNodeTypes, ...privateLocationNodeTypes,
  ...resultNodeTypes, ...errorGroupNodeTypes, ...testSessionNodeTypes, ...statusPageIncidentNodeTypes,
  ...statusPageNodeTypes, ...maintenanceNodeTypes, ...dashboardNodeTypes, ...projectNodeTypes];

/** Resolvers of the HTTP part of the graph (queries and mutations). */
export const CORE_RESOLVERS = [
  createQueryResolvers(NODE_TYPES), checkResolvers, checkGroupResolvers, checkMutationResolvers, overviewResolvers,
  alertChannelResolvers, alertChannelMutationResolvers, alertChannelActionResolvers, alertNotificationResolvers, groupMutationResolvers,
  variableResolvers, snippetResolvers, privateLocationResolvers,
  resultResolvers, checkRunDataResolvers, errorGroupResolvers, testSessionResolvers, runCheckResolvers,
  statusPageIncidentResolvers, statusPageIncidentMutationResolvers,
  statusPageResolvers, statusPageMutationResolvers, maintenanceResolvers, maintenanceMutationResolvers,
  dashboardResolvers, dashboardMutationResolvers,
  projectResolvers, publicBadgeResolvers,
  grpcCheckResolvers,
  clientCertificateMutationResolvers, testSessionErrorGroupMutationResolvers, accountMutationResolvers, apiKeyResolvers, auditLogResolvers, memberResolvers, runGroupResolvers, projectMutationResolvers,
  // The event types are part of the schema whether or not this process serves subscriptions.
  subscriptionEventResolvers,
] as unknown as ResolverMap[];

/** Options of createGraphql. */
export interface GraphqlOptions {
  app: FastifyInstance;
  config: Pick<GraphqlSettings, 'graphqlBackendUrl' | 'graphqlRestBudget'> & Partial<Pick<GraphqlSettings,
    'graphqlMaxDepth' | 'graphqlMaxAliases' | 'graphqlMaxCost' | 'graphqlIntrospection' | 'graphqlLandingPage'
    | 'graphqlMaxDocumentBytes' | 'graphqlMaxVariablesBytes' | 'graphqlIntrospectionCost' | 'maxErrorIssues' | 'maxJsonDepth'>>;
  logger: Logger;
  /** More resolver maps (subscriptions) merged over the core ones. */
  resolvers?: ResolverMap[];
  /** More Apollo plugins (metrics), after the built-in ones. */
  plugins?: ApolloServerPlugin<GraphqlContext>[];
  /** Where revoked keys are announced (`apiKeyRevoked`): callers this layer accepted are asked again at once. */
  bus?: Pick<EventBus, 'subscribe'>;
}

/** What the GraphQL layer exposes to the rest of the process (subscriptions reuse schema and context). */
export interface Graphql {
  /** The executable schema. */
  schema: GraphQLSchema;
  /** Context of one operation from request headers or graphql-ws connection params (lower-case header names). */
  contextFromHeaders(headers: IncomingHeaders, clientAddress?: string): GraphqlContext;
  /** The REST client (pools per backend), closed with the Fastify app. */
  client: RestClient;
}

/**
 * graphql-js ends variable coercion after 50 errors with one more error, which has neither a code nor
 * the variable's node Apollo recognises coercion errors by: it is the caller's input, not a bug.
 */
const TOO_MANY_VARIABLE_ERRORS = 'Too many errors processing variables';

/**
 * Apollo raises a few request errors with an HTTP status but no code (an APQ hash that does not match
 * its query): they are the caller's mistake, shown as BAD_REQUEST rather than masked as internal.
 */
function withUncodedRequestErrors(format: ReturnType<typeof createErrorFormatter>, limits: DocumentLimits): ReturnType<typeof createErrorFormatter> {
  return (formatted, error) => {
    // A parse stopped by maxTokens is a GRAPHQL_PARSE_FAILED to Apollo: it gets the limit's own code.
    const tokens = formatted.extensions?.code === 'GRAPHQL_PARSE_FAILED' ? tooManyTokensError(error, limits) : null;
    if (tokens) return { message: tokens.message, extensions: { code: tokens.extensions.code, limit: tokens.extensions.limit } };
    if (error instanceof GraphQLError && !error.path && error.message.startsWith(TOO_MANY_VARIABLE_ERRORS)) {
      return { message: formatted.message, extensions: { code: 'BAD_USER_INPUT' } };
    }
    const status = error instanceof GraphQLError ? (error.extensions?.http as { status?: number } | undefined)?.status : undefined;
    if (status && status >= 400 && status < 500 && formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
      return { ...formatted, extensions: { ...formatted.extensions, code: 'BAD_REQUEST' } };
    }
    return format(formatted, error);
  };
}

/**
 * Registers Apollo Server at /graphql on the existing Fastify app. The route is public for the REST
 * auth hook: the caller's Authorization and account headers are forwarded on every REST call instead,
 * so the REST API authenticates (and rate-limits) each call as the caller. Before Apollo sees a
 * request, the route's guard checks the caller with the REST API and the request's size
 * (graphql-route-guard.ts), so a refused caller or an oversized document is never parsed.
 */
export async function createGraphql({ app, config, logger, resolvers = [], plugins = [], bus }: GraphqlOptions): Promise<Graphql> {
  const schema = buildExecutableSchema(loadTypeDefs(), mergeResolvers([...CORE_RESOLVERS, ...resolvers]), {
    resolveReference: createReferenceResolver(NODE_TYPES) as never,
  });
  const remote = config.graphqlBackendUrl;
  // This process's own REST service is served in-process: no socket, the same hooks as over HTTP.
  const client = createRestClient({ backend: remote ? () => remote : createInProcessDispatcher(app), budget: config.graphqlRestBudget, maxErrorIssues: config.maxErrorIssues });
  const contextFromHeaders = createContextFactory({ client, logger });
  const documentLimits = documentLimitsOf(config);
  const verify = createCallerVerifier({ client });
  // A revoked key is refused at the door (401) from its next request, not let through for the cache's 30 s.
  const stopForgettingKeys = bus?.subscribe('apiKeyRevoked', () => verify.forgetAll());
  const stopForgettingAccess = bus?.subscribe('accessChanged', () => verify.forgetAll());
  const stopForgetting = () => {
    stopForgettingKeys?.();
    stopForgettingAccess?.();
  };
  app.addHook('onClose', async () => stopForgetting?.());
  const guard = createGraphqlRouteGuard({
    verify,
    limits: {
      maxDocumentBytes: config.graphqlMaxDocumentBytes ?? DEFAULT_REQUEST_SIZE_LIMITS.maxDocumentBytes,
      maxVariablesBytes: config.graphqlMaxVariablesBytes ?? DEFAULT_REQUEST_SIZE_LIMITS.maxVariablesBytes,
      maxVariablesDepth: variablesDepthLimit(config.maxJsonDepth),
    },
    checkDocument: createDocumentGuard(documentLimits),
  });

  const apollo = new ApolloServer<GraphqlContext>({
    schema,
    formatError: withUncodedRequestErrors(createErrorFormatter(logger), documentLimits),
    // The route's guard parsed the document with the same limit; this bounds a persisted query's.
    parseOptions: { maxTokens: documentLimits.maxTokens },
    includeStacktraceInErrorResponses: false,
    introspection: config.graphqlIntrospection ?? true,
    // A request is served only when a browser would have preflighted it: a content type other than
    // the three simple ones, or a header no simple request may carry. Authorization is one of those,
    // and every operation needs it, so API clients need no extra header.
    csrfPrevention: { requestHeaders: ['authorization', 'x-lookout-csrf', 'x-apollo-operation-name', 'apollo-require-preflight'] },
    // Automatic persisted queries, in a cache bounded to about 16 MB of text.
    persistedQueries: { cache: createBoundedCache(APQ_CACHE_CHARS), ttl: null },
    plugins: [
      createCostPlugin({
        budget: config.graphqlRestBudget,
        limits: { maxDepth: config.graphqlMaxDepth ?? 15, maxAliases: config.graphqlMaxAliases ?? 30, maxCost: config.graphqlMaxCost ?? 1000 },
        measure: { introspectionCost: config.graphqlIntrospectionCost ?? DEFAULT_INTROSPECTION_COST },
      }),
      landingPagePlugin(config.graphqlLandingPage ?? false),
      // Federation traces (ftv1) would hand a gateway error details formatError masks.
      ApolloServerPluginInlineTraceDisabled(),
      // No field carries @cacheControl, and the plugin hooks every resolved field (a dashboard
      // query resolves thousands): off, it takes nothing from each response.
      ApolloServerPluginCacheControlDisabled(),
      ...plugins,
    ],
  });
  await apollo.start();

  app.route({
    method: ['GET', 'POST', 'OPTIONS'],
    url: GRAPHQL_PATH,
    schema: { hide: true },
    // The REST calls it makes are each authenticated and rate-limited as the caller; the REST input
    // rules (answered in the REST error shape) apply to what those calls send, not to this request.
    config: { public: true, rateLimit: false, inputRules: false } as never,
    bodyLimit: guard.bodyLimit,
    onRequest: guard.onRequest,
    preHandler: guard.preHandler,
    errorHandler: guard.errorHandler,
    onSend: legacyJsonStatus,
    handler: fastifyApolloHandler(apollo, { context: async (req) => contextFromHeaders(req.headers, req.ip) }),
  });
  app.addHook('onClose', async () => {
    await apollo.stop();
    await client.close();
  });
  return { schema, contextFromHeaders, client };
}
