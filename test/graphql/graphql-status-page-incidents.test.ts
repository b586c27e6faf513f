import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../../src/graphql/global-id.js';
import { incidentInputPath } from '../../src/graphql/resolvers/status-page-incident-mutation-resolvers.js';
import { incidentUpdateGlobalId, incidentUpdateRestIds } from '../../src/graphql/status-page-incident-ids.js';
import { BACKENDS } from '../support/backends.js';
import { gql, gqlCounted, gqlData } from '../support/graphql.js';
import { connectGraphqlWs, subscribe } from '../support/graphql-ws-client.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const SERVICES = '/v1/status-pages/services';
const INCIDENTS = '/v1/status-pages/incidents';

const SERVICE = 'id serviceId name createdAt updatedAt';
const UPDATE = 'id incidentUpdateId description status publicIncidentUpdateDate notifySubscribers createdAt updatedAt';
const INCIDENT = `id incidentId name severity lastUpdateStatus open duration createdAt updatedAt services { ${SERVICE} } updates { ${UPDATE} }`;
const ERRORS = 'userErrors { field code message }';

const CREATE_SERVICE = `mutation($input: StatusPageServiceInput!) { r: createStatusPageService(input: $input) { statusPageService { ${SERVICE} } ${ERRORS} } }`;
const UPDATE_SERVICE = `mutation($id: ID!, $input: StatusPageServiceInput!) { r: updateStatusPageService(id: $id, input: $input) { statusPageService { ${SERVICE} } ${ERRORS} } }`;
const DELETE_SERVICE = 'mutation($id: ID!) { r: deleteStatusPageService(id: $id) { deletedId userErrors { field } } }';
const CREATE_INCIDENT = `mutation($input: CreateIncidentInput!) { r: createIncident(input: $input) { incident { ${INCIDENT} } ${ERRORS} } }`;
const UPDATE_INCIDENT = `mutation($id: ID!, $input: UpdateIncidentInput!) { r: updateIncident(id: $id, input: $input) { incident { ${INCIDENT} } ${ERRORS} } }`;
const DELETE_INCIDENT = 'mutation($id: ID!) { r: deleteIncident(id: $id) { deletedId userErrors { field } } }';
const CREATE_UPDATE = `mutation($id: ID!, $input: IncidentUpdateInput!) { r: createIncidentUpdate(incidentId: $id, input: $input) {
  incidentUpdate { ${UPDATE} incident { incidentId lastUpdateStatus open duration } } ${ERRORS} } }`;
const UPDATE_UPDATE = `mutation($id: ID!, $input: IncidentUpdateInput!) { r: updateIncidentUpdate(id: $id, input: $input) {
  incidentUpdate { ${UPDATE} incident { incidentId lastUpdateStatus open duration } } ${ERRORS} } }`;
const DELETE_UPDATE = 'mutation($id: ID!) { r: deleteIncidentUpdate(id: $id) { deletedId incident { incidentId lastUpdateStatus open duration updates { id } } userErrors { field } } }';

/** The key of the payload object of each mutation above. */
const OBJECT_OF: Record<string, string> = {
  [CREATE_SERVICE]: 'statusPageService', [UPDATE_SERVICE]: 'statusPageService', [CREATE_INCIDENT]: 'incident',
  [UPDATE_INCIDENT]: 'incident', [CREATE_UPDATE]: 'incidentUpdate', [UPDATE_UPDATE]: 'incidentUpdate',
};

describe('the input path of a key the REST API names', () => {
  it.each([
    ['name', 'name'],
    ['services', 'services'],
    ['services.0', 'services.0'],
    ['services.12.id', 'services.12'],
    ['incidentUpdates', 'updates'],
    ['incidentUpdates.3.publicIncidentUpdateDate', 'updates.3.publicIncidentUpdateDate'],
    ['incidentUpdatesExtra', 'incidentUpdatesExtra'],
  ])('maps %s to %s', (key, path) => {
    expect(incidentInputPath(key)).toBe(path);
  });

  it('reads an update id back from its global id or from `incidentId:updateId`, and nothing else', () => {
    const [i, u] = [crypto.randomUUID(), crypto.randomUUID()];
    expect(incidentUpdateRestIds(incidentUpdateGlobalId(i, u))).toEqual({ incidentId: i, updateId: u });
    expect(incidentUpdateRestIds(`${i.toUpperCase()}:${u}`)).toEqual({ incidentId: i, updateId: u });
    expect(incidentUpdateRestIds(u)).toBeNull();
    expect(incidentUpdateRestIds(`${i}:${u}:${u}`)).toBeNull();
    expect(incidentUpdateRestIds(toGlobalId('Incident', `${i}:${u}`))).toBeNull();
  });
});

