import type { AuditLogRow } from '../contract/audit-log-row.js';
import type { AuditAction, AuditActor } from '../domain/audit-actor.js';
import { SET_ACTOR_SQL } from './audit-actor-scope.js';
import type { Queryable } from './db.js';

/** What a list of the audit log is narrowed to; absent filters match everything. */
export interface AuditLogFilter {
  resourceType?: string;
  resourceId?: string;
  actorId?: string;
  action?: string;
  from?: Date;
  to?: Date;
}

/** A change to a person's sign-in, as recordPersonChange logs it. */
export interface PersonChange {
  action: AuditAction;
  /** `session` (begun or ended) or `person` (their password or second factor). */
  resourceType: 'session' | 'person';
  resourceId: string;
  /** The names of what changed (`password`, `totp`); never a value. */
  fields?: string[];
}

/**
 * The audit log. Entries of account resources are written by the database itself (the trigger of
 * migration 035), never here; this writes those of a person's own sign-in, which no account's
 * table holds, and reads and prunes them all.
 */
export function createAuditLogRepository(db: Queryable) {
  return {
    /**
     * Names who makes the rest of this transaction's changes. For a transaction whose author is
     * known only part-way through (single sign-on learns its person from the claims it checks);
     * a request's own actor is named without this. Outside a transaction it names nobody.
     */
    async nameActor(actor: AuditActor): Promise<void> {
      await db.query(SET_ACTOR_SQL, [JSON.stringify(actor)]);
    },

    /**
     * Records a change to a person's own sign-in (a session begun or ended, a new password, a second
     * factor turned on or off) in the log of every account they belong to: `users` and `sessions`
     * belong to no account, so no trigger sees them. Write it in the change's transaction. The
     * actor is the request's, else `actor` (a sign-in, whose request has none yet), else the
     * system. Field names only, as ever.
     */
    async recordPersonChange(userId: string, change: PersonChange, actor?: AuditActor): Promise<void> {
      // The request's actor is the one its transaction named (lookout.actor), read where the
      // trigger reads it: the JavaScript scope does not follow every store's transaction queue.
      await db.query(
        `INSERT INTO audit_log (account_id, actor_kind, actor_id, actor_label, via, ip, action, resource_type, resource_id, fields)
         SELECT m.account_id,
                coalesce(a.actor ->> 'kind', $2), CASE WHEN a.actor IS NULL THEN $3 ELSE a.actor ->> 'id' END,
                coalesce(a.actor ->> 'label', $4), coalesce(a.actor ->> 'via', $5), CASE WHEN a.actor IS NULL THEN $6 ELSE a.actor ->> 'ip' END,
                $7, $8, $9, $10::text[]
         FROM memberships m, (SELECT NULLIF(current_setting('lookout.actor', true), '')::jsonb AS actor) a
         WHERE m.user_id = $1
         ON CONFLICT (tx, account_id, resource_type, resource_id) DO NOTHING`,
        [userId, actor?.kind ?? 'system', actor?.id ?? null, actor?.label ?? 'Lookout', actor?.via ?? 'system', actor?.ip ?? null,
          change.action, change.resourceType, change.resourceId, change.fields ?? []],
      );
    },

    /** A page of the account's entries newest first, before entry `beforeId` when given. */
    list(accountId: string, filter: AuditLogFilter, limit: number, beforeId?: string): Promise<AuditLogRow[]> {
      // One statement for every combination of filters: a null parameter switches its filter off.
      return db.query<AuditLogRow>(
        `SELECT id::text AS id, at, actor_kind, actor_id, actor_label, via, ip, action, resource_type, resource_id, fields
         FROM audit_log
         WHERE account_id = $1
           AND ($2::text IS NULL OR resource_type = $2) AND ($3::text IS NULL OR resource_id = $3)
           AND ($4::text IS NULL OR actor_id = $4) AND ($5::text IS NULL OR action = $5)
           AND ($6::timestamptz IS NULL OR at >= $6) AND ($7::timestamptz IS NULL OR at < $7)
           AND ($8::bigint IS NULL OR id < $8)
         ORDER BY audit_log.id DESC LIMIT $9`,
        [accountId, filter.resourceType ?? null, filter.resourceId ?? null, filter.actorId ?? null, filter.action ?? null,
          filter.from ?? null, filter.to ?? null, beforeId ?? null, limit],
      );
    },

    /** Deletes a batch of entries older than `before` (LOOKOUT_AUDIT_RETENTION_DAYS); says how many went. */
    async deleteOlderThan(before: Date, batchSize: number): Promise<number> {
      const rows = await db.query(
        'DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < $1 ORDER BY at LIMIT $2) RETURNING 1',
        [before, batchSize],
      );
      return rows.length;
    },
  };
}
