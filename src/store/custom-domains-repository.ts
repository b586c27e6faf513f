import type { Queryable } from './db.js';

/**
 * Host names status pages and dashboards are served on. One host serves one thing: each table has its
 * own unique index, and a write to one asks the other (across all accounts) before it claims a host.
 */
export function createCustomDomainsRepository(db: Queryable) {
  return {
    /** Whether a status page other than `exceptId` is served on `host` (any case). */
    async statusPageHas(host: string, exceptId?: string): Promise<boolean> {
      const rows = await db.query('SELECT 1 FROM status_pages WHERE custom_domain = lower($1) AND ($2::uuid IS NULL OR id <> $2::uuid) LIMIT 1', [host, exceptId ?? null]);
      return rows.length > 0;
    },
    /** Whether a dashboard other than `exceptId` is served on `host` (any case). */
    async dashboardHas(host: string, exceptId?: string): Promise<boolean> {
      const rows = await db.query('SELECT 1 FROM dashboards WHERE lower(custom_domain) = lower($1) AND ($2::uuid IS NULL OR id <> $2::uuid) LIMIT 1', [host, exceptId ?? null]);
      return rows.length > 0;
    },
  };
}
