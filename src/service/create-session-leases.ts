import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Store } from '../store/create-store.js';
import type { ClaimedTestSession, SessionLease, TestSessionKind } from '../store/test-sessions-repository.js';

/** Options of createSessionLeases. */
export interface SessionLeasesOptions {
  store: Store;
  logger: Logger;
  /** A lease lasts this long unless renewed; default 15 s. */
  leaseMs?: number;
  /** Held leases are renewed, and abandoned sessions looked for, this often; default 5 s. */
  renewMs?: number;
  /** Sessions one sweep takes over at most; default 10. */
  claimLimit?: number;
}

/** Runs a session this process took over (it is leased to this process already). */
export type SessionResumer = (session: ClaimedTestSession) => Promise<void>;

/** The test sessions this process runs, under leases other processes can see. */
export interface SessionLeases {
  /** What a new session of this process is stored with. */
  readonly lease: SessionLease;
  /** Keeps the session's lease renewed until release(). */
  hold(id: string): void;
  release(id: string): void;
  /** Stops renewing the session and ends its lease now, so another process resumes it at once. */
  handOver(id: string): Promise<void>;
  /**
   * Takes over the running sessions whose process died (their lease ran out) and hands each to
   * the resumer of its kind; resolves to how many it took. Takes none before resumeWith().
   */
  sweep(): Promise<number>;
  /** Renews held leases on a timer (and sweeps on it once resumeWith() was called). */
  start(): void;
  /** From now on this process resumes abandoned sessions: sweeps at once, then on the timer. */
  resumeWith(resumers: Record<TestSessionKind, SessionResumer>): Promise<number>;
  /** Takes over no more sessions (shutting down), while still renewing those held. */
  stopResuming(): void;
  close(): void;
}

/**
 * Test sessions are leased to the process running them, which renews the lease while the session
 * runs. A process that resumes sessions (one that runs checks: see main.ts) takes over those whose
 * lease ran out, so a session outlives the process that started it: the claim is exclusive, and
 * the resumer runs only the checks without a FINAL result yet.
 */
export function createSessionLeases({ store, logger, leaseMs = 15_000, renewMs = 5_000, claimLimit = 10 }: SessionLeasesOptions): SessionLeases {
  const lease = { owner: `${os.hostname()}:${process.pid}:${randomUUID()}`, ms: leaseMs };
  const held = new Set<string>();
  let resumers: Record<TestSessionKind, SessionResumer> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  async function sweep(): Promise<number> {
    if (!resumers || closed) return 0;
    const claimed = await store.testSessions.claimAbandoned(lease.owner, leaseMs, claimLimit);
    for (const session of claimed) {
      held.add(session.id);
      // Sessions stored before kinds existed were all `trigger` ones or carry no job: the resumer ends those.
      const resume = resumers[session.kind ?? 'trigger'];
      logger.info({ testSessionId: session.id, kind: session.kind }, 'resuming a test session whose process stopped');
      await resume(session).catch((err: unknown) => {
        held.delete(session.id);
        logger.error({ err, testSessionId: session.id }, 'resuming a test session failed');
      });
    }
    return claimed.length;
  }

  async function tick(): Promise<void> {
    const ids = [...held];
    const kept = new Set(await store.testSessions.renewLeases(lease.owner, ids, leaseMs));
    // A session no longer ours (cancelled, ended or taken over) needs no renewing; its run notices when it saves.
    for (const id of ids) if (!kept.has(id)) held.delete(id);
    await sweep();
  }

  return {
    lease,
    hold: (id) => void held.add(id),
    release: (id) => void held.delete(id),
    async handOver(id) {
      held.delete(id);
      await store.testSessions.expireLease(lease.owner, id);
    },
    sweep,
    start() {
      const loop = () => {
        timer = setTimeout(() => {
          tick().catch((err: unknown) => logger.error({ err }, 'renewing test session leases failed')).finally(() => !closed && loop());
        }, renewMs);
        timer.unref?.();
      };
      loop();
    },
    async resumeWith(r) {
      resumers = r;
      return sweep();
    },
    stopResuming() {
      resumers = undefined;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
