import type { Logger } from 'pino';
import type { Db, DbSession } from '../store/db.js';

/** Options of createLeaderElection. */
export interface LeaderElectionOptions {
  db: Db;
  logger: Logger;
  /** What this election is for (one lock per duty); also names it in logs. */
  name: string;
  /** Called when this process becomes the leader; leadership counts from when it resolves. */
  onElected(): Promise<void>;
  /** Called when leadership ends (lost connection, shutdown): the duty must stop before it resolves. */
  onDeposed(): Promise<void>;
  /** How often a standby tries to take over, and a leader checks it still holds its session; default 2 s. */
  intervalMs?: number;
}

/** One process at a time holds the leadership; the others stand by and take over when it dies. */
export interface LeaderElection {
  /** Starts competing; resolves after the first attempt (elected or standing by). */
  start(): Promise<void>;
  isLeader(): boolean;
  /** Gives leadership up (onDeposed runs) and stops competing. */
  close(): Promise<void>;
}

/** Advisory lock namespace of Lookout's elections (the second key is the election's name and schema). */
const LOCK_NAMESPACE = 7461002;

/**
 * Leadership as a PostgreSQL session-level advisory lock held on a connection of its own. When the
 * leader dies (kill -9, a crash, a lost network), its connection closes and the server releases
 * the lock: a standby retrying every `intervalMs` takes over within seconds (TCP keepalives bound a
 * silent network loss at about 11 s). A leader whose session breaks stops its duty at once. Advisory
 * locks carry no fencing token, so a standby that takes over from a live leader waits one interval
 * before its duty starts: the old leader checks its session as often, sees the loss and stops first.
 * The lock is keyed by the schema too, so installations sharing one database elect separately. On
 * PGlite (one process per data folder) the process is always leader.
 */
export function createLeaderElection(options: LeaderElectionOptions): LeaderElection {
  const { db, logger, name } = options;
  const intervalMs = options.intervalMs ?? 2_000;
  let session: DbSession | undefined;
  let leader = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  /** A standby has seen another process hold the lock, so taking it over waits for that one to stop. */
  let contested = false;
  // Transitions never overlap: elected and deposed run one after the other.
  let chain: Promise<void> = Promise.resolve();
  const serially = (work: () => Promise<void>) => (chain = chain.then(work, work));

  async function elect(): Promise<void> {
    leader = true;
    logger.info({ election: name }, `elected ${name} leader`);
    await options.onElected();
  }

  async function depose(reason: string): Promise<void> {
    if (!leader) return;
    leader = false;
    logger.info({ election: name, reason }, `no longer ${name} leader`);
    await options.onDeposed();
  }

  async function dropSession(): Promise<void> {
    const s = session;
    session = undefined;
    await s?.close();
  }

  async function attempt(): Promise<void> {
    if (closed) return;
    if (!db.openSession) {
      if (!leader) await elect();
      return;
    }
    try {
      if (!session) {
        const s = await db.openSession();
        s.onLost((err) => {
          if (session !== s) return;
          session = undefined;
          void serially(() => depose(`database session lost: ${err.message}`));
        });
        session = s;
      }
      if (leader) {
        // Still connected means still holding the lock; a broken session throws (or fires onLost).
        await session.query('SELECT 1');
        return;
      }
      const held = session;
      const [row] = await held.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1, hashtext($2 || current_schema())) AS locked', [LOCK_NAMESPACE, name],
      );
      if (!row?.locked) {
        contested = true;
        return;
      }
      if (contested) {
        // The lock was just held by a live process: its session has ended, but that process may not have
        // noticed yet. One interval lets it see the loss (it checks as often) and stop its duty first.
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
        if (session !== held || closed) return;
        await held.query('SELECT 1');
        contested = false;
      }
      await elect();
    } catch (err) {
      logger.warn({ err, election: name }, `${name} election attempt failed`);
      await dropSession();
      await depose('database session failed');
    }
  }

  function loop() {
    if (closed) return;
    timer = setTimeout(() => {
      void serially(attempt).finally(loop);
    }, intervalMs);
    timer.unref?.();
  }

  return {
    async start() {
      await serially(attempt);
      loop();
    },
    isLeader: () => leader,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await serially(async () => {
        await depose('shutting down');
        // Closing the session releases the lock for a standby at once.
        await dropSession();
      });
    },
  };
}
