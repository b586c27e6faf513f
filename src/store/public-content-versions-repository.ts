import type { Queryable } from './db.js';

/**
 * The change counter of each account's public content (status pages, dashboards, their feeds).
 * Call `bump` inside the transaction of every write that changes what a public page shows.
 */
export function createPublicContentVersionsRepository(db: Queryable) {
  return {
    /** Moves the account's counter on and answers the new value. */
    async bump(accountId: string): Promise<number> {
      const [row] = await db.query<{ version: string }>(
        `INSERT INTO public_content_versions (account_id, version) VALUES ($1, 1)
         ON CONFLICT (account_id) DO UPDATE SET version = public_content_versions.version + 1
         RETURNING version`,
        [accountId],
      );
      return Number(row!.version);
    },

    /**
     * Moves the counter on when a status page service is built from this check (its state is on a
     * public page), answering the new value; null (nothing written) when no service uses it.
     */
    async bumpIfCheckShown(accountId: string, checkId: string): Promise<number | null> {
      const [row] = await db.query<{ version: string }>(
        `INSERT INTO public_content_versions (account_id, version)
         SELECT $1, 1 WHERE EXISTS (SELECT 1 FROM status_page_service_checks WHERE account_id = $1 AND check_id = $2)
         ON CONFLICT (account_id) DO UPDATE SET version = public_content_versions.version + 1
         RETURNING version`,
        [accountId, checkId],
      );
      return row ? Number(row.version) : null;
    },

    /** The account's counter; 0 before its first public write. */
    async get(accountId: string): Promise<number> {
      const [row] = await db.query<{ version: string }>('SELECT version FROM public_content_versions WHERE account_id = $1', [accountId]);
      return row ? Number(row.version) : 0;
    },
  };
}
