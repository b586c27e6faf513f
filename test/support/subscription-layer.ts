import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildExecutableSchema, mergeResolvers } from '../../src/graphql/build-executable-schema.js';
import { CORE_RESOLVERS, loadTypeDefs } from '../../src/graphql/create-graphql.js';
import { createRemoteEventSources } from '../../src/graphql/create-remote-event-source.js';
import { createRestAuthenticator } from '../../src/graphql/subscriptions/create-rest-authenticator.js';
import {
  createSubscriptionServer, type SubscriptionServer, type SubscriptionServerOptions,
} from '../../src/graphql/subscriptions/create-subscription-server.js';
import { SUBSCRIPTION_RESOLVER_MODULES } from '../../src/graphql/subscriptions/subscription-resolver-modules.js';
import type { TestServer } from './test-server.js';

/** A graphql-ws server on a port of its own, apart from the service it serves. */
export interface SubscriptionLayer {
  url: string;
  server: Server;
  subscriptions: SubscriptionServer;
  close(): Promise<void>;
}

/**
 * Starts a subscription layer in front of `service` as a separate deployment runs it: the layer's
 * executable schema as createGraphql builds it, events from the service's event stream and keys
 * checked against its REST API, both over HTTP. `options` override any of those (limits, timers,
 * an unreachable authenticator).
 */
export async function startSubscriptionLayer(service: TestServer, options: Partial<Omit<SubscriptionServerOptions, 'server'>> = {}): Promise<SubscriptionLayer> {
  const server = createServer((_req, res) => res.writeHead(404).end());
  const subscriptions = createSubscriptionServer({
    server,
    schema: buildExecutableSchema(loadTypeDefs(), mergeResolvers([...CORE_RESOLVERS, ...SUBSCRIPTION_RESOLVER_MODULES])),
    eventSources: createRemoteEventSources(service.url),
    authenticate: createRestAuthenticator(service.url),
    logger: service.lookout.logger,
    ...options,
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    subscriptions,
    async close() {
      await subscriptions.close();
      server.close();
    },
  };
}
