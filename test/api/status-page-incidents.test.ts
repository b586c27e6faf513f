import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const SERVICES = '/v1/status-pages/services';
const INCIDENTS = '/v1/status-pages/incidents';
const updatesOf = (incidentId: string) => `${INCIDENTS}/${incidentId}/incident-updates`;

describe.each(BACKENDS)('status page services, incidents and updates over REST ($name)', (backend) => {
  let s: TestServer;
  let api: string;
  let web: string;
  let theirs: string;

  beforeAll(async () => {
    s = await startTestServer({ backend });
    api = (await s.a.request('POST', SERVICES, { name: 'API' })).body.id;
    web = (await s.a.request('POST', SERVICES, { name: 'Website' })).body.id;
    theirs = (await s.b.request('POST', SERVICES, { name: 'Theirs' })).body.id;
  });
  afterAll(async () => s?.close());

  const count = async (table: string) => (await s.lookout.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const counts = async () => Promise.all(['status_page_services', 'status_page_incidents', 'status_page_incident_services', 'status_page_incident_updates'].map(count));
  const createIncident = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const res = await client.request('POST', INCIDENTS, { name: 'Outage', severity: 'MAJOR', services: [{ id: api }], incidentUpdates: [], ...body });
    expect(res.status).toBe(201);
    return res.body;
  };

  it('creates, reads, renames, lists and deletes a service', async () => {
    const created = await s.a.request('POST', SERVICES, { name: 'Checkout' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'Checkout', accountId: s.a.accountId, autoIncident: false, checks: [], created_at: expect.any(String), updated_at: null });
    const id = created.body.id as string;
    expect((await s.a.request('GET', `${SERVICES}/${id}`)).body).toEqual(created.body);
    const renamed = await s.a.request('PUT', `${SERVICES}/${id}`, { name: 'Payments' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'Payments', updated_at: expect.any(String) });
    const list = await s.a.request('GET', SERVICES);
    expect(list.body).toMatchObject({ length: 3, nextId: null });
    expect(list.body.entries.map((e: { id: string }) => e.id)).toEqual([id, web, api]);
    expect((await s.a.request('DELETE', `${SERVICES}/${id}`)).status).toBe(204);
    expect((await s.a.request('GET', `${SERVICES}/${id}`)).status).toBe(404);
    expect((await s.a.request('DELETE', `${SERVICES}/${id}`)).status).toBe(404);
    expect((await s.a.request('PUT', `${SERVICES}/${id}`, { name: 'x' })).status).toBe(404);
  });

  it('refuses to delete a service an incident uses, with 409 naming the incident', async () => {
    const incident = await createIncident(s.a, { name: 'Uses the API', services: [{ id: api }] });
    const res = await s.a.request('DELETE', `${SERVICES}/${api}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect(res.body.message).toContain(incident.id);
    expect(res.body.message).toContain('Uses the API');
    expect((await s.a.request('GET', `${SERVICES}/${api}`)).status).toBe(200);
    await s.a.request('DELETE', `${INCIDENTS}/${incident.id}`);
  });

  it('creates an incident with its services and updates, reads, updates, lists and deletes it', async () => {
    const created = await s.a.request('POST', INCIDENTS, {
      name: 'Checkout is slow',
      severity: 'MINOR',
      services: [{ id: web, name: 'sent back from a read', accountId: s.a.accountId }, { id: api }],
      incidentUpdates: [{ description: 'Looking into it', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-01-01T10:00:00.000Z' }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Checkout is slow',
      severity: 'MINOR',
      services: [expect.objectContaining({ id: web, name: 'Website' }), expect.objectContaining({ id: api, name: 'API' })],
      incidentUpdates: [{
        id: expect.any(String), description: 'Looking into it', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-01-01T10:00:00.000Z',
        notifySubscribers: false, created_at: expect.any(String), updated_at: null,
      }],
      lastUpdateStatus: 'INVESTIGATING',
      duration: null,
      checkId: null,
      created_at: expect.any(String),
      updated_at: null,
    });
    const id = created.body.id as string;
    expect((await s.a.request('GET', `${INCIDENTS}/${id}`)).body).toEqual(created.body);

    // Absent or null keeps; services sent replace.
    const updated = await s.a.request('PUT', `${INCIDENTS}/${id}`, { name: null, severity: 'CRITICAL', services: [{ id: api }] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Checkout is slow', severity: 'CRITICAL', services: [{ id: api }], incidentUpdates: created.body.incidentUpdates });
    expect(updated.body.updated_at).toEqual(expect.any(String));
    expect((await s.a.request('PUT', `${INCIDENTS}/${id}`, {})).body).toMatchObject({ name: 'Checkout is slow', severity: 'CRITICAL' });

    const list = await s.a.request('GET', INCIDENTS);
    expect(list.body.entries.map((e: { id: string }) => e.id)).toContain(id);

    // Web is free again: it may be deleted and recreated.
    expect((await s.a.request('DELETE', `${INCIDENTS}/${id}`)).status).toBe(204);
    expect((await s.a.request('GET', `${INCIDENTS}/${id}`)).status).toBe(404);
    expect((await s.a.request('DELETE', `${INCIDENTS}/${id}`)).status).toBe(404);
    expect((await s.a.request('GET', updatesOf(id))).status).toBe(404);
    expect(await count('status_page_incident_updates')).toBe(0);
  });

  it('creates, reads, edits, lists and deletes incident updates', async () => {
    const incident = await createIncident(s.a);
    const before = Date.now();
    const posted = await s.a.request('POST', updatesOf(incident.id), { description: 'We are on it' });
    expect(posted.status).toBe(201);
    expect(posted.body).toEqual({
      id: expect.any(String), description: 'We are on it', status: null, publicIncidentUpdateDate: expect.any(String),
      notifySubscribers: false, created_at: expect.any(String), updated_at: null,
    });
    expect(Date.parse(posted.body.publicIncidentUpdateDate)).toBeGreaterThanOrEqual(before - 1000);
    const uid = posted.body.id as string;
    expect((await s.a.request('GET', `${updatesOf(incident.id)}/${uid}`)).body).toEqual(posted.body);

    const edited = await s.a.request('PUT', `${updatesOf(incident.id)}/${uid}`, { status: 'IDENTIFIED', notifySubscribers: true, description: null });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ description: 'We are on it', status: 'IDENTIFIED', notifySubscribers: true, publicIncidentUpdateDate: posted.body.publicIncidentUpdateDate });
    expect((await s.a.request('GET', `${INCIDENTS}/${incident.id}`)).body.lastUpdateStatus).toBe('IDENTIFIED');

    const second = (await s.a.request('POST', updatesOf(incident.id), { description: 'Later', publicIncidentUpdateDate: '2999-01-01T00:00:00Z' })).body;
    const list = await s.a.request('GET', updatesOf(incident.id));
    expect(list.status).toBe(200);
    expect(list.body.map((u: { id: string }) => u.id)).toEqual([second.id, uid]);

    expect((await s.a.request('DELETE', `${updatesOf(incident.id)}/${uid}`)).status).toBe(204);
    expect((await s.a.request('GET', `${updatesOf(incident.id)}/${uid}`)).status).toBe(404);
    expect((await s.a.request('DELETE', `${updatesOf(incident.id)}/${uid}`)).status).toBe(404);
    expect((await s.a.request('PUT', `${updatesOf(incident.id)}/${uid}`, { description: 'x' })).status).toBe(404);
    // The update left keeps no status: the first update of an incident counts as INVESTIGATING.
    expect((await s.a.request('GET', `${INCIDENTS}/${incident.id}`)).body.lastUpdateStatus).toBe('INVESTIGATING');
    await s.a.request('DELETE', `${INCIDENTS}/${incident.id}`);
  });

  it('follows the updates with lastUpdateStatus and duration, through re-opening and backfilling', async () => {
    const incident = await createIncident(s.a, {
      incidentUpdates: [
        { description: 'open', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-01-01T10:00:00Z' },
        { description: 'fixed', status: 'RESOLVED', publicIncidentUpdateDate: '2026-01-01T10:30:00Z' },
      ],
    });
    expect(incident).toMatchObject({ lastUpdateStatus: 'RESOLVED', duration: 1800 });
    const path = updatesOf(incident.id);
    const read = async () => (await s.a.request('GET', `${INCIDENTS}/${incident.id}`)).body;

    const reopened = (await s.a.request('POST', path, { description: 'back', status: 'MONITORING', publicIncidentUpdateDate: '2026-01-01T11:00:00Z' })).body;
    expect(await read()).toMatchObject({ lastUpdateStatus: 'MONITORING', duration: null });

    await s.a.request('POST', path, { description: 'fixed again', status: 'RESOLVED', publicIncidentUpdateDate: '2026-01-01T11:30:00Z' });
    expect(await read()).toMatchObject({ lastUpdateStatus: 'RESOLVED', duration: 5400 });

    // A further RESOLVED without re-opening does not extend it.
    await s.a.request('POST', path, { description: 'post-mortem', status: 'RESOLVED', publicIncidentUpdateDate: '2026-01-01T12:30:00Z' });
    expect(await read()).toMatchObject({ lastUpdateStatus: 'RESOLVED', duration: 5400 });

    // Backfilling the re-opening to after the last RESOLVED re-opens the incident.
    await s.a.request('PUT', `${path}/${reopened.id}`, { publicIncidentUpdateDate: '2026-01-01T13:00:00Z' });
    expect(await read()).toMatchObject({ lastUpdateStatus: 'MONITORING', duration: null });

    // Deleting it resolves the incident again.
    await s.a.request('DELETE', `${path}/${reopened.id}`);
    expect(await read()).toMatchObject({ lastUpdateStatus: 'RESOLVED', duration: 1800 });
    await s.a.request('DELETE', `${INCIDENTS}/${incident.id}`);
  });

  it('gives an incident without updates INVESTIGATING and no duration, ignoring sent derived fields', async () => {
    const incident = await createIncident(s.a, { lastUpdateStatus: 'RESOLVED', duration: 99 });
    expect(incident).toMatchObject({ incidentUpdates: [], lastUpdateStatus: 'INVESTIGATING', duration: null });
    const single = await createIncident(s.a, { incidentUpdates: [{ description: 'backfilled', status: 'RESOLVED', publicIncidentUpdateDate: '2025-01-01T00:00:00Z' }] });
    expect(single).toMatchObject({ lastUpdateStatus: 'RESOLVED', duration: null });
    await s.a.request('DELETE', `${INCIDENTS}/${incident.id}`);
    await s.a.request('DELETE', `${INCIDENTS}/${single.id}`);
  });

  it('pages incidents and services newest first with nextId', async () => {
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three', 'four', 'five']) ids.push((await createIncident(s.a, { name })).id);
    const seen: string[] = [];
    let nextId: string | null = null;
    let pages = 0;
    do {
      const query: string = nextId ? `?limit=2&nextId=${nextId}` : '?limit=2';
      const page = await s.a.request('GET', `${INCIDENTS}${query}`);
      expect(page.status).toBe(200);
      expect(page.body.length).toBe(page.body.entries.length);
      seen.push(...page.body.entries.map((e: { id: string }) => e.id));
      nextId = page.body.nextId;
      pages++;
    } while (nextId);
    expect(seen).toEqual([...ids].reverse());
    expect(pages).toBe(3);

    const services = await s.a.request('GET', `${SERVICES}?limit=1`);
    expect(services.body).toMatchObject({ length: 1, entries: [{ id: web }], nextId: web });
    const rest = await s.a.request('GET', `${SERVICES}?limit=1&nextId=${web}`);
    expect(rest.body).toMatchObject({ length: 1, entries: [{ id: api }], nextId: null });

    for (const [path, query] of [[INCIDENTS, `nextId=${UNKNOWN}`], [INCIDENTS, 'limit=0'], [INCIDENTS, 'limit=101'], [SERVICES, `nextId=${theirs}`], [SERVICES, 'nextId=nope']] as const) {
      const res = await s.a.request('GET', `${path}?${query}`);
      expect(res.status, `${path}?${query}`).toBe(400);
      expect(res.body.validation).toMatchObject({ source: 'query', keys: [query.split('=')[0]] });
    }
    for (const id of ids) await s.a.request('DELETE', `${INCIDENTS}/${id}`);
  });

  it('keeps each account\'s services, incidents and updates to itself', async () => {
    const mine = await createIncident(s.a, { incidentUpdates: [{ description: 'x' }] });
    const uid = mine.incidentUpdates[0].id as string;
    const b = s.b;
    for (const [method, path, body] of [
      ['GET', `${SERVICES}/${api}`], ['PUT', `${SERVICES}/${api}`, { name: 'mine now' }], ['DELETE', `${SERVICES}/${api}`],
      ['GET', `${INCIDENTS}/${mine.id}`], ['PUT', `${INCIDENTS}/${mine.id}`, { name: 'mine now' }], ['DELETE', `${INCIDENTS}/${mine.id}`],
      ['GET', updatesOf(mine.id)], ['POST', updatesOf(mine.id), { description: 'x' }],
      ['GET', `${updatesOf(mine.id)}/${uid}`], ['PUT', `${updatesOf(mine.id)}/${uid}`, { description: 'y' }], ['DELETE', `${updatesOf(mine.id)}/${uid}`],
    ] as [string, string, unknown?][]) {
      const res = await b.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    // An update id under another incident is unknown there too.
    const other = await createIncident(s.a);
    expect((await s.a.request('GET', `${updatesOf(other.id)}/${uid}`)).status).toBe(404);

    expect((await b.request('GET', INCIDENTS)).body).toEqual({ length: 0, entries: [], nextId: null });
    expect((await b.request('GET', SERVICES)).body).toMatchObject({ length: 1, entries: [{ id: theirs }] });
    const read = await s.a.request('GET', `${INCIDENTS}/${mine.id}`);
    expect(read.body).toMatchObject({ name: 'Outage', incidentUpdates: [{ description: 'x' }] });
    expect((await s.a.request('GET', `${SERVICES}/${api}`)).body.name).toBe('API');
    await s.a.request('DELETE', `${INCIDENTS}/${mine.id}`);
    await s.a.request('DELETE', `${INCIDENTS}/${other.id}`);
  });

  describe('bad input gets a 400 naming the key and writes nothing', () => {
    let incidentId: string;
    let updateId: string;
    beforeAll(async () => {
      const incident = await createIncident(s.a, { incidentUpdates: [{ description: 'kept', status: 'IDENTIFIED' }] });
      incidentId = incident.id;
      updateId = incident.incidentUpdates[0].id;
    });

    const valid = () => ({ name: 'Outage', severity: 'MAJOR', services: [{ id: api }], incidentUpdates: [] });
    const update = { description: 'ok' };
    it.each<[string, () => [string, string, unknown], string[]]>([
      ['a service without a name', () => ['POST', SERVICES, {}], ['name']],
      ['a blank service name', () => ['POST', SERVICES, { name: '   ' }], ['name']],
      ['a service name over 255', () => ['POST', SERVICES, { name: 'x'.repeat(256) }], ['name']],
      ['a service name that is a number', () => ['POST', SERVICES, { name: 42 }], ['name']],
      ['a service renamed to nothing', () => ['PUT', `${SERVICES}/${api}`, { name: '' }], ['name']],
      ['an incident without any field', () => ['POST', INCIDENTS, {}], ['name', 'severity', 'services', 'incidentUpdates']],
      ['an incident name over 255', () => ['POST', INCIDENTS, { ...valid(), name: 'x'.repeat(256) }], ['name']],
      ['an unknown severity', () => ['POST', INCIDENTS, { ...valid(), severity: 'SEVERE' }], ['severity']],
      ['a lower-case severity', () => ['POST', INCIDENTS, { ...valid(), severity: 'major' }], ['severity']],
      ['an incident without services', () => ['POST', INCIDENTS, { ...valid(), services: [] }], ['services']],
      ['services that are ids, not objects', () => ['POST', INCIDENTS, { ...valid(), services: [api] }], ['services.0']],
      ['a service id that is not a UUID', () => ['POST', INCIDENTS, { ...valid(), services: [{ id: 'api' }] }], ['services.0.id']],
      ['an unknown service', () => ['POST', INCIDENTS, { ...valid(), services: [{ id: api }, { id: UNKNOWN }] }], ['services.1.id']],
      ["another account's service", () => ['POST', INCIDENTS, { ...valid(), services: [{ id: theirs }] }], ['services.0.id']],
      ['a service listed twice', () => ['POST', INCIDENTS, { ...valid(), services: [{ id: api }, { id: api.toUpperCase() }] }], ['services.1.id']],
      ['incidentUpdates left out', () => ['POST', INCIDENTS, { ...valid(), incidentUpdates: undefined }], ['incidentUpdates']],
      ['incidentUpdates that is an object', () => ['POST', INCIDENTS, { ...valid(), incidentUpdates: { description: 'x' } }], ['incidentUpdates']],
      ['an update without description', () => ['POST', INCIDENTS, { ...valid(), incidentUpdates: [{ status: 'INVESTIGATING' }] }], ['incidentUpdates.0.description']],
      ['an update with an unknown status', () => ['POST', INCIDENTS, { ...valid(), incidentUpdates: [update, { ...update, status: 'MAINTENANCE' }] }], ['incidentUpdates.1.status']],
      ['an update with a bad date', () => ['POST', INCIDENTS, { ...valid(), incidentUpdates: [{ ...update, publicIncidentUpdateDate: 'yesterday' }] }], ['incidentUpdates.0.publicIncidentUpdateDate']],
      ['an update with a date without a zone', () => ['POST', INCIDENTS, { ...valid(), incidentUpdates: [{ ...update, publicIncidentUpdateDate: '2026-01-01T10:00:00' }] }], ['incidentUpdates.0.publicIncidentUpdateDate']],
      ['an update with notifySubscribers as text', () => ['POST', INCIDENTS, { ...valid(), incidentUpdates: [{ ...update, notifySubscribers: 'yes' }] }], ['incidentUpdates.0.notifySubscribers']],
      ['an unknown lastUpdateStatus', () => ['POST', INCIDENTS, { ...valid(), lastUpdateStatus: 'DONE' }], ['lastUpdateStatus']],
      ['a duration that is text', () => ['POST', INCIDENTS, { ...valid(), duration: 'long' }], ['duration']],
      ['a PUT emptying services', () => ['PUT', `${INCIDENTS}/${incidentId}`, { services: [] }], ['services']],
      ['a PUT naming an unknown service', () => ['PUT', `${INCIDENTS}/${incidentId}`, { name: 'renamed', services: [{ id: UNKNOWN }] }], ['services.0.id']],
      ['a PUT with a name over 255', () => ['PUT', `${INCIDENTS}/${incidentId}`, { name: 'x'.repeat(256) }], ['name']],
      ['a PUT with a bad severity', () => ['PUT', `${INCIDENTS}/${incidentId}`, { severity: 1 }], ['severity']],
      ['a posted update without description', () => ['POST', updatesOf(incidentId), { status: 'RESOLVED' }], ['description']],
      ['a posted update with an empty description', () => ['POST', updatesOf(incidentId), { description: '' }], ['description']],
      ['a posted update with a legacy status', () => ['POST', updatesOf(incidentId), { ...update, status: 'MAINTENANCE' }], ['status']],
      ['a posted update with a status that is a number', () => ['POST', updatesOf(incidentId), { ...update, status: 3 }], ['status']],
      ['a posted update with a bad date', () => ['POST', updatesOf(incidentId), { ...update, publicIncidentUpdateDate: '2026-13-01T00:00:00Z' }], ['publicIncidentUpdateDate']],
      ['an edited update with a bad status', () => ['PUT', `${updatesOf(incidentId)}/${updateId}`, { status: 'FIXED' }], ['status']],
      ['an edited update with a description over the limit', () => ['PUT', `${updatesOf(incidentId)}/${updateId}`, { description: 'x'.repeat(10_001) }], ['description']],
    ])('%s', async (_name, call, keys) => {
      const [method, path, body] = call();
      const before = await counts();
      const incidentBefore = (await s.a.request('GET', `${INCIDENTS}/${incidentId}`)).body;
      const res = await s.a.request(method, path, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', validation: { source: 'payload' } });
      expect(res.body.validation.keys).toEqual(keys);
      expect(await counts()).toEqual(before);
      expect((await s.a.request('GET', `${INCIDENTS}/${incidentId}`)).body).toEqual(incidentBefore);
      expect((await s.a.request('GET', `${SERVICES}/${api}`)).body.name).toBe('API');
    });

    it('answers malformed ids with a 400 naming them', async () => {
      for (const [path, key] of [[`${SERVICES}/nope`, 'serviceId'], [`${INCIDENTS}/nope`, 'incidentId'], [`${updatesOf(incidentId)}/nope`, 'incidentUpdateId']] as const) {
        const res = await s.a.request('GET', path);
        expect(res.status).toBe(400);
        expect(res.body.validation).toMatchObject({ source: 'params', keys: [key] });
      }
    });
  });

  it('moves the public content version on with each write and tells the bus after commit, never on a refused write', async () => {
    const version = () => s.lookout.store.publicContentVersions.get(s.a.accountId);
    const seen: Array<{ type: string; incidentId?: string; lastUpdateStatus?: string | null }> = [];
    const offIncident = s.lookout.bus.subscribe('incidentUpdated', (e) => {
      if (e.accountId === s.a.accountId) seen.push({ type: e.type, incidentId: e.incidentId, lastUpdateStatus: e.incident?.lastUpdateStatus ?? null });
    });
    const changes: number[] = [];
    const offChanged = s.lookout.bus.subscribe('publicContentChanged', (e) => {
      if (e.accountId === s.a.accountId) changes.push(e.version);
    });
    const otherBefore = await s.lookout.store.publicContentVersions.get(s.b.accountId);
    try {
      const start = await version();
      const incident = await createIncident(s.a, { name: 'Live', incidentUpdates: [{ description: 'Looking', status: 'INVESTIGATING' }] });
      await s.a.request('POST', updatesOf(incident.id), { description: 'Fixed', status: 'RESOLVED' });
      expect((await s.a.request('POST', updatesOf(incident.id), { description: 'x', status: 'NOPE' })).status).toBe(400);
      expect(await version()).toBe(start + 2);
      await expect.poll(() => seen.filter((e) => e.incidentId === incident.id).map((e) => e.lastUpdateStatus)).toEqual(['INVESTIGATING', 'RESOLVED']);
      await expect.poll(() => changes.slice(-2)).toEqual([start + 1, start + 2]);
      await s.a.request('DELETE', `${INCIDENTS}/${incident.id}`);
      await expect.poll(() => seen.at(-1)).toEqual({ type: 'incidentUpdated', incidentId: incident.id, lastUpdateStatus: null });
      expect(await s.lookout.store.publicContentVersions.get(s.b.accountId)).toBe(otherBefore);
    } finally {
      offIncident();
      offChanged();
    }
  });

  it('describes its routes with operation ids and tags', async () => {
    const doc = (await s.raw('GET', '/openapi.json')).body;
    expect(doc.paths[SERVICES].post.operationId).toBe('createStatusPageService');
    expect(doc.paths[`${INCIDENTS}/{incidentId}/incident-updates/{incidentUpdateId}`].put.operationId).toBe('updateStatusPageIncidentUpdate');
    expect(doc.paths[`${SERVICES}/{serviceId}`].delete.responses['409']).toBeTruthy();
  });
});
