import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../src/domain/check-result.js';
import { createAlerting, type Alerting } from '../../src/jobs/alerting/create-alerting.js';
import { BACKENDS } from '../support/backends.js';
import { gql } from '../support/graphql.js';
import { createManualClock, type ManualClock } from '../support/manual-clock.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const INCIDENTS = '/v1/status-pages/incidents';

describe.each(BACKENDS)('incident automation from check alerts ($name)', (backend) => {
  let server: TestServer;
  let clock: ManualClock;
  let recorder: ReturnType<typeof testRecorder>;
  let alerting: Alerting;
  let serviceId: string;
  let theirService: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    serviceId = (await server.a.request('POST', '/v1/status-pages/services', { name: 'Checkout' })).body.id;
    theirService = (await server.b.request('POST', '/v1/status-pages/services', { name: 'Theirs' })).body.id;
  });
  afterAll(async () => server?.close());
  beforeEach(() => {
    clock = createManualClock(new Date());
    recorder = testRecorder(server.lookout.store);
    alerting = createAlerting({ store: server.lookout.store, bus: recorder.bus, logger: pino({ level: 'silent' }), clock });
  });
  afterEach(async () => alerting?.close());

  const apiCheck = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const res = await client.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
      name: `Check ${randomUUID().slice(0, 8)}`,
      request: { url: 'https://shop.test/' },
      useGlobalAlertSettings: false,
      alertSettings: { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, reminders: { amount: 0, interval: 5 } },
      triggerIncident: { serviceId, name: 'Checkout is down', description: 'Payments fail', severity: 'CRITICAL', notifySubscribers: false },
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body as Record<string, any>;
  };
  const run = async (check: Record<string, any>, outcome: 'pass' | 'fail') => {
    const p: Partial<ProbeResult> = outcome === 'fail'
      ? { hasFailures: true, errors: [{ code: 'ASSERTION_FAILED', message: 'STATUS_CODE EQUALS 200 failed: 503' }] }
      : { hasFailures: false };
    await recorder.record({ check: runnable(server.a, check), probe: probe({ at: clock.now(), ...p }) });
    await alerting.idle();
    clock.advance(60_000);
  };
  const incidentsOf = async (client: TestClient, name: string) => {
    const res = await client.request('GET', `${INCIDENTS}?limit=100`);
    expect(res.status).toBe(200);
    return (res.body.entries as Record<string, any>[]).filter((i) => i.name === name);
  };

  it('opens one incident on the trigger\'s service when the check alerts, appends while it fails, and resolves it on recovery', async () => {
    const name = `Outage ${randomUUID().slice(0, 6)}`;
    const check = await apiCheck(server.a, { triggerIncident: { serviceId, name, description: 'Payments fail', severity: 'CRITICAL' } });
    await run(check, 'pass');
    expect(await incidentsOf(server.a, name)).toEqual([]);
    await run(check, 'fail');
    const opened = (await incidentsOf(server.a, name))[0]!;
    expect(opened).toMatchObject({
      name, severity: 'CRITICAL', lastUpdateStatus: 'INVESTIGATING', duration: null,
      services: [expect.objectContaining({ id: serviceId, name: 'Checkout' })],
      incidentUpdates: [expect.objectContaining({ description: 'Payments fail', status: 'INVESTIGATING', notifySubscribers: false })],
    });
    await run(check, 'fail');
    expect(await incidentsOf(server.a, name)).toHaveLength(1);
    await run(check, 'pass');
    const resolved = (await incidentsOf(server.a, name))[0]!;
    expect(resolved.id).toBe(opened.id);
    expect(resolved.lastUpdateStatus).toBe('RESOLVED');
    expect(resolved.duration).toBe(120);
    expect(resolved.incidentUpdates.map((u: { status: string }) => u.status)).toEqual(['RESOLVED', 'INVESTIGATING']);
    await run(check, 'fail');
    const both = await incidentsOf(server.a, name);
    expect(both).toHaveLength(2);
    expect(both[0]!.id).not.toBe(opened.id);
    expect(both[0]!.lastUpdateStatus).toBe('INVESTIGATING');
  });

  it('opens one incident on the autoIncident services built from a check without a triggerIncident, and resolves it on recovery', async () => {
    const check = await apiCheck(server.a, { triggerIncident: undefined });
    const name = `Shop ${randomUUID().slice(0, 6)}`;
    const auto = (await server.a.request('POST', '/v1/status-pages/services', { name, autoIncident: true, checks: [{ id: check.id }] })).body.id as string;
    // Built from the same check but without automatic incidents: the incident must not name it.
    const manual = (await server.a.request('POST', '/v1/status-pages/services', { name: `${name} (manual)`, checks: [{ id: check.id }] })).body.id as string;
    expect(manual).toBeTruthy();
    await run(check, 'pass');
    expect(await incidentsOf(server.a, `${name}: outage`)).toEqual([]);
    await run(check, 'fail');
    const opened = await incidentsOf(server.a, `${name}: outage`);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ severity: 'MAJOR', lastUpdateStatus: 'INVESTIGATING', services: [expect.objectContaining({ id: auto, name })] });
    await run(check, 'fail');
    await run(check, 'pass');
    const resolved = await incidentsOf(server.a, `${name}: outage`);
    expect(resolved.map((i) => [i.id, i.lastUpdateStatus])).toEqual([[opened[0]!.id, 'RESOLVED']]);
  });

  it('links the incident and the check both ways, over REST and GraphQL', async () => {
    const name = `Linked ${randomUUID().slice(0, 6)}`;
    const check = await apiCheck(server.a, { triggerIncident: { serviceId, name } });
    const query = `query($id: ID!) { check(id: $id) { ... on ApiCheck { triggerIncident { service { serviceId } openIncident { incidentId check { checkId } } } } } }`;
    const before = await gql(server.a, query, { id: check.id });
    expect(before.data.check.triggerIncident).toEqual({ service: { serviceId }, openIncident: null });
    await run(check, 'fail');
    const incident = (await incidentsOf(server.a, name))[0]!;
    expect(incident.checkId).toBe(check.id);
    const open = await gql(server.a, query, { id: check.id });
    expect(open.errors).toBeUndefined();
    expect(open.data.check.triggerIncident.openIncident).toEqual({ incidentId: incident.id, check: { checkId: check.id } });
    await run(check, 'pass');
    expect((await gql(server.a, query, { id: check.id })).data.check.triggerIncident.openIncident).toBeNull();
    const manual = (await server.a.request('POST', INCIDENTS, { name: 'By hand', severity: 'MINOR', services: [{ id: serviceId }], incidentUpdates: [] })).body;
    expect(manual.checkId).toBeNull();
  });

  it('opens a new incident after somebody resolved the automated one by hand', async () => {
    const name = `Manual ${randomUUID().slice(0, 6)}`;
    const check = await apiCheck(server.a, { triggerIncident: { serviceId, name } });
    await run(check, 'fail');
    const first = (await incidentsOf(server.a, name))[0]!;
    expect(first.severity).toBe('MAJOR');
    expect((await server.a.request('POST', `${INCIDENTS}/${first.id}/incident-updates`, { description: 'Fixed by hand', status: 'RESOLVED' })).status).toBe(201);
    await run(check, 'pass');
    await run(check, 'fail');
    const all = await incidentsOf(server.a, name);
    expect(all.map((i) => i.lastUpdateStatus)).toEqual(['INVESTIGATING', 'RESOLVED']);
  });

  it('opens nothing for a muted check, and tells public pages about what it writes', async () => {
    const changes: string[] = [];
    const off = recorder.bus.subscribe('publicContentChanged', (e) => changes.push(`${e.subject}:${e.subjectId}`));
    const mutedName = `Muted ${randomUUID().slice(0, 6)}`;
    const muted = await apiCheck(server.a, { muted: true, triggerIncident: { serviceId, name: mutedName } });
    await run(muted, 'fail');
    expect(await incidentsOf(server.a, mutedName)).toEqual([]);
    const name = `Told ${randomUUID().slice(0, 6)}`;
    await run(await apiCheck(server.a, { triggerIncident: { serviceId, name } }), 'fail');
    const incident = (await incidentsOf(server.a, name))[0]!;
    expect(changes).toEqual([`incident:${incident.id}`]);
    off();
  });

  it.each([
    ['an unknown service', () => '00000000-0000-4000-8000-000000000000'],
    ['another account\'s service', () => theirService],
    ['a malformed service id', () => 'not-a-uuid'],
  ])('refuses a trigger naming %s with a 400 naming triggerIncident.serviceId, writing nothing', async (_name, id) => {
    const before = (await server.a.request('GET', '/v1/checks?limit=100')).body.length;
    const res = await server.a.request('POST', '/v1/checks/api', {
      name: 'Bad trigger', request: { url: 'https://shop.test/' }, triggerIncident: { serviceId: id(), name: 'x' },
    });
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toEqual(['triggerIncident.serviceId']);
    expect((await server.a.request('GET', '/v1/checks?limit=100')).body.length).toBe(before);
  });

  it('refuses a severity outside the four', async () => {
    const res = await server.a.request('POST', '/v1/checks/api', {
      name: 'Bad severity', request: { url: 'https://shop.test/' }, triggerIncident: { serviceId, name: 'x', severity: 'HUGE' },
    });
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toEqual(['triggerIncident.severity']);
  });
});
