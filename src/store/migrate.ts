import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyzeTables } from './analyze-tables.js';
import type { Db } from './db.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** One SQL migration file, applied once, in name order. */
export interface Migration {
  name: string;
  sql: string;
}

/** The migrations shipped with this version, in the order they apply. */
export function listMigrations(): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(MIGRATIONS_DIR + name, 'utf8') }));
}

/** What migrate() reports while it works (a first start applies every migration: it is the long step). */
export interface MigrationProgress {
  /** How many migrations are about to be applied (called only when there are some). */
  pending?(count: number): void;
  /** One more applied: its file name, how many so far, of how many. */
  applied?(name: string, done: number, of: number): void;
  /** A new PGlite data folder starts from the shipped template, its migrations already applied (createStore). */
  fromTemplate?(): void;
}

/**
 * Applies the migrations not applied yet, each in its own transaction, and returns their names.
 * An advisory lock keeps two processes starting at once from applying the same file twice.
 * When anything was applied, the statistics of the schema's tables are refreshed (see `analyzeTables`).
 */
export async function migrate(db: Db, migrations: Migration[] = listMigrations(), progress: MigrationProgress = {}): Promise<string[]> {
  const applied = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7461001)');
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    const applied: string[] = [];
    const pending = migrations.filter((m) => !done.has(m.name));
    if (pending.length > 0) progress.pending?.(pending.length);
    for (const m of pending) {
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
      applied.push(m.name);
      progress.applied?.(m.name, applied.length, pending.length);
    }
    return applied;
  });
  // Outside the migration transaction: statistics of a schema that then rolled back would be wasted.
  if (applied.length > 0) await analyzeTables(db);
  return applied;
}

/**
 * Splits a migration script on statement-ending semicolons (a `;` at the end of a line), except
 * inside a dollar-quoted body (`$$ ... $$`, function definitions), which stays one statement.
 */
export function splitStatements(sql: string): string[] {
  const lines = sql.split('\n').filter((line) => !line.trim().startsWith('--'));
  const statements: string[] = [];
  let current: string[] = [];
  let inBody = false;
  for (const line of lines) {
    current.push(line);
    // Each `$$` opens or closes a body.
    if ((line.match(/\$\$/g) ?? []).length % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.join('\n').trim().replace(/;\s*$/, ''));
      current = [];
    }
  }
  statements.push(current.join('\n').trim());
  return statements.filter(Boolean);
}
