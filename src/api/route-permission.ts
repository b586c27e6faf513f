import type { FastifyRequest } from 'fastify';
import { LookoutError } from '../domain/lookout-error.js';
import { ROLE_NAMES, roleAllows, type Permission, type Role } from '../domain/roles.js';

const LEAST_ROLE_NAME: Record<Exclude<Permission, 'self'>, string> = {
  read: ROLE_NAMES.READ_ONLY,
  run: ROLE_NAMES.READ_RUN,
  write: ROLE_NAMES.READ_WRITE,
  manage: ROLE_NAMES.ADMIN,
  own: ROLE_NAMES.OWNER,
};

/**
 * What a route needs: what it declares (`config.permission`), else `read` for reads and `write`
 * for everything else, so a new write route is closed to readers unless it says otherwise.
 */
export function routePermission(method: string, declared: Permission | undefined): Permission {
  if (declared) return declared;
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/**
 * The one place roles are enforced for REST, and through it for GraphQL (its resolvers call these
 * routes with the caller's credentials), the console and the CLI. Refuses with 403 `ROLE_FORBIDS`.
 */
export function enforceRole(req: FastifyRequest): void {
  const permission = routePermission(req.method, req.routeOptions.config?.permission);
  const role: Role = req.principal.role;
  if (roleAllows(role, permission)) return;
  const least = LEAST_ROLE_NAME[permission as Exclude<Permission, 'self'>];
  throw new LookoutError('FORBIDDEN', `Your role (${ROLE_NAMES[role]}) may not do this: it needs ${least} or above`, {
    attributes: { code: 'ROLE_FORBIDS', role, permission },
  });
}
