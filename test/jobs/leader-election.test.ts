import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createLeaderElection, type LeaderElection } from '../../src/jobs/create-leader-election.js';
import { createStore, type Store } from '../../src/store/create-store.js';
import { BACKENDS, openTestStore } from '../support/backends.js';

const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** Transitions of every contender of a test, in order, with a way to wait for one. */
function transitions() {
  const log: string[] = [];
  const waiters: { test: () => boolean; resolve: () => void }[] = [];
  const push = (entry: string) => {
    log.push(entry);
    for (const w of [...waiters]) if (w.test()) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
  };
  const until = (test: () => boolean) => new Promise<void>((resolve) => (test() ? resolve() : waiters.push({ test, resolve })));
  return { log, push, until };
}

/** An election whose transitions go to `t` as `<who> elected|deposed`. */
function contender(store: Store, who: string, t = transitions(), name = 'scheduler') {
  const election = createLeaderElection({
    db: store.db, logger, name, intervalMs: 50,
    async onElected() { t.push(`${who} elected`); },
    async onDeposed() { t.push(`${who} deposed`); },
  });
  return { election, log: t.log, t };
}

const postgres = BACKENDS.find((b) => b.name === 'postgres');
if (!postgres) console.info('leader-election: PostgreSQL cases skipped (needs TEST_DATABASE_URL)');

describe('leader election', () => {
  const open: (LeaderElection | Store)[] = [];
  afterEach(async () => {
    for (const x of open.reverse()) await x.close();
    open.length = 0;
  });

  it('makes the only process of an embedded store the leader, and deposes it at shutdown', async () => {
    const store = await openTestStore(BACKENDS[0]!);
    open.push(store);
    const a = contender(store, 'a');
    await a.election.start();
    expect(a.election.isLeader()).toBe(true);
    await a.election.close();
    expect(a.log).toEqual(['a elected', 'a deposed']);
  });

  describe.skipIf(!postgres)('on PostgreSQL', () => {
    it('elects exactly one of two processes, and the standby takes over when the leader stops', async () => {
      const store = await openTestStore(postgres!);
      open.push(store);
      const t = transitions();
      const a = contender(store, 'a', t);
      const b = contender(store, 'b', t);
      open.push(a.election, b.election);
      await a.election.start();
      await b.election.start();
      expect([a.election.isLeader(), b.election.isLeader()]).toEqual([true, false]);
      await a.election.close();
      await t.until(() => t.log.includes('b elected'));
      expect(b.election.isLeader()).toBe(true);
      expect(t.log).toEqual(['a elected', 'a deposed', 'b elected']);
    });

    it('deposes a leader whose connection is cut, and one process leads again', async () => {
      const options = postgres!.options();
      const opened = await createStore(options);
      const store = { ...opened, close: async () => { await opened.close(); await postgres!.cleanup(options); } };
      open.push(store);
      const t = transitions();
      const a = contender(store, 'a', t);
      const b = contender(store, 'b', t);
      open.push(a.election, b.election);
      await a.election.start();
      await b.election.start();
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        // The backend holding this installation's scheduler lock: the leader's session.
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = 7461002 AND granted
          AND objid = (hashtext('scheduler' || $1)::bigint & 4294967295)::oid`, [options.schema]);
      } finally {
        await admin.end();
      }
      // Either may win the next round (the old leader reconnects too); never both.
      await t.until(() => t.log.length >= 3);
      expect(t.log.slice(0, 2)).toEqual(['a elected', 'a deposed']);
      expect(t.log[2]).toMatch(/^(a|b) elected$/);
      expect([a.election.isLeader(), b.election.isLeader()].filter(Boolean)).toHaveLength(1);
    });

    it('elects separately for separate installations sharing one database', async () => {
      const one = await openTestStore(postgres!);
      const two = await openTestStore(postgres!);
      open.push(one, two);
      const a = contender(one, 'a');
      const b = contender(two, 'b');
      open.push(a.election, b.election);
      await a.election.start();
      await b.election.start();
      expect([a.election.isLeader(), b.election.isLeader()]).toEqual([true, true]);
    });
  });
});
