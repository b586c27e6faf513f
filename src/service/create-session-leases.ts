import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Store } from '../store/create-store.js';
import type { SessionLease } from '../store/test-sessions-repository.js';

/** Options of createSessionLeases. */
export interface SessionLeasesOptions {
  store: Store;
  logger: Logger;
  /** A lease lasts this long unless renewed; default 15 s. */
  leaseMs?: number;
  /** Held leases are renewed, and abandoned sessions looked for, this often; default 5 s. */
  renewMs?: number;
}

/** The test sessions this process runs, under leases other processes can see. */
export interface SessionLeases {
  /** What a new session of this process is stored with. */
  readonly lease: SessionLease;
  /** Keeps the session's lease renewed until release(). */
  hold(id: string): void;
  release(id: string): void;
  /** Cancels the running sessions whose process died (their lease ran out); resolves to how many. */
  sweep(): Promise<number>;
  /** Sweeps once, then renews and sweeps on a timer. */
  start(): Promise<void>;
  close(): void;
}

/**
 * Test sessions are leased to the process running them. That process renews the lease while the
 * session runs; every process cancels the sessions whose lease ran out, at start and every few
 * seconds. A process start therefore no longer cancels the sessions other live processes run, and
 * a session whose process died ends CANCELLED within a lease instead of staying RUNNING for ever.
 * (Its runs died with their process: they are not started again elsewhere.)
 */
export function createSessionLeases({ store, logger, leaseMs = 15_000, renewMs = 5_000 }: SessionLeasesOptions): SessionLeases {
  const lease = { owner: `${os.hostname()}:${process.pid}:${randomUUID()}`, ms: leaseMs };
  const held = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  async function sweep(): Promise<number> {
    const n = await store.testSessions.cancelAbandoned();
    if (n > 0) logger.info({ cancelled: n }, 'cancelled test sessions whose process stopped');
    return n;
  }

  async function tick(): Promise<void> {
    await store.testSessions.renewLeases(lease.owner, [...held], leaseMs);
    await sweep();
  }

  return {
    lease,
    hold: (id) => void held.add(id),
    release: (id) => void held.delete(id),
    sweep,
    async start() {
      await sweep();
      const loop = () => {
        timer = setTimeout(() => {
          tick().catch((err: unknown) => logger.error({ err }, 'renewing test session leases failed')).finally(() => !closed && loop());
        }, renewMs);
        timer.unref?.();
      };
      loop();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
