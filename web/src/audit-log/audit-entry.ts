/** One audit log entry (`GET /v1/accounts/me/audit-log`): who changed which resource, when, from where, which fields. */
export interface AuditEntry {
  id: string;
  at: string;
  actor: { kind: 'user' | 'key' | 'system'; id: string | null; label: string };
  via: string;
  ip: string | null;
  action: 'create' | 'update' | 'delete';
  resourceType: string;
  resourceId: string;
  fields: string[];
}

/** A page of entries, newest first; nextId null on the last page. */
export interface AuditPage {
  entries: AuditEntry[];
  nextId: string | null;
}

/** How entries name the way a change came, in words. */
export const VIA_WORDS: Record<string, string> = {
  rest: 'REST API', graphql: 'GraphQL API', console: 'console', cli: 'CLI', deploy: 'deploy', runner: 'runner', system: 'Lookout',
};

/** What was done, in words. */
export const ACTION_WORDS: Record<AuditEntry['action'], string> = { create: 'Created', update: 'Changed', delete: 'Deleted' };

/** A resource type (`check_group`) in words (`check group`). */
export function resourceTypeWords(type: string): string {
  return type.replace(/_/g, ' ');
}
