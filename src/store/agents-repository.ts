import type { Queryable } from './db.js';

/** An agent as it last reported itself. */
export interface AgentRow {
  id: string;
  lane: string;
  account_id: string | null;
  private_location_id: string | null;
  version: string;
  hostname: string;
  concurrency: number;
  running: number;
  started_at: Date;
  last_seen: Date;
  left_at: Date | null;
}

/** What an agent says of itself on every lease and renewal. */
export interface AgentReport {
  id: string;
  lane: string;
  accountId: string | null;
  privateLocationId: string | null;
  version: string;
  hostname: string;
  concurrency: number;
  running: number;
}

/** The private location a key belongs to (keys are stored as hashes). */
export interface PrivateLocationKeyOwner {
  accountId: string;
  privateLocationId: string;
  slugName: string;
}

const COLUMNS = 'id, lane, account_id, private_location_id, version, hostname, concurrency, running, started_at, last_seen, left_at';

/**
 * Agents of private and data-center locations (all accounts: an agent's identity is checked by
 * its key before any of these run). Times come from the database clock, so an agent whose clock
 * is off still counts as live or gone by the service's clock.
 */
export function createAgentsRepository(db: Queryable) {
  return {
    /** The private location of a key's hash; undefined for an unknown or revoked key. */
    async keyOwner(keyHash: string): Promise<PrivateLocationKeyOwner | undefined> {
      const [row] = await db.query<{ account_id: string; id: string; slug_name: string }>(
        `SELECT p.account_id, p.id, p.slug_name FROM private_location_keys k JOIN private_locations p ON p.id = k.private_location_id
         WHERE k.key_hash = $1`,
        [keyHash],
      );
      return row && { accountId: row.account_id, privateLocationId: row.id, slugName: row.slug_name };
    },

    /**
     * Records an agent's report. Answers `joined` when the agent was unknown, had left or had
     * gone silent past `liveMs` (a state change worth a log line), `conflict` when the id is
     * another lane's or account's agent (ids are chosen by agents and must not be taken over).
     */
    async report(agent: AgentReport, liveMs: number): Promise<'joined' | 'seen' | 'conflict'> {
      const rows = await db.query<{ joined: boolean }>(
        `INSERT INTO agents AS a (id, lane, account_id, private_location_id, version, hostname, concurrency, running)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, hostname = EXCLUDED.hostname, concurrency = EXCLUDED.concurrency,
           running = EXCLUDED.running, last_seen = now(), left_at = NULL,
           started_at = CASE WHEN a.left_at IS NOT NULL OR a.last_seen < now() - $9 * interval '1 millisecond' THEN now() ELSE a.started_at END
         WHERE a.lane = EXCLUDED.lane AND a.account_id IS NOT DISTINCT FROM EXCLUDED.account_id
         RETURNING (xmax = 0 OR a.started_at = a.last_seen) AS joined`,
        [agent.id, agent.lane, agent.accountId, agent.privateLocationId, agent.version, agent.hostname, agent.concurrency, agent.running, liveMs],
      );
      if (rows.length === 0) return 'conflict';
      if (agent.privateLocationId) {
        await db.query('UPDATE private_locations SET last_seen = now() WHERE id = $1', [agent.privateLocationId]);
      }
      return rows[0]!.joined ? 'joined' : 'seen';
    },

    /** Marks an agent gone (it said so, shutting down); false when it was not a live agent of `lane`. */
    async leave(id: string, lane: string): Promise<boolean> {
      const rows = await db.query('UPDATE agents SET left_at = now(), running = 0 WHERE id = $1 AND lane = $2 AND left_at IS NULL RETURNING id', [id, lane]);
      return rows.length > 0;
    },

    /** Marks gone the agents silent for `liveMs` (killed, cut off); answers them so each is logged once. */
    async sweepSilent(liveMs: number): Promise<AgentRow[]> {
      return db.query<AgentRow>(
        `UPDATE agents SET left_at = now(), running = 0 WHERE left_at IS NULL AND last_seen < now() - $1 * interval '1 millisecond' RETURNING ${COLUMNS}`,
        [liveMs],
      );
    },

    /** Live agents of a private location (reported within `liveMs`, not left), newest first. */
    async ofPrivateLocation(accountId: string, privateLocationId: string, liveMs: number): Promise<AgentRow[]> {
      return db.query<AgentRow>(
        `SELECT ${COLUMNS} FROM agents WHERE account_id = $1 AND private_location_id = $2 AND left_at IS NULL
           AND last_seen > now() - $3 * interval '1 millisecond' ORDER BY started_at DESC, id`,
        [accountId, privateLocationId, liveMs],
      );
    },

    /** How many live agents each private location of an account has. */
    async countsByPrivateLocation(accountId: string, liveMs: number): Promise<Map<string, number>> {
      const rows = await db.query<{ private_location_id: string; n: number }>(
        `SELECT private_location_id, count(*)::int AS n FROM agents WHERE account_id = $1 AND private_location_id IS NOT NULL
           AND left_at IS NULL AND last_seen > now() - $2 * interval '1 millisecond' GROUP BY private_location_id`,
        [accountId, liveMs],
      );
      return new Map(rows.map((r) => [r.private_location_id, Number(r.n)]));
    },

    /** The lanes with a live agent (the runner routes data-center slots of these to agents). */
    async liveLanes(liveMs: number): Promise<Set<string>> {
      const rows = await db.query<{ lane: string }>(
        `SELECT DISTINCT lane FROM agents WHERE left_at IS NULL AND last_seen > now() - $1 * interval '1 millisecond'`,
        [liveMs],
      );
      return new Set(rows.map((r) => r.lane));
    },

    /** Forgets agents gone before `before`. */
    async pruneGone(before: Date): Promise<number> {
      const rows = await db.query('DELETE FROM agents WHERE left_at IS NOT NULL AND left_at < $1 RETURNING id', [before]);
      return rows.length;
    },
  };
}
export type AgentsRepository = ReturnType<typeof createAgentsRepository>;
