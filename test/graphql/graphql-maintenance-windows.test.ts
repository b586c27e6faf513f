import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../../src/graphql/global-id.js';
import {
  maintenanceGlobalId, maintenanceRestIds, maintenanceUpdateGlobalId, maintenanceUpdateRestIds, maintenanceWindowRestId,
} from '../../src/graphql/maintenance-ids.js';
import { createAccountWithKey } from '../../src/service/bootstrap.js';
import { BACKENDS } from '../support/backends.js';
import { gql, gqlCounted, gqlData } from '../support/graphql.js';
import { connectGraphqlWs, subscribe } from '../support/graphql-ws-client.js';
import { startSubscriptionLayer } from '../support/subscription-layer.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const WINDOWS = '/v1/maintenance-windows';
const SERVICES = '/v1/status-pages/services';
const HOUR_MS = 3_600_000;
const maintenancesOf = (id: number) => `${WINDOWS}/${id}/maintenances`;
const updatesOf = (id: number, maintenanceId: string) => `${maintenancesOf(id)}/${maintenanceId}/updates`;
/** An instant `hours` from now, whole seconds, as the API writes it. */
const fromNow = (hours: number) => new Date(Math.floor((Date.now() + hours * HOUR_MS) / 1000) * 1000).toISOString();

const VISIBILITY = 'enabled severity affectAllServices notifyOnStart notifyOnEnd suppressAutoIncidents reminderMinutesBefore autoStart autoEnd showAffectedServices statusPageIds serviceIds';
const WINDOW = `id maintenanceWindowId name startsAt endsAt repeatUnit repeatInterval repeatEndsAt timezone tags pauseAllChecks silenceAlertsTags silenceAllAlerts
  description createdAt updatedAt statusPageVisibility { ${VISIBILITY} }`;
const MAINTENANCE = 'id maintenanceId maintenanceWindowId occurrence startsAt endsAt status dateAdjusted createdAt updatedAt';
const UPDATE = `id maintenanceUpdateId status previousStatus description notifySubscribers previousStartsAt previousEndsAt
  dateAdjustments { startsAt endsAt } automatic createdAt updatedAt`;
const ERRORS = 'userErrors { field code message }';

const CREATE_WINDOW = `mutation($input: MaintenanceWindowInput!) { r: createMaintenanceWindow(input: $input) { maintenanceWindow { ${WINDOW} } ${ERRORS} } }`;
const UPDATE_WINDOW = `mutation($id: ID!, $input: MaintenanceWindowInput!) { r: updateMaintenanceWindow(id: $id, input: $input) { maintenanceWindow { ${WINDOW} } ${ERRORS} } }`;
const DELETE_WINDOW = 'mutation($id: ID!) { r: deleteMaintenanceWindow(id: $id) { deletedId userErrors { field } } }';
const UPDATE_MAINTENANCE = `mutation($id: ID!, $input: MaintenanceDatesInput!) { r: updateMaintenance(id: $id, input: $input) { maintenance { ${MAINTENANCE} } ${ERRORS} } }`;
const DELETE_MAINTENANCE = 'mutation($id: ID!) { r: deleteMaintenance(id: $id) { deletedId userErrors { field } } }';
const CREATE_UPDATE = `mutation($id: ID!, $input: CreateMaintenanceUpdateInput!) { r: createMaintenanceUpdate(maintenanceId: $id, input: $input) {
  maintenanceUpdate { ${UPDATE} maintenance { maintenanceId status startsAt endsAt } } ${ERRORS} } }`;
const UPDATE_UPDATE = `mutation($id: ID!, $input: UpdateMaintenanceUpdateInput!) { r: updateMaintenanceUpdate(id: $id, input: $input) {
  maintenanceUpdate { ${UPDATE} maintenance { maintenanceId status } } ${ERRORS} } }`;

/** The key of the payload object of each mutation above. */
const OBJECT_OF: Record<string, string> = {
  [CREATE_WINDOW]: 'maintenanceWindow', [UPDATE_WINDOW]: 'maintenanceWindow', [UPDATE_MAINTENANCE]: 'maintenance',
  [CREATE_UPDATE]: 'maintenanceUpdate', [UPDATE_UPDATE]: 'maintenanceUpdate',
};

describe('the ids of maintenance windows, maintenances and updates', () => {
  it('reads each id back from its global id or its REST ids written with colons, and nothing else', () => {
    const [m, u] = [crypto.randomUUID(), crypto.randomUUID()];
    expect(maintenanceWindowRestId(toGlobalId('MaintenanceWindow', 12))).toBe(12);
    expect(maintenanceWindowRestId('12')).toBe(12);
    expect(maintenanceWindowRestId(toGlobalId('Maintenance', 12))).toBeNull();
    expect(maintenanceRestIds(maintenanceGlobalId(7, m))).toEqual({ maintenanceWindowId: 7, maintenanceId: m });
    expect(maintenanceRestIds(`7:${m.toUpperCase()}`)).toEqual({ maintenanceWindowId: 7, maintenanceId: m });
    expect(maintenanceRestIds(m)).toBeNull();
    expect(maintenanceRestIds(`x:${m}`)).toBeNull();
    expect(maintenanceRestIds(maintenanceUpdateGlobalId(7, m, u))).toBeNull();
    expect(maintenanceUpdateRestIds(maintenanceUpdateGlobalId(7, m, u))).toEqual({ maintenanceWindowId: 7, maintenanceId: m, updateId: u });
    expect(maintenanceUpdateRestIds(`7:${m}:${u}`)).toEqual({ maintenanceWindowId: 7, maintenanceId: m, updateId: u });
    expect(maintenanceUpdateRestIds(`7:${m}`)).toBeNull();
  });
});

