import type { FastifyRequest } from 'fastify';
import type { SessionMeta } from '../service/session-service.js';
import { auditViaOf } from './audit-actor-hook.js';

/** Where a sign-in (or a reset by link) comes from: kept with the session and named in the audit log. */
export function sessionMetaOf(req: FastifyRequest): SessionMeta {
  return { ip: req.ip, userAgent: req.headers['user-agent'], via: auditViaOf(req) };
}
