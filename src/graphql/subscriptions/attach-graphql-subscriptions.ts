import type { FastifyInstance } from 'fastify';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { GraphqlSettings } from '../graphql-settings.js';
import { hashApiKey } from '../../domain/api-key.js';
import type { EventBus } from '../../events/event-bus.js';
import { limitError } from '../cost-plugin.js';
import { createInProcessDispatcher } from '../create-in-process-dispatcher.js';
import { createRemoteEventSources } from '../create-remote-event-source.js';
import { DEFAULT_INTROSPECTION_COST, measureOperation } from '../operation-measure.js';
import { DEFAULT_REQUEST_SIZE_LIMITS, variablesDepthLimit } from '../request-size-error.js';
import { documentLimitsOf } from '../document-limit-error.js';
import { createBusEventSources } from './create-bus-event-sources.js';
import { createRestAuthenticator } from './create-rest-authenticator.js';
import { createSubscriptionServer, type SubscriptionServer } from './create-subscription-server.js';

/** Options of attachGraphqlSubscriptions. */
export interface GraphqlSubscriptionsOptions {
  app: FastifyInstance;
  /** The GraphQL layer's executable schema, with `subscriptionResolvers` merged in. */
  schema: GraphQLSchema;
  bus: EventBus;
  config: Pick<GraphqlSettings, 'graphqlBackendUrl' | 'graphqlMaxDepth' | 'graphqlMaxAliases' | 'graphqlMaxCost'>
    & Partial<Pick<GraphqlSettings, 'graphqlIntrospectionCost' | 'graphqlMaxDocumentBytes' | 'graphqlMaxVariablesBytes' | 'maxJsonDepth'>>;
  logger: Logger;
  /** Context of queries and mutations sent over a socket: the HTTP endpoint's context factory. */
  contextFromHeaders?: (headers: Record<string, string>) => object;
}

/**
 * graphql-ws on the app's HTTP server at /graphql. Sockets authenticate against the REST backend
 * (GRAPHQL_BACKEND_URL, default this process); events come from this process's bus, or from the
 * backend's `GET /v1/events/stream` when GRAPHQL_BACKEND_URL names another service. Closed with the app.
 */
export function attachGraphqlSubscriptions({ app, schema, bus, config, logger, contextFromHeaders }: GraphqlSubscriptionsOptions): SubscriptionServer {
  const remote = config.graphqlBackendUrl;
  const limits = { maxDepth: config.graphqlMaxDepth, maxAliases: config.graphqlMaxAliases, maxCost: config.graphqlMaxCost };
  const measure = { introspectionCost: config.graphqlIntrospectionCost ?? DEFAULT_INTROSPECTION_COST };
  // This process's own service is asked in-process, as the HTTP layer's REST client does.
  const ownService = remote ? undefined : createInProcessDispatcher(app);
  const authenticate = createRestAuthenticator(remote ?? ownService!);
  const server = createSubscriptionServer({
    server: app.server,
    schema,
    eventSources: remote ? createRemoteEventSources(remote, { logger }) : createBusEventSources(bus),
    authenticate,
    logger,
    operationContext: contextFromHeaders,
    // The HTTP endpoint's limits hold over sockets too.
    sizeLimits: {
      maxDocumentBytes: config.graphqlMaxDocumentBytes ?? DEFAULT_REQUEST_SIZE_LIMITS.maxDocumentBytes,
      maxVariablesBytes: config.graphqlMaxVariablesBytes ?? DEFAULT_REQUEST_SIZE_LIMITS.maxVariablesBytes,
      maxVariablesDepth: variablesDepthLimit(config.maxJsonDepth),
    },
    documentLimits: documentLimitsOf(config),
    checkOperation: (document, operationName, variables) => {
      const error = limitError(measureOperation(schema, document, operationName, variables, measure), limits);
      if (!error) return null;
      const { http: _http, ...extensions } = error.extensions;
      return new GraphQLError(error.message, { extensions });
    },
  });
  // A revoked key's sockets close at once, and it must authenticate again to open another. (With
  // GRAPHQL_BACKEND_URL the bus is not the backend's: its sockets end within the authenticator's 10 s.)
  const unsubscribe = bus.subscribe('apiKeyRevoked', (event) => {
    authenticate.forgetAll();
    const closed = server.closeWhere((headers) => bearerHash(headers.authorization) === event.keyHash);
    if (closed > 0) logger.info({ accountId: event.accountId, keyId: event.keyId, sockets: closed }, 'graphql-ws sockets of a revoked API key closed');
  });
  // A member who left or a session that ended stops receiving at once: every socket of the account
  // (every socket, for ended sessions) is asked again, with nothing served from the cache. A check
  // that fails to answer keeps the socket: the next change, or its reconnection, decides.
  const unsubscribeAccess = bus.subscribe('accessChanged', (event) => {
    authenticate.forgetAll();
    void server.recheck(async (headers) => (await authenticate({ ...headers })) !== null, event.sessionIds.length > 0 ? null : event.accountId)
      .then((closed) => {
        if (closed > 0) logger.info({ accountId: event.accountId, userId: event.userId, sockets: closed }, 'graphql-ws sockets whose access ended closed');
      });
  });
  // Before the HTTP server closes: it would otherwise wait on upgraded sockets.
  app.addHook('preClose', async () => {
    unsubscribe();
    unsubscribeAccess();
    await server.close();
    await authenticate.close();
    await ownService?.close();
  });
  return server;
}

/** The hash of a `Bearer <key>` header's key, as the service stores keys. */
function bearerHash(authorization: string | undefined): string | null {
  const match = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return match ? hashApiKey(match[1]!) : null;
}
