import type { FastifyRequest } from 'fastify';
import { auditActorOf, type AuditVia } from '../domain/audit-actor.js';
import { openAuditScope } from '../store/audit-actor-scope.js';
import type { Api } from './api-context.js';

/** The header a client of ours names itself with: the GraphQL layer sends `graphql`, the console `console`. */
export const VIA_HEADER = 'x-lookout-via';

/**
 * How a request came in, for the audit log: the route's own say (deploys), then the header our own
 * clients send, then the checkly CLI's marks, else plain REST. Informational: a client can claim any
 * of these, as it can any user agent; who acted comes from its credentials only.
 */
export function auditViaOf(req: FastifyRequest): AuditVia {
  const routeVia = req.routeOptions.config?.auditVia;
  if (routeVia) return routeVia;
  const header = req.headers[VIA_HEADER];
  if (header === 'graphql' || header === 'console') return header;
  if (req.headers['x-checkly-source'] === 'CLI' || /^checkly\b/i.test(String(req.headers['user-agent'] ?? ''))) return 'cli';
  return 'rest';
}

/**
 * Runs each authenticated request's handler as its caller, so every write it makes is recorded with
 * who, how and from where (store/audit-actor-scope.ts). A preHandler: the principal is known by then,
 * and the handler is called from its `done`, inside the scope (fastify runs onRequest and the body
 * parser in other async contexts, which would lose it).
 */
export function installAuditActor(app: Api): void {
  app.addHook('preHandler', (req, reply, done) => {
    // Reads write nothing to audit: they open no scope (see openAuditScope for why that matters),
    // and add no per-request work beyond this test.
    if (!req.principal || req.method === 'GET' || req.method === 'HEAD') return done();
    const scope = openAuditScope(auditActorOf(req.principal, auditViaOf(req), req.ip));
    // Answered or abandoned: the request's writes are over either way (close is idempotent).
    reply.raw.once('finish', scope.close);
    reply.raw.once('close', scope.close);
    scope.run(done);
  });
}
