import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { withCheckDefaults } from '../../src/domain/check-defaults.js';
import type { CheckType } from '../../src/domain/catalog.js';
import type { Store } from '../../src/store/create-store.js';
import { createScheduler, type ScheduledRun } from '../../src/runner/create-scheduler.js';
import { BACKENDS, openTestStore } from '../support/backends.js';

const logger = pino({ level: 'silent' });
const MINUTE = 60_000;

describe.each(BACKENDS)('scheduler on $name', (backend) => {
  let store: Store;
  let accountId: string;
  beforeAll(async () => {
    store = await openTestStore(backend);
    accountId = (await store.accounts.create({ name: 'sched' })).id;
  });
  afterAll(async () => store?.close());
  beforeEach(async () => {
    await store.db.query('DELETE FROM checks');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    // 30 s past a minute boundary, and ahead of the real clock: PostgreSQL's now() (the refresh
    // watermark) is real time, while checks are created at the fake time; a fake time in the past
    // would put new checks before the watermark once the real clock passed it.
    vi.setSystemTime(new Date('2099-11-22T10:00:30.000Z'));
  });
  afterEach(() => vi.useRealTimers());

  async function addCheck(type: CheckType, extra: Record<string, unknown>) {
    const id = randomUUID();
    const base = type === 'TCP' ? { request: { hostname: 'h', port: 1 } } : type === 'HEARTBEAT' ? { heartbeat: { period: 1, periodUnit: 'minutes', grace: 0, graceUnit: 'seconds' } } : { request: { url: 'https://x.test' } };
    const data = withCheckDefaults(type, { name: `c-${id.slice(0, 4)}`, ...base, ...extra }, 'http://h');
    await store.checks.insert(accountId, { id, checkType: type, data });
    // Creation time on the test's (fake) clock, not the database's.
    await store.db.query('UPDATE checks SET created_at = $2 WHERE id = $1', [id, new Date()]);
    return id;
  }

  function recorder() {
    const runs: ScheduledRun[] = [];
    const releases: (() => void)[] = [];
    let hold = false;
    return {
      runs,
      holdRuns() {
        hold = true;
      },
      releaseRuns(keepHolding = false) {
        hold = keepHolding;
        for (const r of releases.splice(0)) r();
      },
      run: async (job: ScheduledRun) => {
        runs.push(job);
        if (hold) await new Promise<void>((r) => releases.push(r));
      },
    };
  }

  it('runs an activated check on each of its slots and never a deactivated one', async () => {
    const id = await addCheck('API', { frequency: 1, frequencyOffset: 1 });
    await addCheck('API', { frequency: 1, frequencyOffset: 1, activated: false });
    const rec = recorder();
    const s = createScheduler({ store, logger, run: rec.run, refreshMs: 3_600_000 });
    await s.start();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(rec.runs.map((r) => [r.row.id, r.plannedMs])).toEqual([[id, Date.parse('2099-11-22T10:01:00Z')]]);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(rec.runs.map((r) => new Date(r.plannedMs).toISOString())).toEqual([
      '2099-11-22T10:01:00.000Z', '2099-11-22T10:02:00.000Z', '2099-11-22T10:03:00.000Z',
    ]);
    await s.close();
  });

  it('runs sub-minute checks every frequencyOffset seconds', async () => {
    await addCheck('TCP', { frequency: 0, frequencyOffset: 10 });
    const rec = recorder();
    const s = createScheduler({ store, logger, run: rec.run, refreshMs: 3_600_000 });
    await s.start();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(rec.runs).toHaveLength(6);
    const gaps = rec.runs.slice(1).map((r, i) => r.plannedMs - rec.runs[i]!.plannedMs);
    expect(new Set(gaps)).toEqual(new Set([10_000]));
    await s.close();
  });

  it('with a lead hands a slot over that long (a quarter more at most) before it comes, the slot still planned; a heartbeat deadline is never early', async () => {
    const probed = await addCheck('TCP', { frequency: 0, frequencyOffset: 10 });
    const heartbeat = await addCheck('HEARTBEAT', {});
    const handed: { id: string; plannedMs: number; atMs: number }[] = [];
    const s = createScheduler({ store, logger, run: async (job) => void handed.push({ id: job.row.id, plannedMs: job.plannedMs, atMs: Date.now() }), refreshMs: 3_600_000, leadMs: 2_000 });
    await s.start();
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    const slots = handed.filter((h) => h.id === probed);
    expect(slots.length).toBeGreaterThanOrEqual(11);
    for (const h of slots) expect(h.plannedMs % 10_000).toBe(slots[0]!.plannedMs % 10_000);
    // The first slot may come sooner than the lead after the start: it is handed over at once.
    expect(slots[0]!.plannedMs - slots[0]!.atMs).toBeGreaterThanOrEqual(0);
    expect(slots[0]!.plannedMs - slots[0]!.atMs).toBeLessThanOrEqual(2_500);
    // The slots of a quarter of the lead are handed over together: each 2 to 2.5 s ahead.
    for (const h of slots.slice(1)) {
      expect(h.plannedMs - h.atMs).toBeGreaterThanOrEqual(2_000);
      expect(h.plannedMs - h.atMs).toBeLessThanOrEqual(2_500);
    }
    const deadlines = handed.filter((h) => h.id === heartbeat);
    expect(deadlines.length).toBeGreaterThan(0);
    for (const h of deadlines) expect(h.atMs).toBeGreaterThanOrEqual(h.plannedMs);
    await s.close();
  });

  it('never overlaps a check with itself: a slot due while the previous run is in flight is skipped', async () => {
    await addCheck('API', { frequency: 1, frequencyOffset: 1 });
    const rec = recorder();
    rec.holdRuns();
    const s = createScheduler({ store, logger, run: rec.run, refreshMs: 3_600_000 });
    await s.start();
    await vi.advanceTimersByTimeAsync(30_000 + 3 * MINUTE);
    expect(rec.runs).toHaveLength(1);
    expect(s.stats().overlapsSkipped).toBe(3);
    rec.releaseRuns();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(rec.runs).toHaveLength(2);
    await s.close();
  });

  it('after a restart neither runs a slot twice nor skips more than the slots it was down for', async () => {
    await addCheck('API', { frequency: 1, frequencyOffset: 1 });
    const first = recorder();
    const s1 = createScheduler({ store, logger, run: first.run, refreshMs: 3_600_000 });
    await s1.start();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(first.runs).toHaveLength(1);
    await s1.close();

    // Restarted within the same minute: the 10:02 slot is still ahead, nothing runs at once.
    const second = recorder();
    const s2 = createScheduler({ store, logger, run: second.run, refreshMs: 3_600_000 });
    await s2.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second.runs).toEqual([]);
    await s2.close();

    // Down for three and a half minutes: one catch-up run for the missed slots, then the next slot.
    vi.setSystemTime(new Date('2099-11-22T10:05:30.000Z'));
    const third = recorder();
    const s3 = createScheduler({ store, logger, run: third.run, refreshMs: 3_600_000 });
    await s3.start();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(third.runs.map((r) => [r.reason, new Date(r.plannedMs).toISOString()])).toEqual([
      ['catch-up', '2099-11-22T10:02:00.000Z'],
      ['schedule', '2099-11-22T10:06:00.000Z'],
    ]);
    await s3.close();
  });

  it('picks up created, changed and deleted checks on refresh', async () => {
    const rec = recorder();
    const s = createScheduler({ store, logger, run: rec.run, refreshMs: 5_000 });
    await s.start();
    const id = await addCheck('API', { frequency: 1, frequencyOffset: 1 });
    // The periodic refresh does database I/O that fake timers cannot wait for: refresh directly.
    await s.refresh();
    expect(s.stats().scheduled).toBe(1);
    await store.checks.update(accountId, id, { ...(await store.checks.get(accountId, id))!.data, activated: false });
    await s.refresh();
    expect(s.stats().scheduled).toBe(0);
    await store.checks.update(accountId, id, { ...(await store.checks.get(accountId, id))!.data, activated: true });
    await s.refresh();
    expect(s.stats().scheduled).toBe(1);
    await store.checks.delete(accountId, id);
    await s.refresh();
    expect(s.stats().scheduled).toBe(0);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(rec.runs).toEqual([]);
    await s.close();
  });

  it('keeps at most `concurrency` runs in flight and starts the rest as runs finish', async () => {
    for (let i = 0; i < 5; i++) await addCheck('API', { frequency: 1, frequencyOffset: 1 });
    const rec = recorder();
    rec.holdRuns();
    const delays: number[] = [];
    const s = createScheduler({ store, logger, run: rec.run, concurrency: 2, refreshMs: 3_600_000, onStartDelay: (d) => delays.push(d) });
    await s.start();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(s.stats()).toMatchObject({ inFlight: 2, waiting: 3 });
    rec.releaseRuns(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(rec.runs).toHaveLength(4);
    rec.releaseRuns(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(rec.runs).toHaveLength(5);
    expect(delays).toHaveLength(5);
    expect(delays.every((d) => d >= 0)).toBe(true);
    rec.releaseRuns();
    await s.close();
  });

  it('evaluates a heartbeat check at its deadline', async () => {
    const id = await addCheck('HEARTBEAT', {});
    const rec = recorder();
    const s = createScheduler({ store, logger, run: rec.run, refreshMs: 3_600_000 });
    await s.start();
    await vi.advanceTimersByTimeAsync(MINUTE + 1_000);
    expect(rec.runs.map((r) => [r.row.id, r.reason])).toEqual([[id, 'heartbeat-deadline']]);
    await s.close();
  });
});
