import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const HOUR_MS = 3_600_000;
/** An instant `hours` from now, whole seconds, as the API writes it. */
const fromNow = (hours: number) => new Date(Math.floor((Date.now() + hours * HOUR_MS) / 1000) * 1000).toISOString();

describe.each(BACKENDS)('the maintenance of each check over REST ($name)', (backend) => {
  let s: TestServer;
  const ids: Record<string, string> = {};

  const createCheck = async (client: TestClient, name: string, tags: string[]) => {
    const res = await client.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
      name, tags, frequency: 1440, locations: ['eu-west-1'], activated: false, request: { method: 'GET', url: 'https://shop.example.test/' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  const createWindow = async (body: Record<string, unknown>) => {
    const res = await s.a.request('POST', '/v1/maintenance-windows', { startsAt: fromNow(24), endsAt: fromNow(26), ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number; name: string };
  };
  /** Starts the window's first maintenance now, as "Start now" in the console does (an update moving it to IN_PROGRESS). */
  const startNow = async (windowId: number) => {
    const path = `/v1/maintenance-windows/${windowId}/maintenances`;
    const [first] = (await s.a.request('GET', path)).body;
    const res = await s.a.request('POST', `${path}/${first.id}/updates`, { status: 'IN_PROGRESS', description: 'Started by hand.' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (await s.a.request('GET', `${path}/${first.id}`)).body as { id: string; endsAt: string };
  };
  /** Ends the window's maintenance in progress ("End now"). */
  const endNow = async (windowId: number) => {
    const path = `/v1/maintenance-windows/${windowId}/maintenances`;
    const [first] = (await s.a.request('GET', path)).body;
    expect((await s.a.request('POST', `${path}/${first.id}/updates`, { status: 'COMPLETED', description: 'Done.' })).status).toBe(201);
  };
  const states = async (query: string) => {
    const res = await s.a.request('GET', `/v1/check-maintenance?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Array<{ checkId: string; maintenance: Record<string, unknown> | null }>;
  };

  beforeAll(async () => {
    s = await startTestServer({ backend });
    ids.db = await createCheck(s.a, 'Database health', ['db']);
    ids.web = await createCheck(s.a, 'Website', ['web']);
    ids.plain = await createCheck(s.a, 'No tags', []);
    ids.theirs = await createCheck(s.b, 'Theirs', ['db']);
  });
  afterAll(async () => s?.close());

  it('answers null for every check while no window covers it, and leaves out other accounts\' and unknown checks', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await states(`checkId=${ids.db},${ids.theirs}&checkId=${unknown}&checkId=${ids.web}&checkId=${ids.db!.toUpperCase()}`)).toEqual([
      { checkId: ids.db, maintenance: null },
      { checkId: ids.web, maintenance: null },
    ]);
  });

  it('names the next maintenance of a window covering the check by its tags, and nothing for the checks it does not cover', async () => {
    const later = await createWindow({ name: 'DB upgrade', tags: ['DB'], startsAt: fromNow(48), endsAt: fromNow(50) });
    const sooner = await createWindow({ name: 'DB patch', silenceAlertsTags: ['db'], startsAt: fromNow(24), endsAt: fromNow(25) });
    const [db, web, plain] = await states(`checkId=${ids.db}&checkId=${ids.web}&checkId=${ids.plain}`);
    expect(db!.maintenance).toMatchObject({ state: 'SCHEDULED', maintenanceWindowId: sooner.id, maintenanceWindowName: 'DB patch', paused: false });
    expect(web!.maintenance).toBeNull();
    expect(plain!.maintenance).toBeNull();
    expect(later.id).not.toBe(sooner.id);
  });

  it('prefers a maintenance in progress, the one ending last, paused when any in progress pauses the check', async () => {
    const pausing = await createWindow({ name: 'Pause the database checks', tags: ['db'], pauseAllChecks: true, startsAt: fromNow(30), endsAt: fromNow(31) });
    await startNow(pausing.id);
    const silencing = await createWindow({ name: 'Silence everything', silenceAllAlerts: true, startsAt: fromNow(30), endsAt: fromNow(40) });
    const going = await startNow(silencing.id);
    const [db, web] = await states(`checkId=${ids.db}&checkId=${ids.web}`);
    expect(db!.maintenance).toEqual({
      state: 'IN_PROGRESS', maintenanceWindowId: silencing.id, maintenanceWindowName: 'Silence everything', maintenanceId: going.id,
      startsAt: expect.any(String), endsAt: going.endsAt, paused: true,
    });
    expect(web!.maintenance).toMatchObject({ state: 'IN_PROGRESS', maintenanceWindowId: silencing.id, paused: false });
    const their = await s.b.request('GET', `/v1/check-maintenance?checkId=${ids.theirs}`);
    expect(their.body).toEqual([{ checkId: ids.theirs, maintenance: null }]);

    for (const id of [pausing.id, silencing.id]) await endNow(id);
    const [after] = await states(`checkId=${ids.db}`);
    expect(after!.maintenance).toMatchObject({ state: 'SCHEDULED', maintenanceWindowName: 'DB patch' });
  });

  it('finds the covering window however many windows the account has', async () => {
    for (let i = 0; i < 45; i++) await createWindow({ name: `Unrelated ${i}`, tags: [`other-${i}`] });
    const late = await createCheck(s.a, 'Late tag', ['late']);
    const window = await createWindow({ name: 'The 50th window', tags: ['late'] });
    expect((await states(`checkId=${late}`))[0]!.maintenance).toMatchObject({ state: 'SCHEDULED', maintenanceWindowId: window.id });
  });

  it('refuses a missing, malformed or too long list of check ids with a 400 naming the key', async () => {
    for (const [query, key] of [['', 'checkId'], ['checkId=nope', 'checkId.0'], [Array.from({ length: 101 }, () => `checkId=${ids.db}`).join('&'), 'checkId']] as const) {
      const res = await s.a.request('GET', `/v1/check-maintenance?${query}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.attributes?.validation ?? res.body)).toContain(key);
    }
  });
});
