/** Anything that runs SQL: a pool, a connection or an open transaction. */
export interface Queryable {
  /** Runs one parameterised statement and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/**
 * The one storage dialect Lookout speaks: PostgreSQL SQL, served either by embedded PGlite or
 * by a PostgreSQL server. Repositories only see this interface.
 */
export interface Db extends Queryable {
  /** Runs `fn` in a transaction: everything it wrote is committed together or not at all. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (migrations). */
  exec(sql: string): Promise<void>;
  /** Which engine answers: used in logs and benchmarks. */
  readonly kind: 'pglite' | 'postgres';
  /**
   * A connection of its own, outside the pool, for session state such as advisory locks (PostgreSQL
   * only: PGlite serves one process, so there is nothing to share a session with).
   */
  openSession?(): Promise<DbSession>;
  close(): Promise<void>;
}

/** A dedicated connection: its session-level state (advisory locks) lives exactly as long as it does. */
export interface DbSession extends Queryable {
  /** Called once when the connection breaks (the server restarted or the network failed). */
  onLost(listener: (err: Error) => void): void;
  close(): Promise<void>;
}
