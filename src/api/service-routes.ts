import type { Api, ApiContext } from './api-context.js';

const PUBLIC = { public: true, rateLimit: false } as never;

/** Routes about the process itself, outside the API's auth and rate limits: the OpenAPI document, liveness and readiness. */
export function serviceRoutes(app: Api, context: ApiContext): void {
  app.get('/openapi.json', { schema: { hide: true }, config: PUBLIC }, async () => app.swagger());
  app.get('/swagger.json', { schema: { hide: true }, config: PUBLIC }, async (_req, reply) => {
    reply.header('Deprecation', 'true').header('Link', '</openapi.json>; rel="successor-version"');
    return app.swagger();
  });
  // Liveness: the process answers. Says what the process does and whether it leads the schedule.
  app.get('/health', { schema: { hide: true }, config: PUBLIC }, async () => ({
    status: 'ok', ...(context.processStatus?.() ?? {}),
  }));
  // Readiness: what the process depends on answers now (the database, and Redis when configured).
  app.get('/health/ready', { schema: { hide: true }, config: PUBLIC }, async (_req, reply) => {
    const probe = async (work: () => Promise<unknown>) => {
      try {
        await Promise.race([work(), new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 2 s')), 2_000).unref())]);
        return 'ok';
      } catch (err) {
        return err instanceof Error ? err.message : String(err);
      }
    };
    const checks: Record<string, string> = { database: await probe(() => context.store.db.query('SELECT 1')) };
    if (context.bus.ping) checks.redis = await probe(() => context.bus.ping!());
    const ready = Object.values(checks).every((c) => c === 'ok');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });
}