describe.each(BACKENDS)('GraphQL status page services, incidents and incident updates on $name', (backend) => {
  let s: TestServer;
  let api: string;
  let web: string;
  let theirs: string;
  const sockets: Client[] = [];

  beforeAll(async () => {
    s = await startTestServer({ backend });
    api = (await s.a.request('POST', SERVICES, { name: 'API' })).body.id;
    web = (await s.a.request('POST', SERVICES, { name: 'Website' })).body.id;
    theirs = (await s.b.request('POST', SERVICES, { name: 'Theirs' })).body.id;
  });
  afterAll(async () => {
    await Promise.all(sockets.map((c) => c.dispose()));
    await s?.close();
  });

  const count = async (table: string) => (await s.lookout.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const counts = () => Promise.all(['status_page_services', 'status_page_incidents', 'status_page_incident_services', 'status_page_incident_updates'].map(count));
  const restIncident = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const res = await client.request('POST', INCIDENTS, { name: 'Outage', severity: 'MAJOR', services: [{ id: api }], incidentUpdates: [], ...body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const counted = (client: TestClient, query: string, variables?: Record<string, unknown>) => gqlCounted(s, client, query, variables);
  const ok = gqlData;

  describe('queries and relations', () => {
    it('creates an incident on two services (a global id and a REST id) with its first updates, and reads it back in every direction', async () => {
      const created = await ok(s.a, CREATE_INCIDENT, { input: {
        name: 'Checkout is slow', severity: 'CRITICAL', services: [toGlobalId('StatusPageService', api), web],
        updates: [{ description: 'Looking into it', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-03-01T10:00:00.000Z' }],
      } });
      expect(created.r.userErrors).toEqual([]);
      const incident = created.r.incident;
      expect(incident).toMatchObject({
        id: toGlobalId('Incident', incident.incidentId), name: 'Checkout is slow', severity: 'CRITICAL', lastUpdateStatus: 'INVESTIGATING',
        open: true, duration: null, updatedAt: null,
      });
      expect(incident.services.map((x: any) => [x.id, x.serviceId, x.name]).sort()).toEqual([
        [toGlobalId('StatusPageService', api), api, 'API'], [toGlobalId('StatusPageService', web), web, 'Website'],
      ].sort());
      const [update] = incident.updates;
      expect(update).toMatchObject({
        id: incidentUpdateGlobalId(incident.incidentId, update.incidentUpdateId), description: 'Looking into it', status: 'INVESTIGATING',
        publicIncidentUpdateDate: '2026-03-01T10:00:00.000Z', notifySubscribers: false,
      });
      expect((await s.a.request('GET', `${INCIDENTS}/${incident.incidentId}`)).body.name).toBe('Checkout is slow');

      const read = await ok(s.a, `query($id: ID!, $rest: ID!, $u: ID!) {
        byGlobal: incident(id: $id) { ${INCIDENT} }
        byRest: incident(id: $rest) { incidentId }
        update: incidentUpdate(id: $u) { description incident { incidentId } }
        service: statusPageService(id: "${api}") { name incidents { incidentId } open: incidents(open: true) { incidentId } resolved: incidents(open: false) { incidentId } }
      }`, { id: incident.id, rest: incident.incidentId, u: `${incident.incidentId}:${update.incidentUpdateId}` });
      expect(read.byGlobal).toEqual(incident);
      expect(read.byRest).toEqual({ incidentId: incident.incidentId });
      expect(read.update).toEqual({ description: 'Looking into it', incident: { incidentId: incident.incidentId } });
      expect(read.service.name).toBe('API');
      expect(read.service.incidents).toContainEqual({ incidentId: incident.incidentId });
      expect(read.service.open).toContainEqual({ incidentId: incident.incidentId });
      expect(read.service.resolved).not.toContainEqual({ incidentId: incident.incidentId });

      const walked = await ok(s.a, `query($id: ID!) { incident(id: $id) { updates { incident { name services { name incidents(open: true) { incidentId } } } } } }`, { id: incident.id });
      for (const svc of walked.incident.updates[0].incident.services) expect(svc.incidents).toContainEqual({ incidentId: incident.incidentId });
    });

    it('follows an incident from open to resolved through its updates: status, open and duration move with them', async () => {
      const { id: incidentId } = await restIncident(s.a, { incidentUpdates: [{ description: 'Down', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-03-02T10:00:00.000Z' }] });
      const id = toGlobalId('Incident', incidentId);
      const posted = await ok(s.a, CREATE_UPDATE, { id, input: { description: 'Fixed', status: 'RESOLVED', publicIncidentUpdateDate: '2026-03-02T10:30:00.000Z', notifySubscribers: true } });
      expect(posted.r.userErrors).toEqual([]);
      expect(posted.r.incidentUpdate).toMatchObject({ description: 'Fixed', status: 'RESOLVED', notifySubscribers: true });
      expect(posted.r.incidentUpdate.incident).toEqual({ incidentId, lastUpdateStatus: 'RESOLVED', open: false, duration: 1800 });
      const resolved = await ok(s.a, `{ statusPageService(id: "${api}") { open: incidents(open: true) { incidentId } resolved: incidents(open: false) { incidentId } } }`);
      expect(resolved.statusPageService.open).not.toContainEqual({ incidentId });
      expect(resolved.statusPageService.resolved).toContainEqual({ incidentId });

      const updateId = posted.r.incidentUpdate.id;
      const edited = await ok(s.a, UPDATE_UPDATE, { id: updateId, input: { status: 'MONITORING' } });
      expect(edited.r.incidentUpdate).toMatchObject({ id: updateId, description: 'Fixed', status: 'MONITORING', updatedAt: expect.any(String) });
      expect(edited.r.incidentUpdate.incident).toEqual({ incidentId, lastUpdateStatus: 'MONITORING', open: true, duration: null });

      const deleted = await ok(s.a, DELETE_UPDATE, { id: updateId });
      expect(deleted.r.deletedId).toBe(updateId);
      expect(deleted.r.incident).toMatchObject({ incidentId, lastUpdateStatus: 'INVESTIGATING', open: true, duration: null });
      expect(deleted.r.incident.updates).toHaveLength(1);
      expect((await ok(s.a, 'query($id: ID!) { node(id: $id) { id } }', { id: updateId })).node).toBeNull();
    });

    it('pages through services and incidents, newest first, as connections over the REST cursor lists', async () => {
      for (let i = 0; i < 3; i++) await restIncident(s.a, { name: `Paged ${i}` });
      const restServices = (await s.a.request('GET', `${SERVICES}?limit=100`)).body.entries.map((e: any) => e.id);
      const seen: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page: any = (await ok(s.a, 'query($after: String) { statusPageServices(first: 1, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { serviceId } } }', { after })).statusPageServices;
        expect(page.totalCount).toBeNull();
        seen.push(...page.nodes.map((n: any) => n.serviceId));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      expect(seen).toEqual(restServices);

      const restIncidents = (await s.a.request('GET', `${INCIDENTS}?limit=100`)).body.entries.map((e: any) => e.id);
      const first = (await ok(s.a, '{ incidents(first: 2) { pageInfo { hasNextPage endCursor } edges { cursor node { incidentId } } } }')).incidents;
      const rest = (await ok(s.a, 'query($after: String) { incidents(first: 100, after: $after) { pageInfo { hasNextPage hasPreviousPage } nodes { incidentId } } }', { after: first.pageInfo.endCursor })).incidents;
      expect([...first.edges.map((e: any) => e.node.incidentId), ...rest.nodes.map((n: any) => n.incidentId)]).toEqual(restIncidents);
      expect(rest.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
    });

    it('refuses a cursor it did not issue and a page size out of range with BAD_USER_INPUT', async () => {
      for (const query of ['{ incidents(after: "bm9wZQ") { nodes { id } } }', '{ statusPageServices(first: 101) { nodes { id } } }']) {
        const res = await gql(s.a, query);
        expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      }
    });

    it('names the service of a check\'s incident automation', async () => {
      const check = await s.a.request('POST', '/v1/checks/api', {
        name: 'Automated', request: { url: 'https://example.test' }, triggerIncident: { serviceId: web, name: 'Website down', description: 'Failing' },
      });
      expect(check.status).toBe(201);
      const res = await ok(s.a, `{ check(id: "${check.body.id}") { triggerIncident { serviceId service { serviceId name } } } }`);
      expect(res.check.triggerIncident).toEqual({ serviceId: web, service: { serviceId: web, name: 'Website' } });
      const upper = await s.a.request('POST', '/v1/checks/api', {
        name: 'Automated, upper case', request: { url: 'https://example.test' }, triggerIncident: { serviceId: api.toUpperCase(), name: 'API down' },
      });
      expect(upper.status).toBe(201);
      const both = await ok(s.a, `{ a: check(id: "${upper.body.id}") { triggerIncident { service { name } } } }`);
      expect(both.a.triggerIncident.service).toEqual({ name: 'API' });
    });
  });

  describe('node(id) and federation', () => {
    it('round-trips every new type through node, nodes and _entities', async () => {
      const incident = await restIncident(s.a, { incidentUpdates: [{ description: 'Node' }] });
      const ids = {
        StatusPageService: toGlobalId('StatusPageService', api),
        Incident: toGlobalId('Incident', incident.id),
        IncidentUpdate: incidentUpdateGlobalId(incident.id, incident.incidentUpdates[0].id),
      };
      for (const [type, id] of Object.entries(ids)) {
        const res = await ok(s.a, 'query($id: ID!) { node(id: $id) { __typename id } }', { id });
        expect(res.node).toEqual({ __typename: type, id });
      }
      const many = await ok(s.a, 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids: Object.values(ids) });
      expect(many.nodes).toEqual(Object.entries(ids).map(([__typename, id]) => ({ __typename, id })));
      const entities = await ok(s.a, `query($r: [_Any!]!) { _entities(representations: $r) {
        __typename ... on StatusPageService { name } ... on Incident { incidentId } ... on IncidentUpdate { description incident { incidentId } } } }`,
      { r: Object.entries(ids).map(([__typename, id]) => ({ __typename, id })) });
      expect(entities._entities).toEqual([
        { __typename: 'StatusPageService', name: 'API' },
        { __typename: 'Incident', incidentId: incident.id },
        { __typename: 'IncidentUpdate', description: 'Node', incident: { incidentId: incident.id } },
      ]);
    });

    it('keys every new node type by id in the published subgraph SDL', async () => {
      const sdl = (await ok(s.a, '{ _service { sdl } }'))._service.sdl as string;
      const keyed = [...sdl.matchAll(/^type (\w+)[^{]*@key\(fields: "id"\)/gm)].map((m) => m[1]);
      expect(keyed).toEqual(expect.arrayContaining(['StatusPageService', 'Incident', 'IncidentUpdate']));
    });

    it.each([
      ['another account\'s service', () => ({ __typename: 'StatusPageService', id: toGlobalId('StatusPageService', theirs) })],
      ['an incident id under the service type', () => ({ __typename: 'StatusPageService', id: toGlobalId('Incident', api) })],
      ['an unknown incident', () => ({ __typename: 'Incident', id: toGlobalId('Incident', UNKNOWN) })],
      ['an update id without its incident', () => ({ __typename: 'IncidentUpdate', id: toGlobalId('IncidentUpdate', UNKNOWN) })],
    ])('resolves the entity of %s to null', async (_name, representation) => {
      const res = await ok(s.a, 'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [representation()] });
      expect(res._entities).toEqual([null]);
    });
  });

  describe('mutations', () => {
    it('creates, renames and deletes a service', async () => {
      const created = await ok(s.a, CREATE_SERVICE, { input: { name: 'Search' } });
      expect(created.r).toEqual({ statusPageService: { id: expect.any(String), serviceId: expect.any(String), name: 'Search', createdAt: expect.any(String), updatedAt: null }, userErrors: [] });
      const { id, serviceId } = created.r.statusPageService;
      const renamed = await ok(s.a, UPDATE_SERVICE, { id: serviceId, input: { name: 'Search API' } });
      expect(renamed.r.statusPageService).toMatchObject({ id, name: 'Search API', updatedAt: expect.any(String) });
      expect((await s.a.request('GET', `${SERVICES}/${serviceId}`)).body.name).toBe('Search API');
      expect((await ok(s.a, DELETE_SERVICE, { id })).r).toEqual({ deletedId: id, userErrors: [] });
      expect((await s.a.request('GET', `${SERVICES}/${serviceId}`)).status).toBe(404);
      expect((await ok(s.a, 'query($id: ID!) { statusPageService(id: $id) { id } node(id: $id) { id } }', { id }))).toEqual({ statusPageService: null, node: null });
    });

    it('answers deleting a service an incident still lists with CONFLICT, and keeps it', async () => {
      const held = (await s.a.request('POST', SERVICES, { name: 'Held' })).body.id;
      const incident = await restIncident(s.a, { name: 'Holds it', services: [{ id: held }] });
      const res = await gql(s.a, DELETE_SERVICE, { id: toGlobalId('StatusPageService', held) });
      expect(res.errors?.[0]?.extensions?.code).toBe('CONFLICT');
      expect(res.errors?.[0]?.message).toContain(incident.id);
      expect((await s.a.request('GET', `${SERVICES}/${held}`)).status).toBe(200);
    });

    it('renames an incident and replaces its services, keeping what the input leaves out; a service renamed later in the operation shows renamed', async () => {
      const incident = await restIncident(s.a, { name: 'Before', severity: 'MINOR', services: [{ id: api }] });
      const id = toGlobalId('Incident', incident.id);
      const res = await ok(s.a, `mutation($id: ID!, $svc: ID!) {
        r: updateIncident(id: $id, input: {name: "After", services: [$svc]}) { incident { name severity services { serviceId name } } userErrors { field } }
        s: updateStatusPageService(id: $svc, input: {name: "Website (renamed)"}) { statusPageService { name } }
        u: createIncidentUpdate(incidentId: $id, input: {description: "Renamed"}) { incidentUpdate { incident { name services { name } } } }
      }`, { id, svc: web });
      expect(res.r).toEqual({ incident: { name: 'After', severity: 'MINOR', services: [{ serviceId: web, name: 'Website' }] }, userErrors: [] });
      // The incident read after the rename is not the one the first mutation answered (and the loaders held).
      expect(res.u.incidentUpdate.incident).toEqual({ name: 'After', services: [{ name: 'Website (renamed)' }] });
      await s.a.request('PUT', `${SERVICES}/${web}`, { name: 'Website' });
    });

    it('deletes an incident with its updates, after which it and its updates read as null', async () => {
      const incident = await restIncident(s.a, { incidentUpdates: [{ description: 'Gone soon' }] });
      const id = toGlobalId('Incident', incident.id);
      const updateId = incidentUpdateGlobalId(incident.id, incident.incidentUpdates[0].id);
      expect((await ok(s.a, DELETE_INCIDENT, { id })).r).toEqual({ deletedId: id, userErrors: [] });
      expect(await ok(s.a, 'query($id: ID!, $u: ID!) { incident(id: $id) { id } node(id: $u) { id } }', { id, u: updateId })).toEqual({ incident: null, node: null });
      expect((await s.a.request('GET', `${INCIDENTS}/${incident.id}`)).status).toBe(404);
    });
  });

  describe('bad input', () => {
    let incidentId: string;
    let updateId: string;
    beforeAll(async () => {
      const incident = await restIncident(s.a, { name: 'Target', incidentUpdates: [{ description: 'First', status: 'INVESTIGATING' }] });
      incidentId = incident.id;
      updateId = incidentUpdateGlobalId(incident.id, incident.incidentUpdates[0].id);
    });

    const valid = () => ({ name: 'Valid', severity: 'MAJOR', services: [api] });
    /** [what, mutation, variables, the fields its userErrors name]. */
    const BAD: [string, string, () => Record<string, unknown>, string[]][] = [
      ['a service without a name', CREATE_SERVICE, () => ({ input: {} }), ['name']],
      ['a blank service name', CREATE_SERVICE, () => ({ input: { name: '   ' } }), ['name']],
      ['a service name over 255 characters', CREATE_SERVICE, () => ({ input: { name: 'x'.repeat(256) } }), ['name']],
      ['a service renamed to nothing', UPDATE_SERVICE, () => ({ id: api, input: { name: '' } }), ['name']],
      ['an incident without any field', CREATE_INCIDENT, () => ({ input: {} }), ['name', 'severity', 'services']],
      ['an incident name over 255 characters', CREATE_INCIDENT, () => ({ input: { ...valid(), name: 'x'.repeat(256) } }), ['name']],
      ['an incident without services', CREATE_INCIDENT, () => ({ input: { ...valid(), services: [] } }), ['services']],
      ['a service id that can be no service', CREATE_INCIDENT, () => ({ input: { ...valid(), services: ['not-an-id'] } }), ['services.0']],
      ['an incident id given as a service', CREATE_INCIDENT, () => ({ input: { ...valid(), services: [toGlobalId('Incident', incidentId)] } }), ['services.0']],
      ['an unknown service after a known one', CREATE_INCIDENT, () => ({ input: { ...valid(), services: [api, UNKNOWN] } }), ['services.1']],
      ["another account's service", CREATE_INCIDENT, () => ({ input: { ...valid(), services: [toGlobalId('StatusPageService', theirs)] } }), ['services.0']],
      ['a service listed twice', CREATE_INCIDENT, () => ({ input: { ...valid(), services: [api, toGlobalId('StatusPageService', api)] } }), ['services.1']],
      ['a first update without description', CREATE_INCIDENT, () => ({ input: { ...valid(), updates: [{ status: 'INVESTIGATING' }] } }), ['updates.0.description']],
      ['a first update with a bad date', CREATE_INCIDENT, () => ({ input: { ...valid(), updates: [{ description: 'x' }, { description: 'y', publicIncidentUpdateDate: 'yesterday' }] } }), ['updates.1.publicIncidentUpdateDate']],
      ['an incident emptied of services', UPDATE_INCIDENT, () => ({ id: incidentId, input: { services: [] } }), ['services']],
      ['an incident moved to an unknown service', UPDATE_INCIDENT, () => ({ id: incidentId, input: { name: 'Renamed', services: [UNKNOWN] } }), ['services.0']],
      ['an incident renamed over 255 characters', UPDATE_INCIDENT, () => ({ id: incidentId, input: { name: 'x'.repeat(256) } }), ['name']],
      ['a posted update without description', CREATE_UPDATE, () => ({ id: incidentId, input: { status: 'RESOLVED' } }), ['description']],
      ['a posted update with an empty description', CREATE_UPDATE, () => ({ id: incidentId, input: { description: '' } }), ['description']],
      ['a posted update with a date without a zone', CREATE_UPDATE, () => ({ id: incidentId, input: { description: 'x', publicIncidentUpdateDate: '2026-01-01T10:00:00' } }), ['publicIncidentUpdateDate']],
      ['an edited update with a description over 10,000 characters', UPDATE_UPDATE, () => ({ id: updateId, input: { description: 'x'.repeat(10_001) } }), ['description']],
    ];

    it.each(BAD)('%s gives one userError per bad field, on its input path, and writes nothing', async (_what, mutation, variables, fields) => {
      const before = await counts();
      const target = (await s.a.request('GET', `${INCIDENTS}/${incidentId}`)).body;
      const services = (await s.a.request('GET', `${SERVICES}?limit=100`)).body;
      const res = await gql(s.a, mutation, variables());
      expect(res.errors).toBeUndefined();
      expect(res.data.r[OBJECT_OF[mutation]!]).toBeNull();
      expect(res.data.r.userErrors.map((e: any) => e.field).sort()).toEqual([...fields].sort());
      for (const e of res.data.r.userErrors) expect(e).toEqual({ field: expect.any(String), code: 'BAD_USER_INPUT', message: expect.any(String) });
      expect(await counts()).toEqual(before);
      expect((await s.a.request('GET', `${INCIDENTS}/${incidentId}`)).body).toEqual(target);
      expect((await s.a.request('GET', `${SERVICES}?limit=100`)).body).toEqual(services);
    });

    it.each([
      ['an unknown severity', CREATE_INCIDENT, { input: { name: 'x', severity: 'SEVERE', services: [UNKNOWN] } }],
      ['an unknown update status', CREATE_UPDATE, { id: UNKNOWN, input: { description: 'x', status: 'MAINTENANCE' } }],
      ['an unknown input field', CREATE_SERVICE, { input: { name: 'x', colour: 'red' } }],
    ])('rejects %s before any REST call', async (_what, mutation, variables) => {
      const before = await counts();
      const { res, count: calls } = await counted(s.a, mutation, variables);
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(res.data).toBeUndefined();
      expect(calls).toBe(0);
      expect(await counts()).toEqual(before);
    });
  });

  describe('accounts', () => {
    let mine: { incident: string; update: string };
    beforeAll(async () => {
      const incident = await restIncident(s.a, { name: 'Private', incidentUpdates: [{ description: 'Ours only' }] });
      mine = { incident: incident.id, update: incidentUpdateGlobalId(incident.id, incident.incidentUpdates[0].id) };
    });

    it('reads nothing of another account: its ids are null everywhere and its incidents are not listed', async () => {
      const res = await ok(s.b, `query($svc: ID!, $inc: ID!, $upd: ID!) {
        service: statusPageService(id: $svc) { id } incident(id: $inc) { id } incidentUpdate(id: $upd) { id }
        nodes(ids: [$svc, $inc, $upd]) { id }
        incidents(first: 100) { nodes { incidentId } } statusPageServices(first: 100) { nodes { serviceId incidents { incidentId } } }
      }`, { svc: toGlobalId('StatusPageService', api), inc: toGlobalId('Incident', mine.incident), upd: mine.update });
      expect(res).toMatchObject({ service: null, incident: null, incidentUpdate: null, nodes: [null, null, null], incidents: { nodes: [] } });
      expect(res.statusPageServices.nodes).toEqual([{ serviceId: theirs, incidents: [] }]);
    });

    it.each<[string, string, () => Record<string, unknown>]>([
      ['updateStatusPageService', UPDATE_SERVICE, () => ({ id: api, input: { name: 'Taken' } })],
      ['deleteStatusPageService', DELETE_SERVICE, () => ({ id: toGlobalId('StatusPageService', api) })],
      ['updateIncident', UPDATE_INCIDENT, () => ({ id: mine.incident, input: { name: 'Taken' } })],
      ['deleteIncident', DELETE_INCIDENT, () => ({ id: toGlobalId('Incident', mine.incident) })],
      ['createIncidentUpdate', CREATE_UPDATE, () => ({ id: mine.incident, input: { description: 'Sneaky' } })],
      ['updateIncidentUpdate', UPDATE_UPDATE, () => ({ id: mine.update, input: { description: 'Sneaky' } })],
      ['deleteIncidentUpdate', DELETE_UPDATE, () => ({ id: mine.update })],
    ])("%s of another account's id is NOT_FOUND and changes nothing", async (_name, mutation, variables) => {
      const before = await counts();
      const incident = (await s.a.request('GET', `${INCIDENTS}/${mine.incident}`)).body;
      const res = await gql(s.b, mutation, variables());
      expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(await counts()).toEqual(before);
      expect((await s.a.request('GET', `${INCIDENTS}/${mine.incident}`)).body).toEqual(incident);
      expect((await s.a.request('GET', `${SERVICES}/${api}`)).body.name).toBe('API');
    });

    it('answers an id that can name nothing with NOT_FOUND, before any REST call', async () => {
      for (const mutation of ['deleteIncident(id: "nope")', `deleteIncidentUpdate(id: "${UNKNOWN}")`, 'updateStatusPageService(id: "nope", input: {name: "x"})']) {
        const { res, count: calls } = await counted(s.a, `mutation { r: ${mutation} { userErrors { field } } }`);
        expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
        expect(calls).toBe(0);
      }
    });
  });

  describe('batching', () => {
    let services: string[] = [];
    beforeAll(async () => {
      const extra = await Promise.all(Array.from({ length: 12 }, (_, i) => s.a.request('POST', SERVICES, { name: `Batched ${i}` })));
      services = extra.map((r) => r.body.id);
      for (const [i, id] of services.entries()) {
        await restIncident(s.a, { name: `Batched incident ${i}`, services: [{ id }, { id: services[(i + 1) % services.length] }], incidentUpdates: [{ description: `u${i}` }] });
        await s.a.request('POST', '/v1/checks/api', { name: `Automated ${i}`, request: { url: 'https://example.test' }, triggerIncident: { serviceId: id, name: 'x', description: 'y' } });
      }
    });

    it.each([
      ['services, each with its incidents, their services and updates back to the incident', 2,
        '{ statusPageServices(first: 100) { nodes { name incidents(open: true) { name services { name incidents { name } } updates { description incident { name } } } } } }'],
      ['incidents, each with its services and their incidents', 2,
        '{ incidents(first: 50) { nodes { name services { name incidents { incidentId } } updates { incident { services { name } } } } } }'],
      ['checks with the service of their incident automation and its incidents', 3,
        '{ checks(first: 50) { nodes { name triggerIncident { service { name incidents { name } } } } } }'],
    ])('answers %s with %i REST calls, as counted by the service', async (_what, calls, query) => {
      const { res, count } = await counted(s.a, query);
      expect(res.errors).toBeUndefined();
      expect(res.extensions?.cost?.restCalls).toBe(calls);
      expect(count).toBe(calls);
    });

    it('loads a dozen services by id with one call, one service with one call, and a repeated incident id once', async () => {
      const many = await counted(s.a, 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on StatusPageService { name } } }', { ids: services.map((id) => toGlobalId('StatusPageService', id)) });
      expect(many.res.data.nodes.map((n: any) => n.name)).toEqual(services.map((_, i) => `Batched ${i}`));
      expect(many.count).toBe(1);
      const one = await counted(s.a, `{ statusPageService(id: "${services[0]}") { name } }`);
      expect(one.res.data.statusPageService.name).toBe('Batched 0');
      expect(one.count).toBe(1);
      const incident = (await s.a.request('GET', `${INCIDENTS}?limit=1`)).body.entries[0].id;
      const twice = await counted(s.a, `{ a: incident(id: "${incident}") { name } b: node(id: "${toGlobalId('Incident', incident)}") { id } }`);
      expect(twice.res.errors).toBeUndefined();
      expect(twice.res.extensions?.cost?.restCalls).toBe(1);
      expect(twice.count).toBe(1);
    });
  });

  describe('incidentUpdated over graphql-ws', () => {
    const EVENTS = 'subscription($id: ID) { incidentUpdated(incidentId: $id) { incidentId deleted incident { incidentId name lastUpdateStatus open services { name } updates { description incident { incidentId } } } } }';
    const connect = async (c: TestClient) => {
      const client = await connectGraphqlWs(s.url, { authorization: `Bearer ${c.apiKey}`, accountId: c.accountId });
      sockets.push(client);
      return client;
    };

    it("streams the caller's incident changes only, another account's never", async () => {
      const monitor = s.lookout.graphqlSubscriptions!.monitor;
      const aSub = await subscribe(await connect(s.a), monitor, EVENTS);
      const bSub = await subscribe(await connect(s.b), monitor, EVENTS);
      const created = await ok(s.a, CREATE_INCIDENT, { input: { name: 'Streamed', severity: 'MINOR', services: [api], updates: [{ description: 'Started' }] } });
      const incidentId = created.r.incident.incidentId;
      const theirs2 = await restIncident(s.b, { name: 'Theirs', services: [{ id: theirs }] });
      // b's own incident was written after a's: had a's reached b, it would have come first.
      expect((await bSub.next()).data.incidentUpdated).toMatchObject({ incidentId: theirs2.id, incident: { name: 'Theirs' } });
      expect((await aSub.next()).data.incidentUpdated).toEqual({
        incidentId, deleted: false,
        incident: { incidentId, name: 'Streamed', lastUpdateStatus: 'INVESTIGATING', open: true, services: [{ name: 'API' }], updates: [{ description: 'Started', incident: { incidentId } }] },
      });
      await ok(s.a, CREATE_UPDATE, { id: incidentId, input: { description: 'Done', status: 'RESOLVED' } });
      expect((await aSub.next()).data.incidentUpdated.incident).toMatchObject({ lastUpdateStatus: 'RESOLVED', open: false });
      await ok(s.a, DELETE_INCIDENT, { id: incidentId });
      expect((await aSub.next()).data.incidentUpdated).toEqual({ incidentId, deleted: true, incident: null });
      aSub.dispose();
      bSub.dispose();
    });

    it('narrows to one incident named by its global id or REST id', async () => {
      const monitor = s.lookout.graphqlSubscriptions!.monitor;
      const [watched, other] = [await restIncident(s.a, { name: 'Watched' }), await restIncident(s.a, { name: 'Other' })];
      const client = await connect(s.a);
      const byGlobal = await subscribe(client, monitor, EVENTS, { id: toGlobalId('Incident', watched.id) });
      const byRest = await subscribe(client, monitor, EVENTS, { id: watched.id.toUpperCase() });
      await s.a.request('PUT', `${INCIDENTS}/${other.id}`, { name: 'Other, renamed' });
      await s.a.request('PUT', `${INCIDENTS}/${watched.id}`, { name: 'Watched, renamed' });
      for (const sub of [byGlobal, byRest]) {
        expect((await sub.next()).data.incidentUpdated).toMatchObject({ incidentId: watched.id, incident: { name: 'Watched, renamed' } });
        sub.dispose();
      }
    });

    it.each([['garbage', 'not-an-incident'], ['a service\'s global id', toGlobalId('StatusPageService', UNKNOWN)]])(
      'refuses %s as the incidentId with BAD_USER_INPUT', async (_what, id) => {
        const client = await connect(s.a);
        const errors = await new Promise<unknown>((resolve) => {
          client.subscribe({ query: EVENTS, variables: { id } }, { next: (v) => resolve(v.errors), error: resolve, complete: () => resolve(null) });
        });
        expect(errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
      },
    );
  });
});
