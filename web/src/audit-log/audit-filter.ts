/** The audit log's filters, as the page's query string keeps them (so a filtered view is a link). */
export interface AuditFilter {
  resourceType: string;
  resourceId: string;
  actorId: string;
  action: '' | 'create' | 'update' | 'delete';
  /** Local dates (YYYY-MM-DD) from the date inputs: from the start of `from` to the end of `to`. */
  from: string;
  to: string;
}

const KEYS = ['resourceType', 'resourceId', 'actorId', 'action', 'from', 'to'] as const;

/** The filters a query string names; unknown values are dropped. */
export function auditFilterFromSearch(search: string): AuditFilter {
  const params = new URLSearchParams(search);
  const action = params.get('action') ?? '';
  const date = (key: string) => (/^\d{4}-\d{2}-\d{2}$/.test(params.get(key) ?? '') ? params.get(key)! : '');
  return {
    resourceType: params.get('resourceType')?.trim() ?? '',
    resourceId: params.get('resourceId')?.trim() ?? '',
    actorId: params.get('actorId')?.trim() ?? '',
    action: action === 'create' || action === 'update' || action === 'delete' ? action : '',
    from: date('from'),
    to: date('to'),
  };
}

/** The query string of the console page for `filter` ('' when nothing is filtered). */
export function auditFilterSearch(filter: AuditFilter): string {
  const params = new URLSearchParams();
  for (const key of KEYS) if (filter[key]) params.set(key, filter[key]);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The API path of one page of entries for `filter`: dates become the instants the API filters on
 * (`to` names a whole day, so it ends at the next midnight), in the browser's time zone.
 */
export function auditLogPath(filter: AuditFilter, nextId: string | null, limit = 50): string {
  const params = new URLSearchParams({ limit: String(limit) });
  if (filter.resourceType) params.set('resourceType', filter.resourceType);
  if (filter.resourceId) params.set('resourceId', filter.resourceId);
  if (filter.actorId) params.set('actorId', filter.actorId);
  if (filter.action) params.set('action', filter.action);
  if (filter.from) params.set('from', new Date(`${filter.from}T00:00:00`).toISOString());
  if (filter.to) {
    const end = new Date(`${filter.to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    params.set('to', end.toISOString());
  }
  if (nextId) params.set('nextId', nextId);
  return `/v1/accounts/me/audit-log?${params.toString()}`;
}
