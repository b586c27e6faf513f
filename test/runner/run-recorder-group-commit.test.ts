import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../src/domain/check-result.js';
import { LeaseLostError } from '../../src/domain/lease-lost-error.js';
import { createMemoryEventBus } from '../../src/events/create-memory-event-bus.js';
import type { EventBus } from '../../src/events/event-bus.js';
import type { CheckResultCreatedEvent, CheckStatusChangedEvent } from '../../src/events/lookout-event.js';
import { createRunRecorder, type RecordRunInput, type RunRecorder } from '../../src/runner/create-run-recorder.js';
import type { RunnableCheck } from '../../src/runner/executor.js';
import { errorProbe } from '../../src/runner/special-probes.js';
import { storeOver, type Store } from '../../src/store/create-store.js';
import type { Db } from '../../src/store/db.js';
import { BACKENDS, openTestStore } from '../support/backends.js';
import { probe } from '../support/run-results.js';

const logger = pino({ level: 'silent' });

/** Group commit of run results: one transaction per batch, each run still answered alone. */
describe.each(BACKENDS)('the run recorder\'s group commit ($name)', (backend) => {
  let base: Store;
  let store: Store;
  let accountId: string;
  let transactions = 0;
  let bus: EventBus;
  let recorder: RunRecorder;
  const created: CheckResultCreatedEvent[] = [];
  const changed: CheckStatusChangedEvent[] = [];

  beforeAll(async () => {
    base = await openTestStore(backend);
    // The same database, with every transaction counted.
    const counted: Db = { ...base.db, transaction: (fn) => (transactions++, base.db.transaction(fn)) };
    store = storeOver(counted);
    accountId = (await base.accounts.create({ name: 'Group commit' })).id;
    bus = createMemoryEventBus();
    bus.subscribe('checkResultCreated', (e) => created.push(e));
    bus.subscribe('checkStatusChanged', (e) => changed.push(e));
    recorder = createRunRecorder({ store, bus, logger });
  });
  afterAll(async () => {
    await recorder?.close();
    await base?.close();
  });

  async function check(name = `c-${randomUUID().slice(0, 6)}`, locations = ['eu-west-1', 'us-east-1']): Promise<RunnableCheck> {
    const id = randomUUID();
    const data = { name, activated: true, groupId: null, tags: [], locations };
    await base.checks.insert(accountId, { id, checkType: 'API', data });
    return { id, accountId, checkType: 'API', name, data: data as RunnableCheck['data'], groupId: null };
  }

  const run = (c: RunnableCheck, p: ProbeResult, extra: Partial<RecordRunInput> = {}): RecordRunInput => ({
    check: c, location: 'eu-west-1', sequenceId: randomUUID(), attempts: 1, resultType: 'FINAL', probe: p, ...extra,
  });

  /** Records the runs as one batch (all queued in one turn) and answers how each settled and how many transactions it took. */
  async function batch(inputs: RecordRunInput[]): Promise<{ settled: PromiseSettledResult<Record<string, any>>[]; transactions: number }> {
    const before = transactions;
    const settled = await Promise.allSettled(inputs.map((input) => recorder.record(input)));
    return { settled, transactions: transactions - before };
  }

  const resultsOf = (checkId: string) =>
    base.db.query<{ id: string; check_run_id: string; error_group_ids: string[] }>(
      'SELECT id, check_run_id::text, error_group_ids FROM check_results WHERE check_id = $1 ORDER BY check_results.check_run_id', [checkId]);
  const eventsOf = (checkId: string) => ({
    created: created.filter((e) => e.checkId === checkId).map((e) => e.result.id),
    changed: changed.filter((e) => e.checkId === checkId),
  });

  it('with a write window, a scheduled run waits for company, and a run somebody waits on takes it along at once', async () => {
    const windowed = createRunRecorder({ store, bus, logger, windowMs: 3_600_000 });
    const [scheduled, onDemand] = [await check(), await check()];
    const [job] = await base.transaction(async (tx) => {
      await tx.runJobs.enqueue([{ checkId: scheduled.id, slotAt: new Date(), locations: ['eu-west-1'] }]);
      return (await tx.runJobs.claim('windowed', 100, 60_000)).filter((j) => j.check_id === scheduled.id);
    });
    const before = transactions;
    const waiting = windowed.record(run(scheduled, probe(), { lease: { id: job!.id, owner: 'windowed' } }));
    // An hour's window: only the awaited run can make the recorder write now.
    const [a, b] = await Promise.all([waiting, windowed.record(run(onDemand, probe()))]);
    expect([a.checkId, b.checkId]).toEqual([scheduled.id, onDemand.id]);
    expect(transactions - before).toBe(1);
    await windowed.close();
  });

  it('commits many concurrent runs of many checks with one transaction, each answered with its own result', async () => {
    const checks = await Promise.all(Array.from({ length: 10 }, () => check()));
    const inputs = Array.from({ length: 40 }, (_, i) => run(checks[i % 10]!, probe({ at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) })));
    const { settled, transactions: used } = await batch(inputs);
    expect(used).toBe(1);
    expect(settled.map((s) => s.status)).toEqual(inputs.map(() => 'fulfilled'));
    settled.forEach((s, i) => expect((s as PromiseFulfilledResult<Record<string, any>>).value).toMatchObject({ checkId: inputs[i]!.check.id, sequenceId: inputs[i]!.sequenceId }));
    for (const c of checks) {
      const stored = await resultsOf(c.id);
      expect(stored).toHaveLength(4);
      // Results, their events and the outbox follow the order the runs were recorded in.
      expect(eventsOf(c.id).created).toEqual(stored.map((r) => r.id));
      expect(eventsOf(c.id).changed.map((e) => [e.previous, e.current])).toEqual([[null, 'PASSING']]);
    }
    const outbox = await base.db.query<{ result_id: string }>(
      'SELECT result_id FROM alert_outbox WHERE check_id = ANY($1::uuid[]) ORDER BY id', [checks.map((c) => c.id)]);
    expect(outbox.map((r) => r.result_id)).toEqual(settled.map((s) => (s as PromiseFulfilledResult<Record<string, any>>).value.id));
  });

  it('rejects only the run whose check was deleted while it ran, with NOT_FOUND; the others of its batch are stored and published', async () => {
    const [kept1, gone, kept2] = [await check(), await check(), await check()];
    await base.checks.delete(accountId, gone.id);
    const { settled } = await batch([run(kept1, probe()), run(gone, probe()), run(kept2, probe())]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'NOT_FOUND' });
    expect(await resultsOf(kept1.id)).toHaveLength(1);
    expect(await resultsOf(kept2.id)).toHaveLength(1);
    expect(eventsOf(gone.id)).toEqual({ created: [], changed: [] });
    expect(eventsOf(kept2.id).created).toHaveLength(1);
  });

  it('rejects only the runs whose lease is lost, counting the FINAL results of a job in one batch as one after the other would', async () => {
    const [lost, shared, other] = [await check(), await check(), await check()];
    const slot = new Date(Date.UTC(2026, 0, 2));
    await base.runJobs.enqueue([
      { checkId: lost.id, slotAt: slot, locations: ['eu-west-1'] },
      { checkId: shared.id, slotAt: slot, locations: ['eu-west-1', 'us-east-1'] },
    ]);
    const jobs = (await base.runJobs.claim('me', 1000, 60_000)).filter((j) => j.check_id === lost.id || j.check_id === shared.id);
    const jobOf = (c: RunnableCheck) => jobs.find((j) => j.check_id === c.id)!.id;
    // Another process took the first job over.
    await base.db.query('UPDATE run_jobs SET lease_owner = $2 WHERE id = $1', [jobOf(lost), 'someone else']);
    const sharedLease = { id: jobOf(shared), owner: 'me' };
    const { settled, transactions: used } = await batch([
      run(lost, probe(), { lease: { id: jobOf(lost), owner: 'me' } }),
      run(shared, probe(), { lease: sharedLease, location: 'eu-west-1' }),
      run(shared, probe(), { lease: sharedLease, location: 'us-east-1' }),
      // The job has its two FINAL results: a third (a re-run) and an attempt after them are refused.
      run(shared, probe(), { lease: sharedLease, location: 'us-east-1' }),
      run(shared, probe(), { lease: sharedLease, resultType: 'ATTEMPT' }),
      run(other, probe()),
    ]);
    expect(used).toBe(1);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
    for (const i of [0, 3, 4]) expect((settled[i] as PromiseRejectedResult).reason).toBeInstanceOf(LeaseLostError);
    expect(await resultsOf(lost.id)).toEqual([]);
    expect(await resultsOf(shared.id)).toHaveLength(2);
    const [job] = await base.db.query<{ state: string; finals_stored: number }>('SELECT state, finals_stored FROM run_jobs WHERE id = $1', [sharedLease.id]);
    expect(job).toEqual({ state: 'done', finals_stored: 2 });
    expect(eventsOf(lost.id)).toEqual({ created: [], changed: [] });
  });

  it('moves a check\'s status through several results of one batch exactly as recording them one after the other does', async () => {
    const batched = await check('twin');
    const sequential = await check('twin');
    const at = (s: number) => new Date(Date.UTC(2026, 0, 3, 0, 0, s));
    const runsOf = (c: RunnableCheck) => [
      run(c, probe({ at: at(10), responseTime: 120.4 })),
      run(c, errorProbe('ECONNREFUSED', 'connection refused', at(20), { failure: true }), { location: 'us-east-1' }),
      run(c, probe({ at: at(30), responseTime: 80, isDegraded: true })),
      // A late result of an earlier run: it moves the response times, not the flags.
      run(c, probe({ at: at(25), responseTime: 300.6 }), { location: 'us-east-1' }),
      run(c, probe({ at: at(40), responseTime: 95 })),
    ];
    const { transactions: used } = await batch(runsOf(batched));
    expect(used).toBe(1);
    for (const input of runsOf(sequential)) await recorder.record(input);

    const comparable = (e: CheckStatusChangedEvent) => {
      const { checkId: _c, lastCheckRunId: _r, created_at: _a, updated_at: _u, ...rest } = e.status;
      return { previous: e.previous, current: e.current, status: rest };
    };
    expect(eventsOf(batched.id).changed.map(comparable)).toEqual(eventsOf(sequential.id).changed.map(comparable));
    expect(eventsOf(batched.id).changed.map((e) => e.current)).toEqual(['PASSING', 'FAILING', 'DEGRADED', 'PASSING']);
    const [a, b] = [(await base.checkStatuses.get(accountId, batched.id))!, (await base.checkStatuses.get(accountId, sequential.id))!];
    const state = ({ check_id: _c, last_check_run_id: _r, created_at: _a, updated_at: _u, ...rest }: typeof a) => rest;
    expect(state(a)).toEqual(state(b));
    // The flags and run id are those of the newest run (started last), not of the last one recorded.
    expect(a.last_check_run_id).toBe((await resultsOf(batched.id))[4]!.check_run_id);
  });

  it('files errors seen several times in one batch under one error group, as one after the other would', async () => {
    const batched = await check();
    const sequential = await check();
    const at = (s: number) => new Date(Date.UTC(2026, 0, 4, 0, 0, s));
    const runsOf = (c: RunnableCheck) => [
      run(c, errorProbe('ETIMEDOUT', 'timed out after 5000 ms', at(30), { failure: true })),
      run(c, errorProbe('ETIMEDOUT', 'timed out after 7000 ms', at(10), { failure: true })),
      run(c, errorProbe('ECONNRESET', 'socket hang up', at(20), { failure: true })),
    ];
    await batch(runsOf(batched));
    for (const input of runsOf(sequential)) await recorder.record(input);
    const groups = (checkId: string) => base.db.query<{ id: string }>(
      `SELECT id, raw_error_message, cleaned_error_message, first_seen, last_seen FROM error_groups WHERE check_id = $1 ORDER BY first_seen`, [checkId]);
    const [mine, theirs] = [await groups(batched.id), await groups(sequential.id)];
    expect(mine.map(({ id: _, ...g }) => g)).toEqual(theirs.map(({ id: _, ...g }) => g));
    expect(mine).toHaveLength(2);
    const stored = await resultsOf(batched.id);
    expect(stored[0]!.error_group_ids).toEqual(stored[1]!.error_group_ids);
    expect(stored[2]!.error_group_ids).not.toEqual(stored[0]!.error_group_ids);
  });

  it('rejects every run of a batch whose commit fails, storing and publishing none of them', async () => {
    // A deferred constraint is checked at COMMIT: the statements all succeed, the commit does not.
    await base.db.exec(`
      CREATE OR REPLACE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused at commit'; END $$;
      CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON check_results DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (NEW.name = 'refused at commit') EXECUTE FUNCTION refuse_at_commit();`);
    try {
      const [fine, refused] = [await check(), await check('refused at commit')];
      const { settled, transactions: used } = await batch([run(fine, probe()), run(refused, probe()), run(fine, probe())]);
      expect(used).toBe(1);
      expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
      for (const s of settled) expect(String((s as PromiseRejectedResult).reason)).toMatch(/refused at commit/);
      expect(await resultsOf(fine.id)).toEqual([]);
      expect(await base.checkStatuses.get(accountId, fine.id)).toBeUndefined();
      expect(eventsOf(fine.id)).toEqual({ created: [], changed: [] });
      // The recorder goes on with the next batch.
      await expect(recorder.record(run(fine, probe()))).resolves.toMatchObject({ checkId: fine.id });
    } finally {
      await base.db.exec('DROP TRIGGER refuse_at_commit ON check_results');
    }
  });

  it('writes batches one at a time: what is recorded while a batch commits waits for the next transaction', async () => {
    const c = await check();
    const before = transactions;
    const first = recorder.record(run(c, probe()));
    // Queued a turn later, while the first batch's transaction runs.
    const second = new Promise<Record<string, any>>((resolve, reject) => setImmediate(() => {
      const more = [recorder.record(run(c, probe())), recorder.record(run(c, probe()))];
      Promise.all(more).then((r) => resolve(r[0]!), reject);
    }));
    await Promise.all([first, second]);
    expect(transactions - before).toBe(2);
    expect(await resultsOf(c.id)).toHaveLength(3);
  });

  it('answers a run whose after-commit work throws with that error, and goes on acknowledging later batches', async () => {
    const c = await check();
    let calls = 0;
    const throwing = createRunRecorder({ store, bus, logger, onRecorded: () => { if (calls++ === 0) throw new Error('onRecorded failed'); } });
    try {
      const [first, second] = await Promise.allSettled([throwing.record(run(c, probe())), throwing.record(run(c, probe()))]);
      expect(first).toMatchObject({ status: 'rejected', reason: { message: 'onRecorded failed' } });
      expect(second.status).toBe('fulfilled');
      await expect(throwing.record(run(c, probe()))).resolves.toMatchObject({ checkId: c.id });
    } finally {
      await throwing.close();
    }
  });
});
