import type { Api, ApiContext } from './api-context.js';
import { AuditLogQuery } from '../contract/audit-log-schemas.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';
import { createAuditLogService } from '../service/audit-log-service.js';

const tags = ['Accounts'];

/** `GET /v1/accounts/me/audit-log`: who changed what in the account (README "Audit log"). Managers only. */
export function auditLogRoutes(app: Api, { store }: ApiContext): void {
  const auditLog = createAuditLogService({ store });
  app.get('/v1/accounts/me/audit-log', {
    config: { permission: 'manage' },
    schema: {
      operationId: 'listAuditLog', tags, summary: "The account's audit log, newest first (cursor)",
      description: 'Every change to the account\'s resources through REST, GraphQL, the console, the CLI and deploys, and the runner\'s state changes: '
        + 'who (person or key), what (resource type and id, action, names of the fields changed, never values), when and from where. '
        + 'Filters combine with AND; `from` is inclusive, `to` exclusive. Cursor pagination: `limit` (1–100, default 20) and the `nextId` of the previous page.',
      querystring: AuditLogQuery, response: responses({ 200: ref('AuditLogPage') }),
    },
  }, async (req) => auditLog.list(req.principal.accountId, req.query));
}
