/** An audit log entry as stored (migration 035), as the list reads it. */
export interface AuditLogRow {
  /** bigserial, read as text: ids past 2^53 stay exact. */
  id: string;
  at: Date;
  actor_kind: string;
  actor_id: string | null;
  actor_label: string;
  via: string;
  ip: string | null;
  action: string;
  resource_type: string;
  resource_id: string;
  fields: string[];
}
