import { analyzeTables } from './analyze-tables.js';
import type { Queryable } from './db.js';

/** Options of createStatisticsRefresher. */
export interface StatisticsRefresherOptions {
  /** Where to run ANALYZE and read the tables' sizes (outside any transaction). */
  db: Queryable;
  /** Rows written after which statistics are refreshed at the latest; default 500. */
  minRows?: number;
}

/**
 * Keeps the planner's statistics current as writes come in, with autovacuum's analyze rule over the
 * whole schema: once the rows inserted, updated or deleted since the last ANALYZE pass 10 % of the
 * rows the tables then held (at least `minRows`), every table is analysed in the background.
 *
 * Why not leave it to the server: PGlite has no autovacuum at all; PostgreSQL's comes once a minute
 * at best, and until it does a fresh database plans with the statistics of empty tables. Worse, a
 * connection caches the plans of its foreign-key checks: planned against an empty check_results,
 * the outbox's check of each result scans the table, and ingestion slowed from 9,200 to 2,800
 * results/s within seconds of a fresh start (bench/runner.ts --ingest). ANALYZE also invalidates
 * those cached plans. Counting costs an addition per statement.
 */
export function createStatisticsRefresher({ db, minRows = 500 }: StatisticsRefresherOptions) {
  let threshold = minRows;
  let written = 0;
  let analyzing = false;
  let closed = false;
  return {
    /** Counts the rows a statement wrote (from its command tag or row count). */
    onWritten(rows: number): void {
      written += rows;
      if (written < threshold || analyzing || closed) return;
      analyzing = true;
      written = 0;
      void (async () => {
        try {
          await analyzeTables(db);
          const [sum] = await db.query<{ rows: number | null }>(
            `SELECT sum(reltuples)::float8 AS rows FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'`,
          );
          threshold = Math.max(minRows, Math.round((sum?.rows ?? 0) * 0.1));
        } catch {
          // Statistics only steer the planner: a failed refresh (the database closing) is retried after the next writes.
        } finally {
          analyzing = false;
        }
      })();
    },
    /** Stops refreshing (the database is closing). */
    close(): void {
      closed = true;
    },
  };
}

const WRITE_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'COPY']);

/** Whether a command (`INSERT`, `SELECT`, …) writes rows the statistics count. */
export function isWriteCommand(command: string): boolean {
  return WRITE_COMMANDS.has(command);
}

/** Rows written according to a command tag (`INSERT 0 5`, `UPDATE 3`, …); 0 for reads and other commands. */
export function rowsWrittenByTag(tag: string | undefined): number {
  if (!tag || !isWriteCommand(tag.slice(0, tag.indexOf(' ')))) return 0;
  return Number(tag.slice(tag.lastIndexOf(' ') + 1)) || 0;
}
