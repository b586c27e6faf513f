import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LeaseLostError } from '../../src/domain/lease-lost-error.js';
import { createMemoryEventBus } from '../../src/events/create-memory-event-bus.js';
import { errorProbe } from '../../src/runner/special-probes.js';
import { createRunRecorder } from '../../src/runner/create-run-recorder.js';
import type { Store } from '../../src/store/create-store.js';
import { BACKENDS, openTestStore } from '../support/backends.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const logger = pino({ level: 'silent' });

/** The durable run queue: one shared suite on every store. */
describe.each(BACKENDS)('the run job queue ($name)', (backend) => {
  let store: Store;
  let accountId: string;
  beforeAll(async () => {
    store = await openTestStore(backend);
    accountId = (await store.accounts.create({ name: 'Queue' })).id;
  });
  afterAll(async () => store?.close());

  async function check(): Promise<string> {
    const id = randomUUID();
    await store.checks.insert(accountId, { id, checkType: 'API', data: { name: `c-${id.slice(0, 6)}`, activated: true, groupId: null, tags: [] } });
    return id;
  }
  const slot = (s: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, s));
  const states = async (checkId: string) =>
    store.db.query<{ state: string; lease_owner: string | null; claims: number }>('SELECT state, lease_owner, claims FROM run_jobs WHERE check_id = $1 ORDER BY slot_at', [checkId]);

  it('queues a (check, slot, location) once, however often it is planned', async () => {
    const id = await check();
    const job = { checkId: id, slotAt: slot(0), locations: ['eu-west-1', 'us-east-1'] };
    expect(await store.runJobs.enqueue([job, { ...job, slotAt: slot(1) }])).toBe(2);
    expect(await store.runJobs.enqueue([{ ...job, locations: ['ap-south-1'] }])).toBe(0);
    const rows = await store.db.query<{ locations: string[] }>('SELECT locations FROM run_jobs WHERE check_id = $1 ORDER BY slot_at', [id]);
    expect(rows.map((r) => r.locations)).toEqual([['eu-west-1', 'us-east-1'], ['eu-west-1', 'us-east-1']]);
  });

  it('ignores a job for a check that no longer exists', async () => {
    expect(await store.runJobs.enqueue([{ checkId: randomUUID(), slotAt: slot(0), locations: ['eu-west-1'] }])).toBe(0);
  });

  it('leases each job to one claimer, and never two runs of one check at once', async () => {
    const a = await check();
    const b = await check();
    await store.runJobs.enqueue([
      { checkId: a, slotAt: slot(1), locations: ['eu-west-1'] }, { checkId: a, slotAt: slot(2), locations: ['eu-west-1'] },
      { checkId: b, slotAt: slot(1), locations: ['eu-west-1'] },
    ]);
    const [first, second] = await Promise.all([store.runJobs.claim('w1', 10, 60_000), store.runJobs.claim('w2', 10, 60_000)]);
    const mine = [...first!, ...second!].filter((j) => j.check_id === a || j.check_id === b);
    expect(mine.map((j) => j.check_id).sort()).toEqual([a, b].sort());
    // The later slot of `a` waits, and is skipped as an overlap rather than run late.
    const skipped = await store.runJobs.skipOverlapping();
    expect(skipped.filter((s) => s.check_id === a)).toHaveLength(1);
    expect((await states(a)).map((s) => s.state)).toEqual(['leased', 'skipped']);
  });

  it('is done with one FINAL result per location, counted only for the holder of its lease; a lost lease is reported by renew', async () => {
    const id = await check();
    await store.runJobs.enqueue([{ checkId: id, slotAt: slot(3), locations: ['eu-west-1', 'us-east-1'] }]);
    const [job] = (await store.runJobs.claim('holder', 100, 60_000)).filter((j) => j.check_id === id);
    expect(await store.runJobs.holds({ id: job!.id, owner: 'holder' })).toBe(true);
    expect(await store.runJobs.holds({ id: job!.id, owner: 'stranger' })).toBe(false);
    expect(await store.runJobs.countFinal({ id: job!.id, owner: 'stranger' })).toBe(false);
    expect(await store.runJobs.renew('stranger', [job!.id], 60_000)).toEqual([job!.id]);
    expect(await store.runJobs.renew('holder', [job!.id], 60_000)).toEqual([]);
    expect(await store.runJobs.countFinal({ id: job!.id, owner: 'holder' })).toBe(true);
    expect((await states(id))[0]).toMatchObject({ state: 'leased' });
    expect(await store.runJobs.countFinal({ id: job!.id, owner: 'holder' })).toBe(true);
    expect(await store.runJobs.countFinal({ id: job!.id, owner: 'holder' })).toBe(false);
    expect((await states(id))[0]).toMatchObject({ state: 'done', claims: 1 });
    // Finished while a renewal was on its way: still its holder's, not lost.
    expect(await store.runJobs.renew('holder', [job!.id], 60_000)).toEqual([]);
  });

  it('gives a job whose lease expired to the next claimer, and the first one loses it', async () => {
    const id = await check();
    await store.runJobs.enqueue([{ checkId: id, slotAt: slot(4), locations: ['eu-west-1'] }]);
    const [job] = (await store.runJobs.claim('dead', 100, 60_000)).filter((j) => j.check_id === id);
    // The holder died: its lease runs out.
    await store.db.query(`UPDATE run_jobs SET lease_until = now() - interval '1 second' WHERE id = $1`, [job!.id]);
    const again = (await store.runJobs.claim('alive', 100, 60_000)).filter((j) => j.check_id === id);
    expect(again).toMatchObject([{ id: job!.id, lease_owner: 'alive', claims: 2 }]);
    expect(await store.runJobs.countFinal({ id: job!.id, owner: 'dead' })).toBe(false);
    expect(await store.runJobs.close({ id: job!.id, owner: 'dead' })).toBe(false);
  });

  it('gives back leases on release and forgets old finished jobs', async () => {
    const id = await check();
    await store.runJobs.enqueue([{ checkId: id, slotAt: slot(5), locations: ['eu-west-1'] }]);
    const [job] = (await store.runJobs.claim('leaving', 100, 60_000)).filter((j) => j.check_id === id);
    await store.runJobs.release('leaving', [job!.id]);
    expect((await states(id))[0]).toMatchObject({ state: 'queued', lease_owner: null });
    const [back] = (await store.runJobs.claim('next', 100, 60_000)).filter((j) => j.check_id === id);
    expect(await store.runJobs.close({ id: back!.id, owner: 'next' })).toBe(true);
    expect(await store.runJobs.pruneFinished(new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(1);
    expect(await states(id)).toEqual([]);
  });

  it('stores a run\'s result only while its lease holds: a result after the lease was lost is dropped', async () => {
    const recorder = createRunRecorder({ store, bus: createMemoryEventBus(), logger });
    const id = await check();
    await store.runJobs.enqueue([{ checkId: id, slotAt: slot(6), locations: ['eu-west-1'] }]);
    const [job] = (await store.runJobs.claim('slow', 100, 60_000)).filter((j) => j.check_id === id);
    await store.db.query(`UPDATE run_jobs SET lease_until = now() - interval '1 second' WHERE id = $1`, [job!.id]);
    await store.runJobs.claim('fast', 100, 60_000);
    const input = {
      check: { id, accountId, checkType: 'API' as const, name: 'c', data: { name: 'c' }, groupId: null },
      location: 'eu-west-1', sequenceId: randomUUID(), attempts: 1, probe: errorProbe('ETIMEDOUT', 'slow', new Date(), { failure: true }),
    };
    await expect(recorder.record({ ...input, resultType: 'FINAL', lease: { id: job!.id, owner: 'slow' } })).rejects.toBeInstanceOf(LeaseLostError);
    await expect(recorder.record({ ...input, resultType: 'ATTEMPT', lease: { id: job!.id, owner: 'slow' } })).rejects.toBeInstanceOf(LeaseLostError);
    await recorder.record({ ...input, resultType: 'FINAL', lease: { id: job!.id, owner: 'fast' } });
    const results = await store.db.query<{ result_type: string }>('SELECT result_type FROM check_results WHERE check_id = $1', [id]);
    expect(results).toEqual([{ result_type: 'FINAL' }]);
    expect((await states(id))[0]).toMatchObject({ state: 'done', lease_owner: 'fast' });
  });

  it('keeps agent lanes for their agents: runners take a data-center lane only while no agent of it is live, a private one only after the grace', async () => {
    const dcCheck = await check();
    const plCheck = await check();
    const now = new Date();
    await store.runJobs.enqueue([
      { checkId: dcCheck, slotAt: now, locations: ['eu-central-1'], lane: 'dc:eu-central-1' },
      { checkId: plCheck, slotAt: now, locations: ['lab'], lane: `pl:${accountId}:lab` },
    ]);
    const runner = (graceMs: number) => ({ runner: { agentLiveMs: 15_000, privateGraceMs: graceMs } });
    const agentId = randomUUID();
    await store.agents.report({ id: agentId, lane: 'dc:eu-central-1', accountId: null, privateLocationId: null, version: 't', hostname: 'h', concurrency: 1, running: 0 }, 15_000);
    const mine = (jobs: { check_id: string }[]) => jobs.map((j) => j.check_id).filter((id) => id === dcCheck || id === plCheck);
    // A live agent serves eu-central-1, and the private run is younger than the grace: nothing for runners.
    expect(mine(await store.runJobs.claim('runner', 100, 60_000, runner(60_000)))).toEqual([]);
    // The agent leaves: its lane falls back to the runners at once.
    await store.agents.leave(agentId, 'dc:eu-central-1');
    expect(mine(await store.runJobs.claim('runner', 100, 60_000, runner(60_000)))).toEqual([dcCheck]);
    // Past the grace (0 here), the private run goes to a runner too (which ends it with NO_AGENT).
    expect(mine(await store.runJobs.claim('runner', 100, 60_000, runner(0)))).toEqual([plCheck]);
    // An agent claims only its own lane.
    await store.runJobs.enqueue([{ checkId: plCheck, slotAt: new Date(now.getTime() + 1), locations: ['lab'], lane: `pl:${accountId}:lab` }]);
    expect(mine(await store.runJobs.claim('agent:x', 100, 60_000, { lane: 'dc:eu-central-1' }))).toEqual([]);
  });

  it('leaves a slot queued ahead of its time (the scheduler\'s lead) to its own time: agents claim it and overlaps skip it only once it comes', async () => {
    const id = await check();
    const soon = new Date(Date.now() + 3_600_000);
    const lane = `pl:${accountId}:ahead`;
    await store.runJobs.enqueue([{ checkId: id, slotAt: soon, locations: ['ahead'], lane }]);
    expect((await store.runJobs.claim('agent:y', 100, 60_000, { lane })).map((j) => j.check_id)).toEqual([]);
    // An earlier run of the check is leased: the later, future slot is not an overlap yet.
    await store.runJobs.enqueue([{ checkId: id, slotAt: new Date(Date.now() - 1_000), locations: ['ahead'], lane }]);
    expect((await store.runJobs.claim('agent:y', 100, 60_000, { lane })).map((j) => j.check_id)).toEqual([id]);
    expect((await store.runJobs.skipOverlapping()).filter((s) => s.check_id === id)).toEqual([]);
    expect((await states(id)).map((s) => s.state)).toEqual(['leased', 'queued']);
  });
});

describe('a run job whose worker died', () => {
  let s: TestServer;
  let target: HttpTarget;
  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer({ config: { runnerEnabled: true } }), startHttpTarget()]);
  });
  afterAll(async () => Promise.all([s?.close(), target?.close()]));

  it('is claimed again once its lease runs out and run exactly once', async () => {
    const created = await s.a.request('POST', '/v1/checks/api', {
      name: 'Orphaned slot', frequency: 1440, locations: ['eu-west-1'], request: { url: `${target.http.url}/json` },
    });
    expect(created.status, created.text).toBe(201);
    const checkId = created.body.id as string;
    const finals: unknown[] = [];
    const stored = new Promise<void>((resolve) => {
      s.lookout.bus.subscribe('checkResultCreated', (e) => {
        if (e.checkId === checkId && e.result.resultType === 'FINAL') {
          finals.push(e.result);
          resolve();
        }
      });
    });
    // A slot a worker of a process that died had claimed: its lease is about to run out.
    const store = s.lookout.store;
    // Enqueued and claimed in one transaction: this server's own runner must not take the slot first.
    const [job] = await store.transaction(async (tx) => {
      await tx.runJobs.enqueue([{ checkId, slotAt: new Date(), locations: ['eu-west-1'] }]);
      return (await tx.runJobs.claim('killed-process', 100, 300)).filter((j) => j.check_id === checkId);
    });
    expect(job).toBeDefined();
    await stored;
    const [row] = await store.db.query<{ state: string; lease_owner: string; claims: number }>('SELECT state, lease_owner, claims FROM run_jobs WHERE id = $1', [job!.id]);
    expect(row).toMatchObject({ state: 'done', claims: 2 });
    expect(row!.lease_owner).not.toBe('killed-process');
    const results = await s.a.request('GET', `/v2/check-results/${checkId}?limit=10`);
    expect(results.body.entries.filter((r: { resultType: string }) => r.resultType === 'FINAL')).toHaveLength(1);
    expect(finals).toHaveLength(1);
  });

  it('takes a slot queued ahead of its time at once and starts its probe when the slot comes, not before', async () => {
    const created = await s.a.request('POST', '/v1/checks/api', {
      name: 'Slot ahead', frequency: 1440, locations: ['eu-west-1'], request: { url: `${target.http.url}/json` },
    });
    expect(created.status, created.text).toBe(201);
    const checkId = created.body.id as string;
    const stored = new Promise<{ startedAt: string }>((resolve) => {
      s.lookout.bus.subscribe('checkResultCreated', (e) => {
        if (e.checkId === checkId && e.result.resultType === 'FINAL') resolve(e.result as { startedAt: string });
      });
    });
    const store = s.lookout.store;
    const slotAt = new Date(Date.now() + 3_000);
    await store.runJobs.enqueue([{ checkId, slotAt, locations: ['eu-west-1'] }]);
    s.lookout.runner.worker.wake();
    const claimedAt = await vi.waitFor(async () => {
      const [row] = await store.db.query<{ state: string; claimed_at: Date }>(
        "SELECT state, lease_until - interval '15 seconds' AS claimed_at FROM run_jobs WHERE check_id = $1", [checkId]);
      expect(row?.state).not.toBe('queued');
      return row!.claimed_at;
    }, { timeout: 10_000, interval: 20 });
    expect(claimedAt.getTime()).toBeLessThan(slotAt.getTime());
    const result = await stored;
    expect(Date.parse(result.startedAt)).toBeGreaterThanOrEqual(slotAt.getTime());
    const [row] = await store.db.query<{ state: string }>('SELECT state FROM run_jobs WHERE check_id = $1', [checkId]);
    expect(row!.state).toBe('done');
  });

  it('runs a parallel slot in all its locations under one sequence id, and is done with a FINAL result from each', async () => {
    const created = await s.a.request('POST', '/v1/checks/api', {
      name: 'Parallel slot', frequency: 1440, runParallel: true, locations: ['eu-west-1', 'us-east-1'], request: { url: `${target.http.url}/json` },
    });
    expect(created.status, created.text).toBe(201);
    const checkId = created.body.id as string;
    const finals: { sequenceId: string; runLocation: string }[] = [];
    const both = new Promise<void>((resolve) => {
      s.lookout.bus.subscribe('checkResultCreated', (e) => {
        if (e.checkId !== checkId || e.result.resultType !== 'FINAL') return;
        finals.push(e.result as { sequenceId: string; runLocation: string });
        if (finals.length === 2) resolve();
      });
    });
    const store = s.lookout.store;
    await store.runJobs.enqueue([{ checkId, slotAt: new Date(), locations: ['eu-west-1', 'us-east-1'] }]);
    s.lookout.runner.worker.wake();
    await both;
    expect(finals.map((f) => f.runLocation).sort()).toEqual(['eu-west-1', 'us-east-1']);
    expect(new Set(finals.map((f) => f.sequenceId)).size).toBe(1);
    const [row] = await store.db.query<{ state: string; finals_stored: number }>('SELECT state, finals_stored FROM run_jobs WHERE check_id = $1', [checkId]);
    expect(row).toEqual({ state: 'done', finals_stored: 2 });
  });
});