describe.each(BACKENDS)('GraphQL maintenance windows, maintenances and updates on $name', (backend) => {
  let s: TestServer;
  let shown: string;
  let alsoShown: string;
  let unshown: string;
  let theirService: string;
  let page: string;
  let theirPage: string;
  const sockets: Client[] = [];

  beforeAll(async () => {
    s = await startTestServer({ backend });
    shown = (await s.a.request('POST', SERVICES, { name: 'API' })).body.id;
    alsoShown = (await s.a.request('POST', SERVICES, { name: 'Website' })).body.id;
    unshown = (await s.a.request('POST', SERVICES, { name: 'Not on a page' })).body.id;
    theirService = (await s.b.request('POST', SERVICES, { name: 'Theirs' })).body.id;
    page = (await s.a.request('POST', '/v1/status-pages', { name: 'Status', url: `gql-mw-${backend.name}-a`, cards: [{ name: 'Core', services: [{ id: shown }, { id: alsoShown }] }] })).body.id;
    theirPage = (await s.b.request('POST', '/v1/status-pages', { name: 'Theirs', url: `gql-mw-${backend.name}-b`, cards: [] })).body.id;
  });
  afterAll(async () => {
    await Promise.all(sockets.map((c) => c.dispose()));
    await s?.close();
  });

  const count = async (table: string) => (await s.lookout.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const counts = () => Promise.all(['maintenance_windows', 'maintenances', 'maintenance_updates', 'maintenance_window_services', 'maintenance_window_status_pages'].map(count));
  const restWindow = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const res = await client.request('POST', WINDOWS, { name: 'Database upgrade', startsAt: fromNow(24), endsAt: fromNow(26), ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const firstMaintenance = async (client: TestClient, windowId: number) => (await client.request('GET', maintenancesOf(windowId))).body[0];
  const counted = (client: TestClient, query: string, variables?: Record<string, unknown>) => gqlCounted(s, client, query, variables);
  const ok = gqlData;

  describe('queries, relations and mutations', () => {
    it('creates a recurring window linked by global ids, and reads it back in every direction', async () => {
      const [startsAt, endsAt] = [fromNow(24), fromNow(26)];
      const created = await ok(s.a, CREATE_WINDOW, { input: {
        name: 'Nightly upgrade', startsAt, endsAt, repeatUnit: 'DAY', repeatEndsAt: fromNow(24 * 4).slice(0, 10), tags: ['db'],
        statusPageVisibility: { enabled: true, severity: 'MINOR', statusPageIds: [toGlobalId('StatusPage', page)], serviceIds: [toGlobalId('StatusPageService', shown)] },
      } });
      expect(created.r.userErrors).toEqual([]);
      const w = created.r.maintenanceWindow;
      expect(w).toMatchObject({
        id: toGlobalId('MaintenanceWindow', w.maintenanceWindowId), name: 'Nightly upgrade', startsAt, endsAt, repeatUnit: 'DAY', repeatInterval: null,
        timezone: 'UTC', tags: ['db'], description: null, updatedAt: null,
        statusPageVisibility: { enabled: true, severity: 'MINOR', affectAllServices: false, autoStart: true, statusPageIds: [page], serviceIds: [shown] },
      });
      expect((await s.a.request('GET', `${WINDOWS}/${w.maintenanceWindowId}`)).body.name).toBe('Nightly upgrade');
      const restMaintenances = (await s.a.request('GET', `${maintenancesOf(w.maintenanceWindowId)}?limit=50`)).body;
      expect(restMaintenances.length).toBeGreaterThan(2);

      const read = await ok(s.a, `query($id: ID!, $rest: ID!, $m: ID!, $svc: ID!, $page: ID!) {
        byGlobal: maintenanceWindow(id: $id) { ${WINDOW} maintenances { ${MAINTENANCE} window { maintenanceWindowId } } services { serviceId } statusPages { statusPageId } }
        byRest: maintenanceWindow(id: $rest) { name }
        maintenance(id: $m) { maintenanceId window { name } updates { id } }
        service: statusPageService(id: $svc) { maintenances { maintenanceId } }
        unshown: statusPageService(id: "${unshown}") { maintenances { maintenanceId } }
        page: statusPage(id: $page) { maintenanceWindows { maintenanceWindowId } }
      }`, { id: w.id, rest: String(w.maintenanceWindowId), m: `${w.maintenanceWindowId}:${restMaintenances[0].id}`, svc: shown, page });
      const { maintenances, services, statusPages, ...fields } = read.byGlobal;
      expect(fields).toEqual(w);
      expect(maintenances.map((m: any) => m.maintenanceId)).toEqual(restMaintenances.map((m: any) => m.id));
      expect(maintenances[0]).toEqual({
        id: maintenanceGlobalId(w.maintenanceWindowId, restMaintenances[0].id), maintenanceId: restMaintenances[0].id, maintenanceWindowId: w.maintenanceWindowId,
        occurrence: restMaintenances[0].occurrence, startsAt: restMaintenances[0].startsAt, endsAt: restMaintenances[0].endsAt, status: 'SCHEDULED',
        dateAdjusted: false, createdAt: restMaintenances[0].created_at, updatedAt: restMaintenances[0].updated_at, window: { maintenanceWindowId: w.maintenanceWindowId },
      });
      expect(services).toEqual([{ serviceId: shown }]);
      expect(statusPages).toEqual([{ statusPageId: page }]);
      expect(read.byRest).toEqual({ name: 'Nightly upgrade' });
      expect(read.maintenance).toEqual({ maintenanceId: restMaintenances[0].id, window: { name: 'Nightly upgrade' }, updates: [] });
      expect(read.service.maintenances.map((m: any) => m.maintenanceId)).toEqual(expect.arrayContaining(restMaintenances.map((m: any) => m.id)));
      expect(read.unshown.maintenances).toEqual([]);
      expect(read.page.maintenanceWindows).toContainEqual({ maintenanceWindowId: w.maintenanceWindowId });

      const bounded = await ok(s.a, 'query($id: ID!, $before: DateTime) { maintenanceWindow(id: $id) { maintenances(startsBefore: $before, endsAfter: "2000-01-01T00:00:00Z") { maintenanceId } } }', {
        id: w.id, before: restMaintenances[1].startsAt,
      });
      expect(bounded.maintenanceWindow.maintenances).toEqual([{ maintenanceId: restMaintenances[0].id }]);
    });

    it('with affectAllServices, affects every service its pages show', async () => {
      const w = await restWindow(s.a, { statusPageVisibility: { affectAllServices: true, statusPageIds: [page] } });
      const res = await ok(s.a, `query($id: ID!) {
        maintenanceWindow(id: $id) { services { serviceId } }
        also: statusPageService(id: "${alsoShown}") { maintenances { maintenanceWindowId } }
        unshown: statusPageService(id: "${unshown}") { maintenances { maintenanceWindowId } }
      }`, { id: toGlobalId('MaintenanceWindow', w.id) });
      expect(res.maintenanceWindow.services.map((x: any) => x.serviceId).sort()).toEqual([shown, alsoShown].sort());
      expect(res.also.maintenances).toContainEqual({ maintenanceWindowId: w.id });
      expect(res.unshown.maintenances).not.toContainEqual({ maintenanceWindowId: w.id });
    });

    it('updates only the fields the input names; null clears the description', async () => {
      const w = await restWindow(s.a, { name: 'Before', description: 'Old', tags: ['a'] });
      const res = await ok(s.a, UPDATE_WINDOW, { id: toGlobalId('MaintenanceWindow', w.id), input: { name: 'After', description: null } });
      expect(res.r.userErrors).toEqual([]);
      expect(res.r.maintenanceWindow).toMatchObject({ name: 'After', description: null, tags: ['a'], startsAt: w.startsAt, updatedAt: expect.any(String) });
      expect((await s.a.request('GET', `${WINDOWS}/${w.id}`)).body).toMatchObject({ name: 'After', description: null });
    });

    it('follows a maintenance through its updates: status, previous status and dates move with them', async () => {
      const w = await restWindow(s.a);
      const m = await firstMaintenance(s.a, w.id);
      const id = maintenanceGlobalId(w.id, m.id);
      const started = await ok(s.a, CREATE_UPDATE, { id, input: { status: 'IN_PROGRESS', description: 'Started early', notifySubscribers: true } });
      expect(started.r.userErrors).toEqual([]);
      const update = started.r.maintenanceUpdate;
      expect(update).toMatchObject({
        status: 'IN_PROGRESS', previousStatus: 'SCHEDULED', description: 'Started early', notifySubscribers: true, automatic: false,
        previousStartsAt: m.startsAt, dateAdjustments: { startsAt: expect.any(String), endsAt: m.endsAt }, updatedAt: null,
      });
      expect(update.id).toBe(maintenanceUpdateGlobalId(w.id, m.id, update.maintenanceUpdateId));
      expect(update.maintenance).toEqual({ maintenanceId: m.id, status: 'IN_PROGRESS', startsAt: update.dateAdjustments.startsAt, endsAt: m.endsAt });

      const edited = await ok(s.a, UPDATE_UPDATE, { id: `${w.id}:${m.id}:${update.maintenanceUpdateId}`, input: { description: 'Started early, as planned' } });
      expect(edited.r.maintenanceUpdate).toMatchObject({ id: update.id, description: 'Started early, as planned', status: 'IN_PROGRESS', updatedAt: expect.any(String) });
      const read = await ok(s.a, `query($id: ID!) { maintenance(id: $id) { status updates { id description maintenance { maintenanceId } } } }`, { id });
      expect(read.maintenance).toEqual({ status: 'IN_PROGRESS', updates: [{ id: update.id, description: 'Started early, as planned', maintenance: { maintenanceId: m.id } }] });
      expect((await s.a.request('GET', updatesOf(w.id, m.id))).body).toHaveLength(1);
    });

    it('sets the dates of one maintenance by hand, then deletes it and its window', async () => {
      const w = await restWindow(s.a, { repeatUnit: 'WEEK', repeatEndsAt: fromNow(24 * 20).slice(0, 10) });
      const m = await firstMaintenance(s.a, w.id);
      const id = maintenanceGlobalId(w.id, m.id);
      const endsAt = new Date(new Date(m.endsAt).getTime() + HOUR_MS).toISOString();
      const moved = await ok(s.a, UPDATE_MAINTENANCE, { id, input: { endsAt } });
      expect(moved.r).toEqual({ maintenance: expect.objectContaining({ maintenanceId: m.id, startsAt: m.startsAt, endsAt, dateAdjusted: true }), userErrors: [] });
      expect((await ok(s.a, DELETE_MAINTENANCE, { id })).r).toEqual({ deletedId: id, userErrors: [] });
      const after = await ok(s.a, 'query($id: ID!, $w: ID!) { maintenance(id: $id) { id } node(id: $id) { id } maintenanceWindow(id: $w) { maintenances { maintenanceId } } }', { id, w: w.id });
      expect(after.maintenance).toBeNull();
      expect(after.node).toBeNull();
      expect(after.maintenanceWindow.maintenances.map((x: any) => x.maintenanceId)).not.toContain(m.id);
      const windowId = toGlobalId('MaintenanceWindow', w.id);
      expect((await ok(s.a, DELETE_WINDOW, { id: windowId })).r).toEqual({ deletedId: windowId, userErrors: [] });
      expect((await ok(s.a, 'query($id: ID!) { maintenanceWindow(id: $id) { id } }', { id: windowId })).maintenanceWindow).toBeNull();
      expect((await s.a.request('GET', `${WINDOWS}/${w.id}`)).status).toBe(404);
    });

    it('pages through windows by id as a connection over the REST offset list, with the total', async () => {
      for (let i = 0; i < 3; i++) await restWindow(s.a, { name: `Paged ${i}` });
      const restIds = (await s.a.request('GET', `${WINDOWS}?limit=100`)).body.map((w: any) => w.id);
      const seen: number[] = [];
      let after: string | null = null;
      for (;;) {
        const conn: any = (await ok(s.a, 'query($after: String) { maintenanceWindows(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { maintenanceWindowId } } }', { after })).maintenanceWindows;
        expect(conn.totalCount).toBe(restIds.length);
        seen.push(...conn.nodes.map((n: any) => n.maintenanceWindowId));
        if (!conn.pageInfo.hasNextPage) break;
        after = conn.pageInfo.endCursor;
      }
      expect(seen).toEqual(restIds);
    });
  });

  describe('node(id) and federation', () => {
    let ids: Record<string, string>;
    beforeAll(async () => {
      const w = await restWindow(s.a, { name: 'Node window' });
      const m = await firstMaintenance(s.a, w.id);
      const u = (await s.a.request('POST', updatesOf(w.id, m.id), { status: 'CANCELLED', description: 'Node update' })).body;
      ids = {
        MaintenanceWindow: toGlobalId('MaintenanceWindow', w.id),
        Maintenance: maintenanceGlobalId(w.id, m.id),
        MaintenanceUpdate: maintenanceUpdateGlobalId(w.id, m.id, u.id),
      };
    });

    it('round-trips every new type through node, nodes and _entities', async () => {
      for (const [type, id] of Object.entries(ids)) {
        expect((await ok(s.a, 'query($id: ID!) { node(id: $id) { __typename id } }', { id })).node).toEqual({ __typename: type, id });
      }
      const many = await ok(s.a, 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids: Object.values(ids) });
      expect(many.nodes).toEqual(Object.entries(ids).map(([__typename, id]) => ({ __typename, id })));
      const entities = await ok(s.a, `query($r: [_Any!]!) { _entities(representations: $r) {
        __typename ... on MaintenanceWindow { name } ... on Maintenance { status window { name } } ... on MaintenanceUpdate { description maintenance { status } } } }`,
      { r: Object.entries(ids).map(([__typename, id]) => ({ __typename, id })) });
      expect(entities._entities).toEqual([
        { __typename: 'MaintenanceWindow', name: 'Node window' },
        { __typename: 'Maintenance', status: 'CANCELLED', window: { name: 'Node window' } },
        { __typename: 'MaintenanceUpdate', description: 'Node update', maintenance: { status: 'CANCELLED' } },
      ]);
    });

    it('keys every new node type by id in the published subgraph SDL', async () => {
      const sdl = (await ok(s.a, '{ _service { sdl } }'))._service.sdl as string;
      const keyed = [...sdl.matchAll(/^type (\w+)[^{]*@key\(fields: "id"\)/gm)].map((m) => m[1]);
      expect(keyed).toEqual(expect.arrayContaining(['MaintenanceWindow', 'Maintenance', 'MaintenanceUpdate']));
    });

    it.each([
      ['a window id under the maintenance type', () => ({ __typename: 'Maintenance', id: ids.MaintenanceWindow })],
      ['a maintenance id without its window', () => ({ __typename: 'Maintenance', id: toGlobalId('Maintenance', UNKNOWN) })],
      ['an unknown window', () => ({ __typename: 'MaintenanceWindow', id: toGlobalId('MaintenanceWindow', 999_999) })],
      ['an update of an unknown maintenance', () => ({ __typename: 'MaintenanceUpdate', id: maintenanceUpdateGlobalId(1, UNKNOWN, UNKNOWN) })],
    ])('resolves the entity of %s to null', async (_name, representation) => {
      expect((await ok(s.a, 'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [representation()] }))._entities).toEqual([null]);
    });
  });

  describe('bad input', () => {
    let target: any;
    let maintenanceId: string;
    let updateId: string;
    beforeAll(async () => {
      target = await restWindow(s.a, { name: 'Target', statusPageVisibility: { statusPageIds: [page], serviceIds: [shown] } });
      const m = await firstMaintenance(s.a, target.id);
      maintenanceId = maintenanceGlobalId(target.id, m.id);
      const u = (await s.a.request('POST', updatesOf(target.id, m.id), { status: 'SCHEDULED', description: 'A note' })).body;
      updateId = maintenanceUpdateGlobalId(target.id, m.id, u.id);
    });

    const valid = () => ({ name: 'Valid', startsAt: fromNow(24), endsAt: fromNow(25) });
    const BAD: [string, string, () => Record<string, unknown>, string[]][] = [
      ['a window without any field', CREATE_WINDOW, () => ({ input: {} }), ['name', 'startsAt', 'endsAt']],
      ['a name over 200 characters', CREATE_WINDOW, () => ({ input: { ...valid(), name: 'x'.repeat(201) } }), ['name']],
      ['an end before the start', CREATE_WINDOW, () => ({ input: { ...valid(), endsAt: fromNow(23) } }), ['endsAt']],
      ['a UTC offset as time zone', CREATE_WINDOW, () => ({ input: { ...valid(), timezone: '+05:00' } }), ['timezone']],
      ['a start that is no date', CREATE_WINDOW, () => ({ input: { ...valid(), startsAt: 'tomorrow' } }), ['startsAt']],
      ['a status page id that can be no page', CREATE_WINDOW, () => ({ input: { ...valid(), statusPageVisibility: { statusPageIds: ['not-an-id'] } } }), ['statusPageVisibility.statusPageIds.0']],
      ["another account's status page", CREATE_WINDOW, () => ({ input: { ...valid(), statusPageVisibility: { statusPageIds: [toGlobalId('StatusPage', theirPage)] } } }), ['statusPageVisibility.statusPageIds.0']],
      ["another account's service after a shown one", CREATE_WINDOW, () => ({ input: { ...valid(), statusPageVisibility: { statusPageIds: [page], serviceIds: [shown, theirService] } } }), ['statusPageVisibility.serviceIds.1']],
      ['a service no linked page shows', CREATE_WINDOW, () => ({ input: { ...valid(), statusPageVisibility: { statusPageIds: [page], serviceIds: [toGlobalId('StatusPageService', unshown)] } } }), ['statusPageVisibility.serviceIds.0']],
      ['services named with affectAllServices', CREATE_WINDOW, () => ({ input: { ...valid(), statusPageVisibility: { statusPageIds: [page], affectAllServices: true, serviceIds: [shown] } } }), ['statusPageVisibility.serviceIds']],
      ['a reminder under an hour', CREATE_WINDOW, () => ({ input: { ...valid(), statusPageVisibility: { reminderMinutesBefore: [5] } } }), ['statusPageVisibility.reminderMinutesBefore.0']],
      ['a window renamed to nothing', UPDATE_WINDOW, () => ({ id: target.id, input: { name: '' } }), ['name']],
      ['a window moved to a bad time zone', UPDATE_WINDOW, () => ({ id: target.id, input: { timezone: 'Mars/Olympus' } }), ['timezone']],
      ['a maintenance ending before it starts', UPDATE_MAINTENANCE, () => ({ id: maintenanceId, input: { endsAt: fromNow(1) } }), ['endsAt']],
      ['an update without status and description', CREATE_UPDATE, () => ({ id: maintenanceId, input: {} }), ['status', 'description']],
      ['an update with a description over 2000 characters', CREATE_UPDATE, () => ({ id: maintenanceId, input: { status: 'SCHEDULED', description: 'x'.repeat(2001) } }), ['description']],
      ['an update completing a maintenance not yet due', CREATE_UPDATE, () => ({ id: maintenanceId, input: { status: 'COMPLETED', description: 'Done?' } }), ['status']],
      ['an edit emptying the description', UPDATE_UPDATE, () => ({ id: updateId, input: { description: '' } }), ['description']],
    ];

    it.each(BAD)('%s gives one userError per bad field, on its input path, and writes nothing', async (_what, mutation, variables, fields) => {
      const before = await counts();
      const stored = (await s.a.request('GET', `${WINDOWS}/${target.id}`)).body;
      const maintenances = (await s.a.request('GET', maintenancesOf(target.id))).body;
      const res = await gql(s.a, mutation, variables());
      expect(res.errors).toBeUndefined();
      expect(res.data.r[OBJECT_OF[mutation]!]).toBeNull();
      expect(res.data.r.userErrors.map((e: any) => e.field).sort()).toEqual([...fields].sort());
      for (const e of res.data.r.userErrors) expect(e).toEqual({ field: expect.any(String), code: 'BAD_USER_INPUT', message: expect.any(String) });
      expect(await counts()).toEqual(before);
      expect((await s.a.request('GET', `${WINDOWS}/${target.id}`)).body).toEqual(stored);
      expect((await s.a.request('GET', maintenancesOf(target.id))).body).toEqual(maintenances);
    });

    it.each([
      ['an unknown repeat unit', CREATE_WINDOW, { input: { name: 'x', repeatUnit: 'YEAR' } }],
      ['an unknown maintenance status', CREATE_UPDATE, { id: `1:${UNKNOWN}`, input: { status: 'PAUSED', description: 'x' } }],
      ['an unknown input field', CREATE_WINDOW, { input: { name: 'x', colour: 'red' } }],
    ])('rejects %s before any REST call', async (_what, mutation, variables) => {
      const before = await counts();
      const { res, count: calls } = await counted(s.a, mutation, variables);
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(calls).toBe(0);
      expect(await counts()).toEqual(before);
    });
  });

  describe('accounts', () => {
    let mine: { window: number; maintenance: string; update: string };
    beforeAll(async () => {
      const w = await restWindow(s.a, { name: 'Private to a' });
      const m = await firstMaintenance(s.a, w.id);
      const u = (await s.a.request('POST', updatesOf(w.id, m.id), { status: 'SCHEDULED', description: 'Ours only' })).body;
      mine = { window: w.id, maintenance: maintenanceGlobalId(w.id, m.id), update: maintenanceUpdateGlobalId(w.id, m.id, u.id) };
    });

    it('reads nothing of another account: its ids are null everywhere and its windows are not listed', async () => {
      const res = await ok(s.b, `query($w: ID!, $m: ID!, $u: ID!) {
        maintenanceWindow(id: $w) { id } maintenance(id: $m) { id } nodes(ids: [$w, $m, $u]) { id }
        maintenanceWindows(first: 100) { totalCount nodes { maintenanceWindowId } }
        statusPageServices(first: 100) { nodes { serviceId maintenances { maintenanceId } } }
      }`, { w: toGlobalId('MaintenanceWindow', mine.window), m: mine.maintenance, u: mine.update });
      expect(res).toEqual({
        maintenanceWindow: null, maintenance: null, nodes: [null, null, null], maintenanceWindows: { totalCount: 0, nodes: [] },
        statusPageServices: { nodes: [{ serviceId: theirService, maintenances: [] }] },
      });
    });

    it.each<[string, string, () => Record<string, unknown>]>([
      ['updateMaintenanceWindow', UPDATE_WINDOW, () => ({ id: mine.window, input: { name: 'Taken' } })],
      ['deleteMaintenanceWindow', DELETE_WINDOW, () => ({ id: toGlobalId('MaintenanceWindow', mine.window) })],
      ['updateMaintenance', UPDATE_MAINTENANCE, () => ({ id: mine.maintenance, input: { endsAt: fromNow(48) } })],
      ['deleteMaintenance', DELETE_MAINTENANCE, () => ({ id: mine.maintenance })],
      ['createMaintenanceUpdate', CREATE_UPDATE, () => ({ id: mine.maintenance, input: { status: 'CANCELLED', description: 'Sneaky' } })],
      ['updateMaintenanceUpdate', UPDATE_UPDATE, () => ({ id: mine.update, input: { description: 'Sneaky' } })],
    ])("%s of another account's id is NOT_FOUND and changes nothing", async (_name, mutation, variables) => {
      const before = await counts();
      const stored = (await s.a.request('GET', `${WINDOWS}/${mine.window}`)).body;
      const maintenances = (await s.a.request('GET', maintenancesOf(mine.window))).body;
      const res = await gql(s.b, mutation, variables());
      expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(await counts()).toEqual(before);
      expect((await s.a.request('GET', `${WINDOWS}/${mine.window}`)).body).toEqual(stored);
      expect((await s.a.request('GET', maintenancesOf(mine.window))).body).toEqual(maintenances);
    });

    it('answers an id that can name nothing with NOT_FOUND, before any REST call', async () => {
      for (const mutation of ['deleteMaintenanceWindow(id: "nope")', `deleteMaintenance(id: "${UNKNOWN}")`,
        `updateMaintenanceUpdate(id: "${maintenanceGlobalId(1, UNKNOWN)}", input: {description: "x"})`, 'updateMaintenance(id: "12", input: {})']) {
        const { res, count: calls } = await counted(s.a, `mutation { r: ${mutation} { userErrors { field } } }`);
        expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
        expect(calls).toBe(0);
      }
    });
  });

  describe('batching', () => {
    let client: TestClient;
    const windows: number[] = [];
    beforeAll(async () => {
      // An account of its own: the counts below do not depend on what other tests wrote.
      const { accountId, apiKey } = await createAccountWithKey(s.lookout.store, { name: 'Batching' });
      client = {
        accountId,
        apiKey,
        async request(method, path, body) {
          const res = await fetch(s.url + path, {
            method, body: body === undefined ? undefined : JSON.stringify(body),
            headers: { authorization: `Bearer ${apiKey}`, 'x-lookout-account': accountId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          });
          const text = await res.text();
          return { status: res.status, headers: res.headers, text, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
        },
      };
      const services = (await Promise.all(['One', 'Two', 'Three'].map((name) => client.request('POST', SERVICES, { name })))).map((r) => r.body.id);
      const pageId = (await client.request('POST', '/v1/status-pages', { name: 'Batched', url: `gql-mw-batched-${backend.name}`, cards: [{ name: 'All', services: services.map((id) => ({ id })) }] })).body.id;
      for (let i = 0; i < 4; i++) {
        const w = await restWindow(client, { name: `Batched ${i}`, statusPageVisibility: { statusPageIds: [pageId], serviceIds: [services[i % 3], services[(i + 1) % 3]] } });
        windows.push(w.id);
        const m = await firstMaintenance(client, w.id);
        await client.request('POST', updatesOf(w.id, m.id), { status: 'SCHEDULED', description: `Note ${i}` });
      }
    });

    it.each([
      ['windows with their services, their pages and the windows each page shows', 4,
        '{ maintenanceWindows(first: 100) { nodes { name services { name } statusPages { name maintenanceWindows { name } } } } }'],
      ['services, each with the maintenances of the windows affecting it, their windows and those windows\' services', 6,
        '{ statusPageServices(first: 100) { nodes { name maintenances { status window { name services { name } } } } } }'],
    ])('answers %s with %i REST calls, as counted by the service', async (_what, calls, query) => {
      const { res, count } = await counted(client, query);
      expect(res.errors).toBeUndefined();
      expect(res.extensions?.cost?.restCalls).toBe(calls);
      expect(count).toBe(calls);
    });

    it('loads several windows by id with one call, and walks from a maintenance to its updates and back without reading it again', async () => {
      const many = await counted(client, 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on MaintenanceWindow { name } } }', { ids: windows.map((id) => toGlobalId('MaintenanceWindow', id)) });
      expect(many.res.data.nodes.map((n: any) => n.name)).toEqual(windows.map((_, i) => `Batched ${i}`));
      expect(many.count).toBe(1);
      const m = await firstMaintenance(client, windows[0]!);
      const walked = await counted(client, 'query($id: ID!) { maintenance(id: $id) { updates { description maintenance { status updates { id } window { name } } } } }', { id: maintenanceGlobalId(windows[0]!, m.id) });
      expect(walked.res.data.maintenance.updates).toEqual([{ description: 'Note 0', maintenance: { status: 'SCHEDULED', updates: [{ id: expect.any(String) }], window: { name: 'Batched 0' } } }]);
      expect(walked.count).toBe(3);
    });
  });

  describe('maintenanceUpdated over graphql-ws', () => {
    const EVENTS = `subscription($id: ID) { maintenanceUpdated(maintenanceWindowId: $id) {
      maintenanceWindowId maintenanceId deleted maintenance { maintenanceId status window { name } } maintenanceWindow { maintenanceWindowId name } } }`;
    const connect = async (c: TestClient) => {
      const client = await connectGraphqlWs(s.url, { authorization: `Bearer ${c.apiKey}`, accountId: c.accountId });
      sockets.push(client);
      return client;
    };

    it("streams the caller's window, maintenance and update changes only, another account's never", async () => {
      const monitor = s.lookout.graphqlSubscriptions!.monitor;
      const aSub = await subscribe(await connect(s.a), monitor, EVENTS);
      const bSub = await subscribe(await connect(s.b), monitor, EVENTS);
      const created = await ok(s.a, CREATE_WINDOW, { input: { name: 'Streamed', startsAt: fromNow(24), endsAt: fromNow(25) } });
      const windowId = created.r.maintenanceWindow.maintenanceWindowId;
      const theirs = await restWindow(s.b, { name: 'Theirs' });
      // b's own window was written after a's: had a's reached b, it would have come first.
      expect((await bSub.next()).data.maintenanceUpdated).toMatchObject({ maintenanceWindowId: theirs.id, maintenanceWindow: { name: 'Theirs' } });
      expect((await aSub.next()).data.maintenanceUpdated).toEqual({
        maintenanceWindowId: windowId, maintenanceId: null, deleted: false, maintenance: null, maintenanceWindow: { maintenanceWindowId: windowId, name: 'Streamed' },
      });
      const m = await firstMaintenance(s.a, windowId);
      await ok(s.a, CREATE_UPDATE, { id: maintenanceGlobalId(windowId, m.id), input: { status: 'CANCELLED', description: 'Called off' } });
      expect((await aSub.next()).data.maintenanceUpdated).toEqual({
        maintenanceWindowId: windowId, maintenanceId: m.id, deleted: false,
        maintenance: { maintenanceId: m.id, status: 'CANCELLED', window: { name: 'Streamed' } }, maintenanceWindow: { maintenanceWindowId: windowId, name: 'Streamed' },
      });
      await ok(s.a, DELETE_MAINTENANCE, { id: maintenanceGlobalId(windowId, m.id) });
      expect((await aSub.next()).data.maintenanceUpdated).toMatchObject({ maintenanceId: m.id, deleted: true, maintenance: null, maintenanceWindow: { name: 'Streamed' } });
      await ok(s.a, DELETE_WINDOW, { id: windowId });
      expect((await aSub.next()).data.maintenanceUpdated).toEqual({ maintenanceWindowId: windowId, maintenanceId: null, deleted: true, maintenance: null, maintenanceWindow: null });
      aSub.dispose();
      bSub.dispose();
    });

    it('narrows to one window named by its global id or REST id', async () => {
      const monitor = s.lookout.graphqlSubscriptions!.monitor;
      const [watched, other] = [await restWindow(s.a, { name: 'Watched' }), await restWindow(s.a, { name: 'Other' })];
      const client = await connect(s.a);
      const byGlobal = await subscribe(client, monitor, EVENTS, { id: toGlobalId('MaintenanceWindow', watched.id) });
      const byRest = await subscribe(client, monitor, EVENTS, { id: String(watched.id) });
      await s.a.request('PUT', `${WINDOWS}/${other.id}`, { name: 'Other, renamed' });
      await s.a.request('PUT', `${WINDOWS}/${watched.id}`, { name: 'Watched, renamed' });
      for (const sub of [byGlobal, byRest]) {
        expect((await sub.next()).data.maintenanceUpdated).toMatchObject({ maintenanceWindowId: watched.id, maintenanceWindow: { name: 'Watched, renamed' } });
        sub.dispose();
      }
    });

    it('is served by a separately deployed subscription layer too, from the event alone: links needing REST are BACKEND_UNAVAILABLE there', async () => {
      const layer = await startSubscriptionLayer(s);
      try {
        const client = await connectGraphqlWs(layer.url, { authorization: `Bearer ${s.a.apiKey}`, accountId: s.a.accountId });
        sockets.push(client);
        const sub = await subscribe(client, layer.subscriptions.monitor, 'subscription { maintenanceUpdated { maintenanceWindowId maintenance { status window { name } } maintenanceWindow { name } } }');
        const w = await restWindow(s.a, { name: 'Via the layer' });
        expect(await sub.next()).toEqual({ data: { maintenanceUpdated: { maintenanceWindowId: w.id, maintenance: null, maintenanceWindow: { name: 'Via the layer' } } } });
        const m = await firstMaintenance(s.a, w.id);
        await s.a.request('POST', updatesOf(w.id, m.id), { status: 'CANCELLED', description: 'Called off' });
        const { data, errors } = await sub.next();
        expect(data.maintenanceUpdated).toEqual({ maintenanceWindowId: w.id, maintenance: { status: 'CANCELLED', window: null }, maintenanceWindow: null });
        expect(errors.map((e: any) => [e.path.join('.'), e.extensions.code]).sort()).toEqual([
          ['maintenanceUpdated.maintenance.window', 'BACKEND_UNAVAILABLE'], ['maintenanceUpdated.maintenanceWindow', 'BACKEND_UNAVAILABLE'],
        ]);
        sub.dispose();
      } finally {
        await layer.close();
      }
    });

    it.each([['garbage', 'not-a-window'], ["a page's global id", toGlobalId('StatusPage', UNKNOWN)]])(
      'refuses %s as the maintenanceWindowId with BAD_USER_INPUT', async (_what, id) => {
        const client = await connect(s.a);
        const errors = await new Promise<unknown>((resolve) => {
          client.subscribe({ query: EVENTS, variables: { id } }, { next: (v) => resolve(v.errors), error: resolve, complete: () => resolve(null) });
        });
        expect(errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
      },
    );
  });
});
