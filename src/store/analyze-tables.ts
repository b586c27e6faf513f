import type { Queryable } from './db.js';

/**
 * Refreshes the planner's statistics of `tables` (all tables of the current schema when omitted).
 *
 * Why we run it ourselves: PGlite has no autovacuum, so without this its tables keep the
 * statistics of an empty database forever and the planner picks sequential scans and bad join
 * orders as they grow; on a PostgreSQL server autovacuum gets there eventually, but only after
 * a threshold of changes, not right after a migration or a bulk write. Only the current schema
 * is analysed: a database-wide ANALYZE would also walk every other schema (tests, other tenants).
 */
export async function analyzeTables(db: Queryable, tables?: readonly string[]): Promise<void> {
  const names = tables?.length
    ? tables
    : (await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)).map((r) => r.name);
  // One statement per table: on PGlite each runs synchronously, and separate queries let the
  // event loop serve requests between them.
  for (const name of names) await db.query(`ANALYZE "${name.replaceAll('"', '""')}"`);
}
