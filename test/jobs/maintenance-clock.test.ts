import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryEventBus } from '../../src/events/create-memory-event-bus.js';
import type { EventBus } from '../../src/events/event-bus.js';
import type { EventOf, LookoutEvent } from '../../src/events/lookout-event.js';
import { createMaintenanceClock, type MaintenanceClock } from '../../src/jobs/maintenance-clock.js';
import { createAccountWithKey } from '../../src/service/bootstrap.js';
import { createMaintenanceWindowService, type MaintenanceWindowService } from '../../src/service/maintenance-window-service.js';
import type { Store } from '../../src/store/create-store.js';
import { BACKENDS, openTestStore } from '../support/backends.js';
import { createManualClock, type ManualClock } from '../support/manual-clock.js';
import { startTestServer } from '../support/test-server.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

describe.each(BACKENDS)('the maintenance clock ($name)', (backend) => {
  let store: Store;
  let bus: EventBus;
  let clock: ManualClock;
  let service: MaintenanceWindowService;
  let accountId: string;
  const clocks: MaintenanceClock[] = [];
  const events: LookoutEvent[] = [];

  beforeAll(async () => {
    store = await openTestStore(backend);
    accountId = (await createAccountWithKey(store, { name: 'Maintenance' })).accountId;
  });
  afterAll(async () => store?.close());
  beforeEach(async () => {
    bus = createMemoryEventBus();
    clock = createManualClock(new Date('2030-06-01T00:00:00Z'));
    service = createMaintenanceWindowService({ store, bus, clock });
    events.length = 0;
    bus.subscribe('maintenanceUpdated', (e) => events.push(e));
    bus.subscribe('publicContentChanged', (e) => events.push(e));
  });
  afterEach(async () => {
    for (const c of clocks.splice(0)) await c.close();
    await bus.close();
    // Every clock sees every account's windows: each test starts from none.
    await store.db.query('DELETE FROM maintenance_windows');
  });

  const startClock = async (options: { bus?: EventBus } = {}) => {
    const c = createMaintenanceClock({ store, bus: options.bus ?? bus, logger, clock });
    clocks.push(c);
    await c.idle();
    return c;
  };
  const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();
  /** A window whose one maintenance runs from 5 to 10 minutes from now, unless `body` says otherwise. */
  const createWindow = (body: Record<string, unknown>) => service.windows.create(accountId, { name: 'Upgrade', startsAt: at(5 * MINUTE), endsAt: at(10 * MINUTE), ...body } as never);
  const occurrencesOf = async (windowId: number) => (await service.maintenances.list(accountId, windowId, 1, 50, {})).items;
  const statusOf = async (windowId: number) => (await occurrencesOf(windowId))[0]!.status;
  const updatesOf = async (windowId: number, maintenanceId: string) => (await service.updates.list(accountId, windowId, maintenanceId, 1, 100)).items;
  const idle = async () => {
    for (const c of clocks) await c.idle();
  };
  /**
   * Moves the manual clock on by `ms`, a safety-net interval (a minute) at a time, letting every clock
   * finish each pass: every pass then runs at the time it would in a real process.
   */
  const advance = async (ms: number) => {
    for (let left = ms; left > 0; left -= Math.min(left, MINUTE)) {
      clock.advance(Math.min(left, MINUTE));
      await idle();
    }
  };
  /** Resolves with the next `maintenanceUpdated` event, after each clock took it in. */
  const nextUpdate = () => new Promise<EventOf<'maintenanceUpdated'>>((resolve) => {
    const stop = bus.subscribe('maintenanceUpdated', (e) => {
      stop();
      resolve(e);
    });
  });

  it('starts a maintenance at its start and completes it at its end, each time with one automatic update', async () => {
    const version = await store.publicContentVersions.get(accountId);
    const window = await createWindow({ statusPageVisibility: { enabled: true, notifyOnStart: true } });
    await startClock();
    await advance(5 * MINUTE - SECOND);
    expect(await statusOf(window.id)).toBe('SCHEDULED');
    await advance(SECOND);
    const [m] = await occurrencesOf(window.id);
    expect(m).toMatchObject({ status: 'IN_PROGRESS', startsAt: window.startsAt, dateAdjusted: false });
    expect(await updatesOf(window.id, m!.id)).toEqual([expect.objectContaining({
      status: 'IN_PROGRESS', previousStatus: 'SCHEDULED', automatic: true, notifySubscribers: true, dateAdjustments: null,
    })]);

    await advance(5 * MINUTE);
    expect(await statusOf(window.id)).toBe('COMPLETED');
    const updates = await updatesOf(window.id, m!.id);
    expect(updates.map((u) => [u.status, u.previousStatus, u.automatic, u.notifySubscribers])).toEqual([
      ['COMPLETED', 'IN_PROGRESS', true, false], ['IN_PROGRESS', 'SCHEDULED', true, true],
    ]);
    const published = events.filter((e) => e.type === 'maintenanceUpdated' && e.maintenanceId === m!.id) as EventOf<'maintenanceUpdated'>[];
    expect(published.map((e) => e.maintenance?.status)).toEqual(['IN_PROGRESS', 'COMPLETED']);
    expect(events.filter((e) => e.type === 'publicContentChanged').map((e) => (e as EventOf<'publicContentChanged'>).version)).toEqual([1, 2, 3].map((n) => version + n));
  });

  it('sleeps until the next due instant rather than the safety net, and wakes up early for a window written meanwhile', async () => {
    await startClock();
    // The clock is armed for its safety net (a minute); a window starting in 30 s moves that timer.
    const woken = nextUpdate();
    const window = await createWindow({ startsAt: at(30 * SECOND), endsAt: at(45 * SECOND) });
    await woken;
    await idle();
    clock.advance(30 * SECOND);
    await idle();
    expect(await statusOf(window.id)).toBe('IN_PROGRESS');
    clock.advance(15 * SECOND);
    await idle();
    expect(await statusOf(window.id)).toBe('COMPLETED');
  });

  it('finds a window written without an event within its safety net of a minute', async () => {
    await startClock();
    const silent = createMaintenanceWindowService({ store, clock });
    const window = await silent.windows.create(accountId, { name: 'Quiet', startsAt: at(10 * SECOND), endsAt: at(HOUR) });
    clock.advance(10 * SECOND);
    await idle();
    expect(await statusOf(window.id)).toBe('SCHEDULED');
    clock.advance(50 * SECOND);
    await idle();
    expect(await statusOf(window.id)).toBe('IN_PROGRESS');
  });

  it('leaves a shown window without autoStart or autoEnd to its users, and always moves a hidden one', async () => {
    const manualStart = await createWindow({ statusPageVisibility: { enabled: true, autoStart: false } });
    const manualEnd = await createWindow({ statusPageVisibility: { enabled: true, autoEnd: false } });
    const hidden = await createWindow({ statusPageVisibility: { enabled: false, autoStart: false, autoEnd: false } });
    await startClock();
    await advance(5 * MINUTE);
    expect([await statusOf(manualStart.id), await statusOf(manualEnd.id), await statusOf(hidden.id)]).toEqual(['SCHEDULED', 'IN_PROGRESS', 'IN_PROGRESS']);
    await advance(10 * MINUTE);
    expect([await statusOf(manualStart.id), await statusOf(manualEnd.id), await statusOf(hidden.id)]).toEqual(['SCHEDULED', 'IN_PROGRESS', 'COMPLETED']);
  });

  it('ends a maintenance someone started by hand, and never starts one someone cancelled', async () => {
    const started = await createWindow({});
    const cancelled = await createWindow({});
    await startClock();
    const [s] = await occurrencesOf(started.id);
    const [c] = await occurrencesOf(cancelled.id);
    await service.updates.create(accountId, started.id, s!.id, { status: 'IN_PROGRESS', description: 'Early' });
    await service.updates.create(accountId, cancelled.id, c!.id, { status: 'CANCELLED', description: 'Not needed' });
    await advance(10 * MINUTE);
    expect(await statusOf(started.id)).toBe('COMPLETED');
    expect(await statusOf(cancelled.id)).toBe('CANCELLED');
    expect((await updatesOf(started.id, s!.id)).map((u) => [u.status, u.automatic])).toEqual([['COMPLETED', true], ['IN_PROGRESS', false]]);
    expect((await updatesOf(cancelled.id, c!.id)).map((u) => u.status)).toEqual(['CANCELLED']);
  });

  it('catches up when it starts after a maintenance\'s start and end: started and completed, only the end notifying', async () => {
    const window = await createWindow({ statusPageVisibility: { enabled: true, notifyOnStart: true, notifyOnEnd: true } });
    clock.advance(15 * MINUTE);
    await startClock();
    const [m] = await occurrencesOf(window.id);
    expect(m!.status).toBe('COMPLETED');
    expect((await updatesOf(window.id, m!.id)).map((u) => [u.status, u.notifySubscribers])).toEqual([['COMPLETED', true], ['IN_PROGRESS', false]]);
  });

  it('moves each maintenance exactly once when several clocks run over one store', async () => {
    const windows = await Promise.all([1, 2, 3].map(() => createWindow({})));
    const other = createMemoryEventBus();
    await startClock();
    await startClock({ bus: other });
    await startClock({ bus: other });
    await advance(10 * MINUTE);
    for (const window of windows) {
      const [m] = await occurrencesOf(window.id);
      expect(m!.status).toBe('COMPLETED');
      expect((await updatesOf(window.id, m!.id)).map((u) => u.status)).toEqual(['COMPLETED', 'IN_PROGRESS']);
    }
    await other.close();
  });

  it('claims a move once, and only when it is due', async () => {
    const window = await createWindow({ startsAt: at(-MINUTE), endsAt: at(HOUR) });
    const [m] = await occurrencesOf(window.id);
    const now = clock.now();
    const claims = await Promise.all([0, 1, 2].map(() => store.transaction((tx) => tx.maintenanceOccurrences.claimStart(m!.id, now))));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await store.transaction((tx) => tx.maintenanceOccurrences.claimEnd(m!.id, now))).toBeUndefined();
  });

  it('records reminders once each, superseding those that fall due together, for shown windows only', async () => {
    const shown = await createWindow({ startsAt: at(HOUR + 11 * MINUTE), endsAt: at(2 * HOUR), statusPageVisibility: { enabled: true, reminderMinutesBefore: [60, 70] } });
    const late = await createWindow({ startsAt: at(30 * MINUTE), endsAt: at(HOUR), statusPageVisibility: { enabled: true, reminderMinutesBefore: [60, 120] } });
    const hidden = await createWindow({ startsAt: at(HOUR + 10 * MINUTE), endsAt: at(2 * HOUR), statusPageVisibility: { enabled: false, reminderMinutesBefore: [60] } });
    const announced: number[] = [];
    const off = bus.subscribe('maintenanceReminderDue', (e) => announced.push(e.maintenanceWindowId));
    await startClock();
    const remindersOf = async (windowId: number) => {
      const [m] = await occurrencesOf(windowId);
      return (await store.maintenanceUpdates.remindersOf(m!.id)).map((r) => [r.minutes_before, r.superseded]);
    };
    // Created inside both of its lead times: one reminder for delivery, the other superseded.
    expect(await remindersOf(late.id)).toEqual([[120, true], [60, false]]);
    expect(await remindersOf(shown.id)).toEqual([]);
    await advance(MINUTE - SECOND);
    expect(await remindersOf(shown.id)).toEqual([]);
    await advance(SECOND);
    expect(await remindersOf(shown.id)).toEqual([[70, false]]);
    await advance(10 * MINUTE);
    expect(await remindersOf(shown.id)).toEqual([[70, false], [60, false]]);
    await advance(2 * MINUTE);
    expect(await remindersOf(shown.id)).toEqual([[70, false], [60, false]]);
    expect(await remindersOf(hidden.id)).toEqual([]);
    // Each reminder for delivery is announced once (the superseded one is not), so a notifier anywhere sends it now.
    await expect.poll(() => announced).toEqual([late.id, shown.id, shown.id]);
    off();

    const pending = await store.maintenanceUpdates.pendingNotifications(100);
    expect(pending.filter((n) => n.kind === 'reminder').map((n) => [n.window_id, n.minutes_before])).toEqual([[late.id, 60], [shown.id, 70], [shown.id, 60]]);
    expect(await store.maintenanceUpdates.markNotified('reminder', pending[0]!.id, clock.now())).toBe(true);
    expect(await store.maintenanceUpdates.markNotified('reminder', pending[0]!.id, clock.now())).toBe(false);
  });

  it('reminds again for a new start when a maintenance is moved later', async () => {
    const window = await createWindow({ startsAt: at(30 * MINUTE), endsAt: at(HOUR), statusPageVisibility: { enabled: true, reminderMinutesBefore: [60] } });
    await startClock();
    const [m] = await occurrencesOf(window.id);
    const moved = nextUpdate();
    await service.maintenances.patch(accountId, window.id, m!.id, { startsAt: at(2 * HOUR), endsAt: at(3 * HOUR) });
    await moved;
    // A leap: the pass it fires runs at the start of it; the last minute is walked.
    clock.advance(HOUR - MINUTE);
    await idle();
    await advance(MINUTE);
    expect((await store.maintenanceUpdates.remindersOf(m!.id)).map((r) => r.starts_at.toISOString())).toEqual([new Date(Date.parse(window.startsAt)).toISOString(), at(HOUR)]);
  });

  it('extends the plan of a recurring window without repeatEndsAt as days pass', async () => {
    const window = await createWindow({ repeatUnit: 'DAY' });
    await startClock();
    const before = (await service.maintenances.list(accountId, window.id, 1, 1, {})).total;
    expect(before).toBe(400);
    clock.advance(24 * HOUR);
    await idle();
    await advance(MINUTE);
    const after = await service.maintenances.list(accountId, window.id, 1, 50, {});
    expect(after.total).toBe(401);
    // The days that passed ran and finished on time.
    expect(after.items[0]).toMatchObject({ occurrence: 0, status: 'COMPLETED' });
  });

  it('stops its timer when closed', async () => {
    const c = await startClock();
    expect(clock.pending()).toBe(1);
    await c.close();
    expect(clock.pending()).toBe(0);
  });
});

describe('the maintenance clock in a running server', () => {
  it('runs beside alerting when the runner is on, moving a maintenance at its start', async () => {
    const s = await startTestServer({ config: { runnerEnabled: true } });
    try {
      const started = new Promise<EventOf<'maintenanceUpdated'>>((resolve) => {
        s.lookout.bus.subscribe('maintenanceUpdated', (e) => {
          if (e.maintenance?.status === 'IN_PROGRESS') resolve(e);
        });
      });
      const startsAt = new Date(Date.now() + 500).toISOString();
      const res = await s.a.request('POST', '/v1/maintenance-windows', { name: 'Soon', startsAt, endsAt: new Date(Date.now() + HOUR).toISOString() });
      expect(res.status).toBe(201);
      const event = await started;
      expect(event).toMatchObject({ maintenanceWindowId: res.body.id, maintenance: { status: 'IN_PROGRESS' } });
      const updates = await s.a.request('GET', `/v1/maintenance-windows/${res.body.id}/maintenances/${event.maintenanceId}/updates`);
      expect(updates.body).toEqual([expect.objectContaining({ status: 'IN_PROGRESS', automatic: true })]);
    } finally {
      await s.close();
    }
  });
});
