import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, AUDIT_VIAS } from '../domain/audit-actor.js';
import type { AuditLogRow } from './audit-log-row.js';
import { DateTime } from './check-views.js';
import { ref } from './response-shape.js';

/** One entry of the audit log: who changed which resource, when, from where, and which fields (names only). */
export const AuditLogEntry = {
  $id: 'AuditLogEntry',
  type: 'object',
  description: 'One change to one resource: one API write, deploy step or runner state change is one entry. Field names only, never values',
  required: ['id', 'at', 'actor', 'via', 'ip', 'action', 'resourceType', 'resourceId', 'fields'],
  properties: {
    id: { type: 'string', description: 'Increases with each entry; the cursor of the list' },
    at: DateTime,
    actor: {
      type: 'object',
      required: ['kind', 'id', 'label'],
      properties: {
        kind: { type: 'string', enum: [...AUDIT_ACTOR_KINDS], description: 'user (a person, also through a personal key), key (a service key) or system (runner, background jobs)' },
        id: { type: ['string', 'null'], description: "The person's or key's id; null for the system" },
        label: { type: 'string', description: "A person's email or a key's name" },
      },
    },
    via: { type: 'string', enum: [...AUDIT_VIAS] },
    ip: { type: ['string', 'null'], description: "The client's address (LOOKOUT_TRUST_PROXY says which proxies are believed)" },
    action: { type: 'string', enum: [...AUDIT_ACTIONS] },
    resourceType: { type: 'string', description: 'check, check_group, alert_channel, variable, snippet, status_page, … (README "Audit log")' },
    resourceId: { type: 'string', description: "The resource's id (a variable's key)" },
    fields: { type: 'array', items: { type: 'string' }, description: 'Names of the fields set or changed (`secrets.url`: a key of a stored object); empty for a delete' },
  },
};

/** A page of `GET /v1/accounts/me/audit-log`. */
export const AuditLogPage = {
  $id: 'AuditLogPage',
  type: 'object',
  description: 'Audit log entries, newest first; nextId null on the last page',
  required: ['length', 'entries', 'nextId'],
  properties: {
    length: { type: 'integer' },
    entries: { type: 'array', items: ref('AuditLogEntry') },
    nextId: { type: ['string', 'null'] },
  },
};

/** Schemas of this file registered as named components, in dependency order. */
export const AUDIT_LOG_VIEW_SCHEMAS = [AuditLogEntry, AuditLogPage];

/** The view of a stored entry. */
export function toAuditLogEntryView(row: AuditLogRow) {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { kind: row.actor_kind, id: row.actor_id, label: row.actor_label },
    via: row.via,
    ip: row.ip,
    action: row.action,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    fields: row.fields,
  };
}
