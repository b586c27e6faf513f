import Fastify, { LogController, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { Api, ApiContext } from './api-context.js';
import { createAuthenticator } from './authenticate.js';
import { enforceRole } from './route-permission.js';
import { installAuditActor } from './audit-actor-hook.js';
import { errorBody, installErrorHandling } from './http-errors.js';
import { decodeRequestBodies } from './decode-request-body.js';
import { validatorCompiler } from '../contract/validation.js';
import { createInputRules } from './input-rules.js';
import { ROUTE_MODULES } from './routes.js';
import { metricsRoutes } from './metrics-routes.js';
import { serviceRoutes } from './service-routes.js';
import { redisWithFallbackStore } from './redis-with-fallback-store.js';
import { createRedisConnection } from '../events/create-redis-connection.js';
import { API_TAGS } from '../contract/api-tags.js';
import { NAMED_SCHEMAS } from '../contract/named-schemas.js';
import { withSharedErrorResponses } from '../contract/shared-error-responses.js';
import { withUniqueOperationIds } from '../contract/unique-operation-ids.js';

/** Options of the REST API server. */
export interface ApiOptions {
  context: ApiContext;
  logger: Logger;
}

/** Whether a route takes the shared input rules; GraphQL answers in its own shape and opts out (`config.inputRules: false`). */
function inputRulesApply(req: FastifyRequest): boolean {
  return (req.routeOptions.config as { inputRules?: boolean } | undefined)?.inputRules !== false;
}

/** Trusts the `hops` proxies nearest to this server (a hop count, as fastify's `trustProxy` reads one). */
function hopsTrusted(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/**
 * A set of named schemas by their ids: fastify hands each route a fresh copy of the server's, and
 * every server of a process registers the same NAMED_SCHEMAS, so the ids name the content (the
 * schemas' whole text, made for each of ~600 routes, cost a sixth of a second per start).
 */
function schemasKey(schemas: unknown): string {
  return schemas !== null && typeof schemas === 'object' ? Object.keys(schemas).sort().join(',') : String(schemas);
}

/** Compiled response serializers by the named schemas they resolve against, then by response schema. */
const serializers = new Map<string, Map<string, (doc: unknown) => string>>();

/**
 * Fastify's own serializer factory, compiling each distinct response schema once per process: most
 * routes answer the same `{$ref: 'Error#'}` for six statuses, and every server of a process (the
 * test suites start hundreds) shares the named components, so compiling per route and status
 * would repeat the same work about a thousand times per server.
 */
function cachedSerializerFactory(...[externalSchemas, options]: Parameters<ReturnType<typeof SerializerSelector>>) {
  const compile = SerializerSelector()(externalSchemas, options);
  const key = schemasKey(externalSchemas) + JSON.stringify(options ?? null);
  const compiled = serializers.get(key) ?? new Map<string, (doc: unknown) => string>();
  serializers.set(key, compiled);
  return (route: { schema?: unknown; method: string; url: string; httpStatus: string }) => {
    // Compiled on the first answer of its kind, not at start: most routes of a process never answer.
    let serialize: ((doc: unknown) => string) | undefined;
    return (doc: unknown) => {
      if (!serialize) {
        const schemaKey = JSON.stringify(route.schema);
        serialize = compiled.get(schemaKey) ?? compile(route);
        compiled.set(schemaKey, serialize);
      }
      return serialize(doc);
    };
  };
}

/** Builds the REST API (not listening yet): conventions, auth, rate limits, OpenAPI and every route. */
export async function createApi({ context, logger }: ApiOptions): Promise<Api> {
  const { config, store } = context;
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: config.bodyLimit,
    // request.ip and request.protocol read X-Forwarded-For/-Proto only from the proxies trusted here.
    trustProxy: typeof config.trustProxy === 'number' ? hopsTrusted(config.trustProxy) : config.trustProxy,
    // Per-request logs only when debugging: at thousands of requests a second they would dominate.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Client-supplied request ids make request logs joinable across the GraphQL layer and the service.
    requestIdHeader: 'x-request-id',
    schemaController: { compilersFactory: { buildSerializer: cachedSerializerFactory } },
    // A path that is not valid percent-encoded UTF-8 (`%ED%A0%80`, a lone surrogate) is refused by the
    // router before any route: answer it in the conventions.md shape like every other 400.
    frameworkErrors: (err, _req, reply) => {
      const status = typeof (err as { statusCode?: number }).statusCode === 'number' ? (err as { statusCode: number }).statusCode : 400;
      const message = err.code === 'FST_ERR_BAD_URL' ? 'The URL path is not valid percent-encoded UTF-8' : err.message;
      (reply as unknown as { code(n: number): { send(b: unknown): void } }).code(status).send(errorBody(status, message, status === 400 ? { validation: { source: 'params', keys: [], issues: [], omitted: 0 } } : {}));
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as Api;

  // A keep-alive socket whose request is in flight when the server closes would hold close() open
  // until its client leaves: answers sent while closing ask the client to close the connection.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app, { maxIssues: config.maxErrorIssues });
  decodeRequestBodies(app);
  const inputRules = createInputRules({ maxDepth: config.maxJsonDepth, maxIssues: config.maxErrorIssues });

  // Clients send `Content-Type: application/json` on bodiless GET and DELETE requests: an empty body is no body.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    jsonParser(req, body as string, (err, parsed) => {
      if (err) return done(err, undefined);
      // Routes that answer in another shape (GraphQL) apply their own rules to what they forward.
      if (!inputRulesApply(req)) return done(null, parsed);
      const refused = inputRules.check(parsed, 'payload');
      return refused ? done(refused, undefined) : done(null, parsed);
    });
  });

  // Named components: routes answer `{$ref: '<name>#'}`, which both the serializer and the document resolve.
  for (const schema of NAMED_SCHEMAS) app.addSchema(schema);
  // Errors every route shares (auth, validation, rate limit) are declared here, not in each route.
  app.addHook('onRoute', (route) => withSharedErrorResponses(route, { rateLimited: config.rateLimitMax > 0 }));

  await app.register(swagger, {
    // Components keep their names (`Check`, not `def-3`): generated clients name their types after them.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documents) => withUniqueOperationIds((documents as unknown as { openapiObject: Record<string, any> }).openapiObject) as never,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lookout API',
        version: '1',
        description: 'Uptime and synthetic monitoring: checks, groups, alert channels, results and status pages.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: config.publicUrl.replace(/\/$/, ''), description: 'This server (LOOKOUT_PUBLIC_URL)' }],
      tags: API_TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key: a service key (its role) or a personal key (its person\'s role)' },
          account: { type: 'apiKey', in: 'header', name: 'X-Lookout-Account' },
          session: {
            type: 'apiKey', in: 'cookie', name: 'lookout_session',
            description: 'The console\'s session (POST /v1/session). Writes also send the session\'s CSRF token in X-Lookout-Csrf.',
          },
        },
      },
      security: [{ bearer: [], account: [] }, { session: [] }],
    },
  });

  const authenticate = createAuthenticator(store, context.bus);
  app.addHook('onClose', async () => authenticate.close());
  context.forgetApiKey = authenticate.forget;
  app.decorateRequest('principal', null as never);
  app.addHook('onRequest', async (req) => {
    if (req.is404) return;
    if (!req.routeOptions.config?.public) {
      req.principal = await authenticate(req);
      enforceRole(req);
    }
    // Path and query text the store cannot hold is refused here, for every route alike.
    const refused = inputRules.check(req.params, 'params') ?? inputRules.check(req.query, 'query');
    if (refused && inputRulesApply(req)) throw refused;
  });
  installAuditActor(app);

  if (config.rateLimitMax > 0) {
    // Several processes share one budget through Redis; while Redis is away each process counts on
    // its own (redisWithFallbackStore) rather than waiting on Redis or letting every request through.
    const redis = config.redisUrl
      ? createRedisConnection({ url: config.redisUrl, role: 'rate limit store', whileDown: 'rate limits are counted per process', logger })
      : undefined;
    if (redis) {
      // Awaited so the first requests count in Redis with the other processes' (a process that
      // counted them locally would let a client past the shared budget). A Redis down at start
      // refuses at once (or after the connect timeout): it comes back later, the fallback counts meanwhile.
      await redis.connect().catch(() => {});
      app.addHook('onClose', async () => { redis.disconnect(); });
    }
    await app.register(rateLimit, {
      global: true,
      ...(redis ? { store: redisWithFallbackStore(redis, 'lookout:rate-limit:'), skipOnError: true } : {}),
      max: config.rateLimitMax,
      timeWindow: 60_000,
      hook: 'preValidation',
      // One budget per route per account (public routes: per client address).
      keyGenerator: (req) => `${req.principal?.accountId ?? req.ip}|${req.method}|${req.routeOptions.url}`,
      addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true },
      errorResponseBuilder: (_req, ctx) => ({
        ...errorBody(429, `Rate limit exceeded: ${ctx.max} requests per 60 seconds; retry in ${ctx.after}`),
        attributes: { limit: ctx.max, window: 60, retryAfter: Math.ceil(ctx.ttl / 1000) },
      }),
    });
  }

  // A runner-only process serves no API: its port answers health and metrics.
  for (const register of config.role === 'runner' ? [metricsRoutes] : ROUTE_MODULES) register(app, context);

  serviceRoutes(app, context);
  return app;
}

export type { TypeBoxTypeProvider };
