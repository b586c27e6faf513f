import Type from 'typebox';
import { AUDIT_ACTIONS } from '../domain/audit-actor.js';

/** Query of `GET /v1/accounts/me/audit-log`: filters (all optional, combined with AND) and the cursor. */
export const AuditLogQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  nextId: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$', description: 'The nextId of the previous page' })),
  resourceType: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z_]+$', description: 'check, check_group, alert_channel, …' })),
  resourceId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  actorId: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "A person's or key's id" })),
  action: Type.Optional(Type.Enum([...AUDIT_ACTIONS])),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Entries at or after this time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Entries before this time' })),
}, { additionalProperties: false });
export type AuditLogQueryType = Type.Static<typeof AuditLogQuery>;
