import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookoutEvent } from '../../src/events/lookout-event.js';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';
import { fuzzParameters } from '../support/fuzz-parameters.js';

const WINDOWS = '/v1/maintenance-windows';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const maintenancesOf = (id: number) => `${WINDOWS}/${id}/maintenances`;
const updatesOf = (id: number, maintenanceId: string) => `${maintenancesOf(id)}/${maintenanceId}/updates`;
/** An instant `hours` from now, whole seconds, as the API writes it. */
const fromNow = (hours: number) => new Date(Math.floor((Date.now() + hours * HOUR_MS) / 1000) * 1000).toISOString();

describe.each(BACKENDS)('maintenance windows over REST ($name)', (backend) => {
  let s: TestServer;
  let shown: string;
  let unshown: string;
  let theirService: string;
  let page: string;
  let theirPage: string;
  const events: LookoutEvent[] = [];

  beforeAll(async () => {
    s = await startTestServer({ backend });
    shown = (await s.a.request('POST', '/v1/status-pages/services', { name: 'API' })).body.id;
    unshown = (await s.a.request('POST', '/v1/status-pages/services', { name: 'Not on a page' })).body.id;
    theirService = (await s.b.request('POST', '/v1/status-pages/services', { name: 'Theirs' })).body.id;
    const created = await s.a.request('POST', '/v1/status-pages', { name: 'Status', url: `mw-${backend.name}-a`, cards: [{ name: 'Core', services: [{ id: shown }] }] });
    expect(created.status).toBe(201);
    page = created.body.id;
    theirPage = (await s.b.request('POST', '/v1/status-pages', { name: 'Theirs', url: `mw-${backend.name}-b`, cards: [] })).body.id;
    s.lookout.bus.subscribe('maintenanceUpdated', (e) => events.push(e));
    s.lookout.bus.subscribe('publicContentChanged', (e) => events.push(e));
  });
  afterAll(async () => s?.close());

  const count = async (table: string) => (await s.lookout.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const counts = async () => Promise.all(['maintenance_windows', 'maintenances', 'maintenance_updates', 'maintenance_window_services', 'maintenance_window_status_pages'].map(count));
  const createWindow = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const res = await client.request('POST', WINDOWS, { name: 'Database upgrade', startsAt: fromNow(24), endsAt: fromNow(26), ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const maintenances = async (id: number, query = '') => (await s.a.request('GET', `${maintenancesOf(id)}${query}`)).body;
  /** An event of `type` about window `id` published after `since` events, once it arrives. */
  const eventAbout = async (type: LookoutEvent['type'], id: number, since: number) => {
    for (;;) {
      const found = events.slice(since).find((e) => e.type === type && (e.type === 'maintenanceUpdated' ? e.maintenanceWindowId === id : 'subjectId' in e && e.subjectId === String(id)));
      if (found) return found;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it('creates a one-off window with every default filled, reads, lists, updates and deletes it', async () => {
    const startsAt = fromNow(24);
    const endsAt = fromNow(26);
    const created = await s.a.request('POST', WINDOWS, { name: 'Database upgrade', startsAt, endsAt, tags: ['db'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Database upgrade',
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(endsAt).toISOString(),
      repeatUnit: null,
      repeatInterval: null,
      repeatEndsAt: null,
      timezone: 'UTC',
      tags: ['db'],
      pauseAllChecks: false,
      silenceAlertsTags: [],
      silenceAllAlerts: false,
      description: null,
      statusPageVisibility: {
        enabled: false, severity: null, affectAllServices: false, notifyOnStart: false, notifyOnEnd: false, suppressAutoIncidents: false,
        reminderMinutesBefore: [], autoStart: true, autoEnd: true, showAffectedServices: true, statusPageIds: [], serviceIds: [],
      },
      created_at: expect.any(String),
      updated_at: null,
    });
    const id = created.body.id as number;
    expect((await s.a.request('GET', `${WINDOWS}/${id}`)).body).toEqual(created.body);

    const list = await s.a.request('GET', WINDOWS);
    expect(list.status).toBe(200);
    expect(list.body.map((w: { id: number }) => w.id)).toContain(id);
    expect(list.headers.get('content-range')).toMatch(/^0-\d+\/\d+$/);

    const occurrences = await maintenances(id);
    expect(occurrences).toEqual([{
      id: expect.any(String), maintenanceWindowId: id, occurrence: 0, startsAt: created.body.startsAt, endsAt: created.body.endsAt,
      status: 'SCHEDULED', dateAdjusted: false, created_at: expect.any(String), updated_at: null,
    }]);

    // Only the fields sent change; null keeps (name) or clears (description).
    const updated = await s.a.request('PUT', `${WINDOWS}/${id}`, { name: null, description: 'Postgres 17', statusPageVisibility: { autoEnd: false } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Database upgrade', description: 'Postgres 17', tags: ['db'], updated_at: expect.any(String) });
    expect(updated.body.statusPageVisibility).toMatchObject({ autoEnd: false, autoStart: true });
    expect((await s.a.request('PUT', `${WINDOWS}/${id}`, { description: null })).body.description).toBeNull();

    expect((await s.a.request('DELETE', `${WINDOWS}/${id}`)).status).toBe(204);
    expect((await s.a.request('GET', `${WINDOWS}/${id}`)).status).toBe(404);
    expect((await s.a.request('DELETE', `${WINDOWS}/${id}`)).status).toBe(404);
    expect((await s.a.request('GET', maintenancesOf(id))).status).toBe(404);
    expect(await s.lookout.store.db.query('SELECT id FROM maintenances WHERE window_id = $1', [id])).toEqual([]);
  });

  it('plans a weekly window in a named zone that keeps its local time across the spring-forward change', async () => {
    // Sundays 02:30 in Berlin; 2030-03-31 02:30 falls in the gap and runs at 03:30 CEST, the same instant as 01:30 UTC.
    const window = await createWindow(s.a, {
      startsAt: '2030-03-24T01:30:00Z', endsAt: '2030-03-24T02:30:00Z', repeatUnit: 'WEEK', repeatEndsAt: '2030-04-07', timezone: 'europe/berlin',
    });
    expect(window).toMatchObject({ timezone: 'Europe/Berlin', repeatUnit: 'WEEK', repeatInterval: null, repeatEndsAt: '2030-04-07' });
    const starts = (await maintenances(window.id)).map((m: { startsAt: string; occurrence: number }) => [m.occurrence, m.startsAt]);
    expect(starts).toEqual([[0, '2030-03-24T01:30:00.000Z'], [1, '2030-03-31T01:30:00.000Z'], [2, '2030-04-07T00:30:00.000Z']]);
  });

  it('keeps startsAt and endsAt as the same instants when only the time zone changes, and re-plans the rest in the new zone', async () => {
    const window = await createWindow(s.a, { startsAt: '2030-01-06T09:00:00Z', endsAt: '2030-01-06T10:00:00Z', repeatUnit: 'MONTH', repeatEndsAt: '2030-07-31' });
    const before = await maintenances(window.id);
    // Adjusted by hand: no re-plan moves it.
    const adjusted = await s.a.request('PATCH', `${maintenancesOf(window.id)}/${before[1].id}`, { startsAt: '2030-02-06T08:00:00Z' });
    expect(adjusted.status).toBe(200);
    expect(adjusted.body).toMatchObject({ startsAt: '2030-02-06T08:00:00.000Z', endsAt: before[1].endsAt, dateAdjusted: true, status: 'SCHEDULED' });

    const moved = await s.a.request('PUT', `${WINDOWS}/${window.id}`, { timezone: 'America/New_York' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ startsAt: window.startsAt, endsAt: window.endsAt, timezone: 'America/New_York' });
    const after = await maintenances(window.id);
    // 04:00 in New York: 09:00 UTC in winter, 08:00 UTC in summer time.
    expect(after.map((m: { startsAt: string }) => m.startsAt)).toEqual([
      '2030-01-06T09:00:00.000Z', '2030-02-06T08:00:00.000Z', '2030-03-06T09:00:00.000Z', '2030-04-06T08:00:00.000Z',
      '2030-05-06T08:00:00.000Z', '2030-06-06T08:00:00.000Z', '2030-07-06T08:00:00.000Z',
    ]);
    expect(after.map((m: { id: string }) => m.id).slice(0, 3)).toEqual(before.map((m: { id: string }) => m.id).slice(0, 3));
  });

  it('never brings back a deleted maintenance, and turns a recurring window into a one-off with repeatUnit null', async () => {
    const window = await createWindow(s.a, { startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T01:00:00Z', repeatUnit: 'DAY', repeatInterval: 2, repeatEndsAt: '2030-01-07' });
    const [first, second] = await maintenances(window.id);
    expect((await s.a.request('DELETE', `${maintenancesOf(window.id)}/${second.id}`)).status).toBe(204);
    expect((await s.a.request('GET', `${maintenancesOf(window.id)}/${second.id}`)).status).toBe(404);
    expect((await s.a.request('DELETE', `${maintenancesOf(window.id)}/${second.id}`)).status).toBe(404);
    await s.a.request('PUT', `${WINDOWS}/${window.id}`, { name: 'Renamed' });
    expect((await maintenances(window.id)).map((m: { occurrence: number }) => m.occurrence)).toEqual([0, 2, 3]);

    const oneOff = await s.a.request('PUT', `${WINDOWS}/${window.id}`, { repeatUnit: null, repeatInterval: null, repeatEndsAt: null });
    expect(oneOff.body).toMatchObject({ repeatUnit: null, repeatInterval: null, repeatEndsAt: null });
    expect((await maintenances(window.id)).map((m: { id: string }) => m.id)).toEqual([first.id]);
  });

  it('plans a recurring window without repeatEndsAt 400 days ahead and pages its maintenances with Content-Range', async () => {
    const window = await createWindow(s.a, { startsAt: fromNow(1), endsAt: fromNow(2), repeatUnit: 'WEEK' });
    const res = await s.a.request('GET', `${maintenancesOf(window.id)}?limit=50&page=2`);
    expect(res.status).toBe(200);
    expect(res.body.map((m: { occurrence: number }) => m.occurrence)).toEqual([50, 51, 52, 53, 54, 55, 56, 57]);
    expect(res.headers.get('content-range')).toBe('50-57/58');
    const beyond = await s.a.request('GET', `${maintenancesOf(window.id)}?page=9`);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('content-range')).toBe('*/58');
    expect((await s.a.request('GET', `${maintenancesOf(window.id)}?limit=51`)).status).toBe(400);
  });

  it('filters windows and maintenances by startsAt and endsAt constraints', async () => {
    const early = await createWindow(s.a, { name: 'early', startsAt: '2031-01-01T00:00:00Z', endsAt: '2031-01-01T01:00:00Z' });
    const late = await createWindow(s.a, { name: 'late', startsAt: '2031-06-01T00:00:00Z', endsAt: '2031-06-01T05:00:00Z' });
    const ids = async (query: string) => {
      const res = await s.a.request('GET', `${WINDOWS}?limit=100&${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.map((w: { id: number }) => w.id).filter((id: number) => id === early.id || id === late.id);
    };
    expect(await ids('startsAt[gte]=2031-01-01&startsAt[lt]=2031-02-01')).toEqual([early.id]);
    expect(await ids('startsAt[gt]=2031-01-01T00:00:00Z')).toEqual([late.id]);
    expect(await ids('endsAt[lte]=2031-06-01T05:00:00Z&startsAt[gte]=2030-12-31')).toEqual([early.id, late.id]);
    expect(await ids(`endsAt.lt=${encodeURIComponent('2031-06-01T05:00:00+00:00')}`)).toEqual([early.id]);
    const weekly = await createWindow(s.a, { startsAt: '2031-01-01T00:00:00Z', endsAt: '2031-01-01T01:00:00Z', repeatUnit: 'WEEK', repeatEndsAt: '2031-02-01' });
    expect((await maintenances(weekly.id, '?startsAt[gte]=2031-01-10&endsAt[lt]=2031-01-22')).map((m: { occurrence: number }) => m.occurrence)).toEqual([2]);
  });

  it.each([
    ['startsAt[eq]=2031-01-01', 'startsAt.eq'],
    ['endsAt[lt]=soon', 'endsAt.lt'],
    ['startsAt=2031-01-01', 'startsAt'],
    ['startsAt[gt]=2031-01-01&startsAt[gt]=2031-01-02', 'startsAt.gt'],
    // The year 0000 parses, but PGlite cannot take it as a parameter: it was a 500 there.
    ['startsAt[gte]=0000-01-01', 'startsAt.gte'],
    ['endsAt[lt]=0000-06-01T00:00:00Z', 'endsAt.lt'],
  ])('answers 400 naming the key for the filter %s', async (query, key) => {
    for (const path of [WINDOWS, maintenancesOf((await createWindow(s.a)).id)]) {
      const res = await s.a.request('GET', `${path}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.validation).toMatchObject({ source: 'query', keys: [key] });
    }
  });

  it('links status pages and the services they show, and affects all services only with none named', async () => {
    const window = await createWindow(s.a, {
      statusPageVisibility: { enabled: true, severity: 'MAJOR', statusPageIds: [page], serviceIds: [shown.toUpperCase()], reminderMinutesBefore: [1440, 60] },
    });
    expect(window.statusPageVisibility).toMatchObject({ enabled: true, severity: 'MAJOR', statusPageIds: [page], serviceIds: [shown], reminderMinutesBefore: [1440, 60] });
    const all = await s.a.request('PUT', `${WINDOWS}/${window.id}`, { statusPageVisibility: { affectAllServices: true, serviceIds: [] } });
    expect(all.status).toBe(200);
    expect(all.body.statusPageVisibility).toMatchObject({ affectAllServices: true, serviceIds: [], statusPageIds: [page], severity: 'MAJOR' });
    const refused = await s.a.request('PUT', `${WINDOWS}/${window.id}`, { statusPageVisibility: { serviceIds: [shown] } });
    expect(refused.status).toBe(400);
    expect(refused.body.validation.keys).toEqual(['statusPageVisibility.serviceIds']);
  });

  const later = { startsAt: '2032-01-01T00:00:00Z', endsAt: '2032-01-01T01:00:00Z' };
  it.each([
    ['a UTC offset as time zone', { ...later, timezone: '+05:00' }, 'timezone'],
    ['an unknown time zone', { ...later, timezone: 'Mars/Olympus_Mons' }, 'timezone'],
    ['an end before the start', { startsAt: '2032-01-01T01:00:00Z', endsAt: '2032-01-01T00:00:00Z' }, 'endsAt'],
    ['a start that is no date-time', { startsAt: 'tomorrow', endsAt: '2032-01-01T01:00:00Z' }, 'startsAt'],
    // Found by the fuzz suite below: a 500 on PGlite, which cannot store the year 0000 (1 BC).
    ['a one-off window in the year 0000', { startsAt: '0000-01-01T00:00:00Z', endsAt: '0000-01-01T01:00:00Z' }, 'startsAt'],
    ['no end', { startsAt: '2032-01-01T01:00:00Z' }, 'endsAt'],
    ['an unknown repeat unit', { ...later, repeatUnit: 'YEAR' }, 'repeatUnit'],
    ['a repeat interval of 0', { ...later, repeatUnit: 'DAY', repeatInterval: 0 }, 'repeatInterval'],
    ['a repeat interval of 366', { ...later, repeatUnit: 'DAY', repeatInterval: 366 }, 'repeatInterval'],
    ['a repeat interval without a unit', { ...later, repeatInterval: 2 }, 'repeatUnit'],
    ['a repeat end that is no date', { ...later, repeatUnit: 'DAY', repeatEndsAt: '2032-13-01' }, 'repeatEndsAt'],
    ['a repeat end before the start', { ...later, repeatUnit: 'DAY', repeatEndsAt: '2031-12-31' }, 'repeatEndsAt'],
    ['more than 1,000 maintenances ahead', { ...later, repeatUnit: 'DAY', repeatEndsAt: '2036-01-01' }, 'repeatEndsAt'],
    ['a name of 201 characters', { ...later, name: 'x'.repeat(201) }, 'name'],
    ['a blank name', { ...later, name: '  ' }, 'name'],
    ['a description of 2001 characters', { ...later, description: 'x'.repeat(2001) }, 'description'],
    ['a reminder under an hour', { ...later, statusPageVisibility: { reminderMinutesBefore: [59] } }, 'statusPageVisibility.reminderMinutesBefore.0'],
    ['a reminder over a week', { ...later, statusPageVisibility: { reminderMinutesBefore: [10_081] } }, 'statusPageVisibility.reminderMinutesBefore.0'],
    ['four reminders', { ...later, statusPageVisibility: { reminderMinutesBefore: [60, 120, 180, 240] } }, 'statusPageVisibility.reminderMinutesBefore'],
    ['a reminder listed twice', { ...later, statusPageVisibility: { reminderMinutesBefore: [60, 60] } }, 'statusPageVisibility.reminderMinutesBefore.1'],
    ['an unknown severity', { ...later, statusPageVisibility: { severity: 'HUGE' } }, 'statusPageVisibility.severity'],
  ])('refuses %s with 400 naming %s, writing nothing', async (_what, body, key) => {
    const before = await counts();
    const res = await s.a.request('POST', WINDOWS, { name: 'Bad', ...body });
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toContain(key);
    expect(res.body.message).toContain(key);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['affectAllServices with services named', () => ({ affectAllServices: true, statusPageIds: [page], serviceIds: [shown] }), 'statusPageVisibility.serviceIds'],
    ['an unknown service', () => ({ statusPageIds: [page], serviceIds: [UNKNOWN] }), 'statusPageVisibility.serviceIds.0'],
    ['another account\'s service', () => ({ statusPageIds: [page], serviceIds: [theirService] }), 'statusPageVisibility.serviceIds.0'],
    ['a service no linked page shows', () => ({ statusPageIds: [page], serviceIds: [unshown] }), 'statusPageVisibility.serviceIds.0'],
    ['another account\'s status page', () => ({ statusPageIds: [theirPage] }), 'statusPageVisibility.statusPageIds.0'],
  ])('refuses %s with 400 naming the key, writing nothing, on create and update', async (_what, visibility, key) => {
    const window = await createWindow(s.a);
    const before = await counts();
    const created = await s.a.request('POST', WINDOWS, { name: 'Bad', ...later, statusPageVisibility: visibility() });
    expect(created.status).toBe(400);
    expect(created.body.validation.keys).toEqual([key]);
    const updated = await s.a.request('PUT', `${WINDOWS}/${window.id}`, { name: 'Not renamed', statusPageVisibility: visibility() });
    expect(updated.status).toBe(400);
    expect(updated.body.validation.keys).toEqual([key]);
    expect(await counts()).toEqual(before);
    expect((await s.a.request('GET', `${WINDOWS}/${window.id}`)).body.name).toBe('Database upgrade');
  });

  it('never answers 5xx to random window bodies, and writes only when it answers 201', async () => {
    const dateish = fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.string(), fc.constantFrom('2030-03-30T02:30:00+02:00', '0000-12-31T23:00:00Z', '9999-12-31T23:59:59Z'), fc.constant(null));
    const body = fc.record({
      name: fc.oneof(fc.string({ maxLength: 210 }), fc.constant(null)),
      startsAt: dateish,
      endsAt: dateish,
      repeatUnit: fc.oneof(fc.constantFrom('DAY', 'WEEK', 'MONTH', 'YEAR'), fc.constant(null)),
      repeatInterval: fc.oneof(fc.integer({ min: -1, max: 400 }), fc.constant(null)),
      repeatEndsAt: fc.oneof(dateish, fc.constantFrom('2030-12-31', '2030-02-30')),
      timezone: fc.oneof(fc.constantFrom('Europe/Berlin', '+05:00', 'Australia/Lord_Howe', 'UTC', ''), fc.string(), fc.constant(null)),
      statusPageVisibility: fc.oneof(fc.record({
        enabled: fc.boolean(), affectAllServices: fc.boolean(),
        reminderMinutesBefore: fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 4 }),
        serviceIds: fc.array(fc.constantFrom(shown, unshown, UNKNOWN), { maxLength: 2 }),
        statusPageIds: fc.array(fc.constantFrom(page, UNKNOWN), { maxLength: 2 }),
      }, { requiredKeys: [] }), fc.jsonValue()),
    }, { requiredKeys: [] });
    await fc.assert(fc.asyncProperty(fc.oneof(body, fc.jsonValue()), async (sent) => {
      const before = await count('maintenance_windows');
      const res = await s.a.request('POST', WINDOWS, JSON.stringify(sent));
      expect(res.status).toBeLessThan(500);
      if (res.status === 400) expect(res.body.validation.keys.length).toBeGreaterThan(0);
      expect(await count('maintenance_windows')).toBe(res.status === 201 ? before + 1 : before);
    }), fuzzParameters(150, 20261010));
  });

  it('moves a maintenance through its lifecycle with updates that record what they changed', async () => {
    const window = await createWindow(s.a, { startsAt: fromNow(2), endsAt: fromNow(4) });
    const [m] = await maintenances(window.id);
    const path = updatesOf(window.id, m.id);

    // An early start moves the start to now.
    const started = await s.a.request('POST', path, { status: 'IN_PROGRESS', description: 'Starting early', notifySubscribers: true });
    expect(started.status).toBe(201);
    expect(started.body).toEqual({
      id: expect.any(String), maintenanceWindowId: window.id, maintenanceId: m.id, status: 'IN_PROGRESS', description: 'Starting early',
      notifySubscribers: true, previousStatus: 'SCHEDULED', previousStartsAt: m.startsAt, previousEndsAt: m.endsAt,
      dateAdjustments: { startsAt: expect.any(String), endsAt: m.endsAt }, automatic: false, created_at: expect.any(String), updated_at: null,
    });
    expect(Date.parse(started.body.dateAdjustments.startsAt)).toBeLessThan(Date.parse(m.startsAt));
    const running = (await s.a.request('GET', `${maintenancesOf(window.id)}/${m.id}`)).body;
    expect(running).toMatchObject({ status: 'IN_PROGRESS', startsAt: started.body.dateAdjustments.startsAt, dateAdjusted: true });

    const verifying = await s.a.request('POST', path, { status: 'VERIFYING', description: 'Checking' });
    expect(verifying.body).toMatchObject({ previousStatus: 'IN_PROGRESS', previousStartsAt: null, previousEndsAt: null, dateAdjustments: null, notifySubscribers: false });

    // Completing before the planned end moves the end to now; a date sent wins.
    const done = await s.a.request('POST', path, { status: 'COMPLETED', description: 'Done' });
    expect(done.body).toMatchObject({ status: 'COMPLETED', previousStatus: 'VERIFYING', previousEndsAt: m.endsAt });
    const refused = await s.a.request('POST', path, { status: 'SCHEDULED', description: 'Again?' });
    expect(refused.status).toBe(400);
    expect(refused.body.validation.keys).toEqual(['status']);
    const newEnd = fromNow(6);
    const reopened = await s.a.request('POST', path, { status: 'IN_PROGRESS', description: 'Reopened', endsAt: newEnd });
    expect(reopened.body).toMatchObject({ status: 'IN_PROGRESS', previousStatus: 'COMPLETED', dateAdjustments: { endsAt: newEnd } });

    const list = await s.a.request('GET', `${path}?limit=2`);
    expect(list.body.map((u: { id: string }) => u.id)).toEqual([reopened.body.id, done.body.id]);
    expect(list.headers.get('content-range')).toBe('0-1/4');
    expect((await s.a.request('GET', `${path}/${started.body.id}`)).body).toEqual(started.body);

    // Only the latest update may change its status; every update may change its text.
    const edited = await s.a.request('PUT', `${path}/${started.body.id}`, { description: 'Started early', status: null });
    expect(edited.body).toMatchObject({ description: 'Started early', status: 'IN_PROGRESS', notifySubscribers: true, updated_at: expect.any(String) });
    const olderStatus = await s.a.request('PUT', `${path}/${started.body.id}`, { description: 'x', status: 'CANCELLED' });
    expect(olderStatus.status).toBe(400);
    expect(olderStatus.body.validation.keys).toEqual(['status']);
    const latest = await s.a.request('PUT', `${path}/${reopened.body.id}`, { description: 'Reopened by mistake', status: 'COMPLETED' });
    expect(latest.body).toMatchObject({ status: 'COMPLETED', previousStatus: 'COMPLETED' });
    expect((await s.a.request('GET', `${maintenancesOf(window.id)}/${m.id}`)).body.status).toBe('COMPLETED');
  });

  it.each([
    ['an unknown status', { status: 'MAINTENANCE', description: 'x' }, 'status'],
    ['no description', { status: 'IN_PROGRESS' }, 'description'],
    ['a description of 2001 characters', { status: 'IN_PROGRESS', description: 'x'.repeat(2001) }, 'description'],
    ['VERIFYING before the start', { status: 'VERIFYING', description: 'x' }, 'status'],
    ['an end before the start', { status: 'SCHEDULED', description: 'x', endsAt: '2000-01-01T00:00:00Z' }, 'endsAt'],
    // The year 0000 was a 500 on PGlite, which cannot store it.
    ['a start in the year 0000', { status: 'SCHEDULED', description: 'x', startsAt: '0000-06-01T00:00:00Z' }, 'startsAt'],
  ])('refuses an update with %s, naming %s, writing nothing', async (_what, body, key) => {
    const window = await createWindow(s.a);
    const [m] = await maintenances(window.id);
    const before = await counts();
    const res = await s.a.request('POST', updatesOf(window.id, m.id), body);
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toEqual([key]);
    expect(await counts()).toEqual(before);
    expect((await s.a.request('GET', `${maintenancesOf(window.id)}/${m.id}`)).body).toEqual(m);
  });

  it('refuses an adjustment to the year 0000, which PGlite cannot store, naming the key', async () => {
    const window = await createWindow(s.a);
    const [m] = await maintenances(window.id);
    const res = await s.a.request('PATCH', `${maintenancesOf(window.id)}/${m.id}`, { startsAt: '0000-06-01T00:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toEqual(['startsAt']);
    expect((await s.a.request('GET', `${maintenancesOf(window.id)}/${m.id}`)).body).toEqual(m);
  });

  it('refuses an adjustment whose end is not after its start, naming the key', async () => {
    const window = await createWindow(s.a);
    const [m] = await maintenances(window.id);
    const res = await s.a.request('PATCH', `${maintenancesOf(window.id)}/${m.id}`, { endsAt: m.startsAt });
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toEqual(['endsAt']);
    expect((await s.a.request('PATCH', `${maintenancesOf(window.id)}/${m.id}`, {})).body).toEqual(m);
  });

  it('keeps accounts apart: another account\'s windows, maintenances and updates answer 404', async () => {
    const window = await createWindow(s.a);
    const [m] = await maintenances(window.id);
    const update = (await s.a.request('POST', updatesOf(window.id, m.id), { status: 'SCHEDULED', description: 'Heads up' })).body;
    const before = await counts();
    for (const [method, path, body] of [
      ['GET', `${WINDOWS}/${window.id}`], ['PUT', `${WINDOWS}/${window.id}`, { name: 'x' }], ['DELETE', `${WINDOWS}/${window.id}`],
      ['GET', maintenancesOf(window.id)], ['GET', `${maintenancesOf(window.id)}/${m.id}`], ['PATCH', `${maintenancesOf(window.id)}/${m.id}`, { endsAt: fromNow(30) }],
      ['DELETE', `${maintenancesOf(window.id)}/${m.id}`], ['GET', updatesOf(window.id, m.id)], ['POST', updatesOf(window.id, m.id), { status: 'CANCELLED', description: 'x' }],
      ['GET', `${updatesOf(window.id, m.id)}/${update.id}`], ['PUT', `${updatesOf(window.id, m.id)}/${update.id}`, { description: 'x' }],
    ] as const) {
      const res = await s.b.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(await counts()).toEqual(before);
    expect((await s.b.request('GET', WINDOWS)).body.map((w: { id: number }) => w.id)).not.toContain(window.id);
    // A maintenance of another window of the same account is not found either.
    const other = await createWindow(s.a);
    expect((await s.a.request('GET', `${maintenancesOf(other.id)}/${m.id}`)).status).toBe(404);
    expect((await s.a.request('GET', `${updatesOf(window.id, UNKNOWN)}`)).status).toBe(404);
  });

  it('moves the public content version on and publishes maintenanceUpdated and publicContentChanged after each write', async () => {
    const version = async () => s.lookout.store.publicContentVersions.get(s.a.accountId);
    const v0 = await version();
    let since = events.length;
    const window = await createWindow(s.a);
    const changed = await eventAbout('publicContentChanged', window.id, since);
    expect(changed).toMatchObject({ accountId: s.a.accountId, subject: 'maintenance', subjectId: String(window.id), version: v0 + 1 });
    expect(await eventAbout('maintenanceUpdated', window.id, since)).toMatchObject({ maintenanceId: null, maintenance: { id: window.id, name: 'Database upgrade' } });

    const [m] = await maintenances(window.id);
    since = events.length;
    await s.a.request('POST', updatesOf(window.id, m.id), { status: 'CANCELLED', description: 'Not needed' });
    expect(await eventAbout('maintenanceUpdated', window.id, since)).toMatchObject({ maintenanceId: m.id, maintenance: { id: m.id, status: 'CANCELLED' } });
    expect(await version()).toBe(v0 + 2);

    since = events.length;
    await s.a.request('DELETE', `${WINDOWS}/${window.id}`);
    expect(await eventAbout('maintenanceUpdated', window.id, since)).toMatchObject({ maintenanceId: null, maintenance: null });
    expect(await version()).toBe(v0 + 3);
    // A refused write moves nothing.
    await s.a.request('POST', WINDOWS, { name: 'Bad', startsAt: fromNow(2), endsAt: fromNow(1) });
    expect(await version()).toBe(v0 + 3);
  });

  it('accepts a zero-length window (startsAt == endsAt) as a point in time that never starts, so it pauses nothing', async () => {
    const at = fromNow(1);
    const window = await createWindow(s.a, { name: 'Marker', startsAt: at, endsAt: at, pauseAllChecks: true });
    expect(window).toMatchObject({ startsAt: at, endsAt: at });
    const [m] = await maintenances(window.id);
    expect(m).toMatchObject({ startsAt: at, endsAt: at, status: 'SCHEDULED' });
    // Once its instant has passed, the clock does not start it and nothing is in maintenance because of it.
    const later = new Date(Date.now() + 2 * HOUR_MS);
    expect((await s.lookout.store.maintenanceOccurrences.dueStarts(later, 1000)).map((o) => o.id)).not.toContain(m.id);
    expect((await s.lookout.store.activeMaintenances.ofAccount(s.a.accountId, later)).map((w) => w.windowId)).not.toContain(window.id);
    const before = await s.a.request('POST', WINDOWS, { name: 'Backwards', startsAt: fromNow(2), endsAt: fromNow(1) });
    expect(before.status).toBe(400);
    expect(JSON.stringify(before.body)).toContain('endsAt');
  });

  it('tells automation which windows have a maintenance going on, with what they do', async () => {
    const window = await createWindow(s.a, {
      startsAt: fromNow(1), endsAt: fromNow(3), tags: ['api'], pauseAllChecks: true, silenceAlertsTags: ['noisy'],
      statusPageVisibility: { enabled: true, suppressAutoIncidents: true, statusPageIds: [page], serviceIds: [shown] },
    });
    const [m] = await maintenances(window.id);
    const inProgress = (accountId: string, at: Date) => s.lookout.store.activeMaintenances.ofAccount(accountId, at);
    expect((await inProgress(s.a.accountId, new Date())).map((w) => w.windowId)).not.toContain(window.id);
    await s.a.request('POST', updatesOf(window.id, m.id), { status: 'IN_PROGRESS', description: 'Now' });
    const going = (await inProgress(s.a.accountId, new Date(Date.now() + 1000))).find((w) => w.windowId === window.id);
    expect(going).toMatchObject({
      maintenanceId: m.id, tags: ['api'], pauseAllChecks: true, silenceAlertsTags: ['noisy'], silenceAllAlerts: false, suppressAutoIncidents: true,
    });
    expect(await inProgress(s.b.accountId, new Date(Date.now() + 1000))).toEqual([]);
    // Started early: the maintenance began now, not before.
    expect((await inProgress(s.a.accountId, new Date(Date.now() - DAY_MS))).map((w) => w.maintenanceId)).not.toContain(m.id);
  });

  it('takes a deleted service or status page off the windows that named it', async () => {
    const service = (await s.a.request('POST', '/v1/status-pages/services', { name: 'Short-lived' })).body.id;
    const shortPage = (await s.a.request('POST', '/v1/status-pages', { name: 'Short', url: `mw-${backend.name}-short`, cards: [{ name: 'c', services: [{ id: service }] }] })).body.id;
    const window = await createWindow(s.a, { statusPageVisibility: { statusPageIds: [shortPage, page], serviceIds: [service] } });
    expect((await s.a.request('DELETE', `/v1/status-pages/${shortPage}`)).status).toBe(204);
    expect((await s.a.request('DELETE', `/v1/status-pages/services/${service}`)).status).toBe(204);
    expect((await s.a.request('GET', `${WINDOWS}/${window.id}`)).body.statusPageVisibility).toMatchObject({ statusPageIds: [page], serviceIds: [] });
  });
});
