import type { Principal } from './principal.js';

/** Ways a change reaches Lookout, as the audit log names them. */
export const AUDIT_VIAS = ['rest', 'graphql', 'console', 'cli', 'deploy', 'runner', 'system'] as const;
export type AuditVia = (typeof AUDIT_VIAS)[number];

/** What an audit entry says was done to its resource. */
export const AUDIT_ACTIONS = ['create', 'update', 'delete'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who an entry names: a person, a key acting without one, or Lookout itself (runner, jobs). */
export const AUDIT_ACTOR_KINDS = ['user', 'key', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/**
 * The author of the writes of one request, as the store hands it to the audit trigger
 * (`lookout.actor`, migration 035). Never a credential: ids and a label people read.
 */
export interface AuditActor {
  kind: AuditActorKind;
  /** The person's id, else the key's; null for the system. */
  id: string | null;
  /** A person's email or a key's name. */
  label: string;
  via: AuditVia;
  /** The client's address as the server sees it (LOOKOUT_TRUST_PROXY). */
  ip: string | null;
}

/**
 * The actor of a request made by `principal`: the person when there is one (a personal key or a
 * session acts as its person), else the key.
 */
export function auditActorOf(principal: Principal, via: AuditVia, ip: string | null): AuditActor {
  if (principal.userId) return { kind: 'user', id: principal.userId, label: principal.label, via, ip };
  return { kind: 'key', id: principal.keyId, label: principal.label, via, ip };
}
