import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardRestId } from '../../src/graphql/dashboard-ids.js';
import { toGlobalId } from '../../src/graphql/global-id.js';
import { BACKENDS } from '../support/backends.js';
import { gql, gqlCounted, gqlData } from '../support/graphql.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const DASHBOARDS = '/v1/dashboards';

const DASHBOARD = `id dashboardId customUrl customDomain logo favicon link description header width refreshRate paginate paginationRate checksPerPage
  useTagsAndOperator hideTags enableIncidents expandChecks showHeader customCSS isPrivate showP95 showP99 showCheckRunLinks tags createdAt updatedAt`;
const ERRORS = 'userErrors { field code message }';
const CREATE = `mutation($input: DashboardInput!) { r: createDashboard(input: $input) { dashboard { ${DASHBOARD} } ${ERRORS} } }`;
const UPDATE = `mutation($id: ID!, $input: DashboardInput!) { r: updateDashboard(id: $id, input: $input) { dashboard { ${DASHBOARD} } ${ERRORS} } }`;
const DELETE = 'mutation($id: ID!) { r: deleteDashboard(id: $id) { deletedId userErrors { field } } }';

/** A dashboard with every field set away from its default. */
const FULL = {
  customDomain: 'status.acme.test', logo: 'https://cdn.acme.test/logo.png', favicon: 'https://cdn.acme.test/favicon.ico',
  link: 'https://acme.test/', description: 'Everything we run', header: 'ACME status', width: '960PX', refreshRate: 300, paginate: false,
  paginationRate: 30, checksPerPage: 20, useTagsAndOperator: true, hideTags: true, enableIncidents: true, expandChecks: true, showHeader: false,
  customCSS: 'body { background: #101418 }', isPrivate: false, showP95: false, showP99: false, showCheckRunLinks: true, tags: ['prod', 'api'],
};

describe.each(BACKENDS)('GraphQL dashboards on $name', (backend) => {
  let s: TestServer;
  let urls = 0;
  /** A custom URL no other test of this file uses. */
  const url = (prefix = 'gql') => `${prefix}-${backend.name}-${++urls}`;

  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  const count = async () => (await s.lookout.store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM dashboards'))[0]!.n;
  const restDashboard = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const res = await client.request('POST', DASHBOARDS, { customUrl: url(), ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const counted = (client: TestClient, query: string, variables?: Record<string, unknown>) => gqlCounted(s, client, query, variables);
  const ok = gqlData;

  describe('queries and mutations', () => {
    it('creates a dashboard with every field, reads it by global and REST id, updates only what the input names and deletes it', async () => {
      const customUrl = url('full');
      const created = await ok(s.a, CREATE, { input: { customUrl, ...FULL } });
      expect(created.r.userErrors).toEqual([]);
      const d = created.r.dashboard;
      expect(d).toEqual({ id: toGlobalId('Dashboard', d.dashboardId), dashboardId: expect.any(String), customUrl, ...FULL, createdAt: expect.any(String), updatedAt: null });
      const rest = (await s.a.request('GET', `${DASHBOARDS}/${d.dashboardId}`)).body;
      expect(rest).toMatchObject({ customUrl, ...FULL, created_at: d.createdAt });

      const read = await ok(s.a, `query($id: ID!, $rest: ID!) { byGlobal: dashboard(id: $id) { ${DASHBOARD} } byRest: dashboard(id: $rest) { dashboardId } node(id: $id) { __typename id } }`,
        { id: d.id, rest: d.dashboardId.toUpperCase() });
      expect(read).toEqual({ byGlobal: d, byRest: { dashboardId: d.dashboardId }, node: { __typename: 'Dashboard', id: d.id } });

      const updated = await ok(s.a, UPDATE, { id: d.dashboardId, input: { header: 'ACME', description: '', tags: ['prod'] } });
      expect(updated.r.dashboard).toEqual({ ...d, header: 'ACME', description: null, tags: ['prod'], updatedAt: expect.any(String) });
      expect((await s.a.request('GET', `${DASHBOARDS}/${d.dashboardId}`)).body).toMatchObject({ header: 'ACME', description: null, tags: ['prod'], width: '960PX' });

      expect((await ok(s.a, DELETE, { id: d.id })).r).toEqual({ deletedId: d.id, userErrors: [] });
      expect((await ok(s.a, 'query($id: ID!) { dashboard(id: $id) { id } node(id: $id) { id } }', { id: d.id }))).toEqual({ dashboard: null, node: null });
      expect((await s.a.request('GET', `${DASHBOARDS}/${d.dashboardId}`)).status).toBe(404);
    });

    it('creates a dashboard from an empty input with the defaults and a random custom URL', async () => {
      const created = await ok(s.a, CREATE, { input: {} });
      expect(created.r.dashboard).toMatchObject({ customUrl: expect.stringMatching(/^dashboard-[0-9a-f]{12}$/), width: 'FULL', refreshRate: 60, paginate: true, tags: [] });
    });

    it('answers a custom URL or custom domain another dashboard has with CONFLICT, writing nothing', async () => {
      const theirs = await restDashboard(s.b, { customDomain: 'status.theirs.test' });
      const mine = await restDashboard(s.a);
      const before = await count();
      for (const [mutation, variables] of [
        [CREATE, { input: { customUrl: theirs.customUrl } }],
        [CREATE, { input: { customDomain: 'STATUS.theirs.test' } }],
        [UPDATE, { id: mine.dashboardId, input: { customUrl: theirs.customUrl } }],
      ] as const) {
        const res = await gql(s.a, mutation, variables);
        expect(res.errors?.[0]?.extensions?.code).toBe('CONFLICT');
      }
      expect(await count()).toBe(before);
      expect((await s.a.request('GET', `${DASHBOARDS}/${mine.dashboardId}`)).body).toEqual(mine);
    });

    it('pages through dashboards, oldest first, as a connection over the REST offset list, with the total', async () => {
      for (let i = 0; i < 3; i++) await restDashboard(s.a);
      const restIds = (await s.a.request('GET', `${DASHBOARDS}?limit=100`)).body.map((d: any) => d.dashboardId);
      const seen: string[] = [];
      let after: string | null = null;
      for (;;) {
        const conn: any = (await ok(s.a, 'query($after: String) { dashboards(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { dashboardId } } }', { after })).dashboards;
        expect(conn.totalCount).toBe(restIds.length);
        seen.push(...conn.nodes.map((n: any) => n.dashboardId));
        if (!conn.pageInfo.hasNextPage) break;
        after = conn.pageInfo.endCursor;
      }
      expect(seen).toEqual(restIds);
    });

    it('reads a dashboard asked for twice in one operation, by global and REST id, with one call', async () => {
      const d = await restDashboard(s.a);
      const twice = await counted(s.a, `{ a: dashboard(id: "${d.dashboardId}") { customUrl } b: node(id: "${toGlobalId('Dashboard', d.dashboardId)}") { id } }`);
      expect(twice.res.errors).toBeUndefined();
      expect(twice.res.data.a).toEqual({ customUrl: d.customUrl });
      expect(twice.res.extensions?.cost?.restCalls).toBe(1);
      expect(twice.count).toBe(1);
    });
  });

  describe('federation', () => {
    it('resolves a dashboard entity, keys the type by id, and resolves other ids to null', async () => {
      const d = await restDashboard(s.a, { header: 'Entity' });
      const theirs = await restDashboard(s.b);
      const res = await ok(s.a, 'query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Dashboard { header } } }', { r: [
        { __typename: 'Dashboard', id: toGlobalId('Dashboard', d.dashboardId) },
        { __typename: 'Dashboard', id: toGlobalId('Dashboard', theirs.dashboardId) },
        { __typename: 'Dashboard', id: toGlobalId('StatusPage', d.dashboardId) },
        { __typename: 'Dashboard', id: toGlobalId('Dashboard', UNKNOWN) },
      ] });
      expect(res._entities).toEqual([{ __typename: 'Dashboard', header: 'Entity' }, null, null, null]);
      const sdl = (await ok(s.a, '{ _service { sdl } }'))._service.sdl as string;
      expect(sdl).toMatch(/^type Dashboard [^{]*@key\(fields: "id"\)/m);
    });
  });

  describe('bad input', () => {
    let target: any;
    beforeAll(async () => {
      target = await restDashboard(s.a, { header: 'Target' });
    });

    const BAD: [string, string, () => Record<string, unknown>, string[]][] = [
      ['a custom URL with capitals', CREATE, () => ({ input: { customUrl: 'Acme' } }), ['customUrl']],
      ['a width that is neither FULL nor 960PX', CREATE, () => ({ input: { width: 'WIDE' } }), ['width']],
      ['a refresh rate off the list', CREATE, () => ({ input: { refreshRate: 61 } }), ['refreshRate']],
      ['too many checks a page and a logo that is no URL', CREATE, () => ({ input: { checksPerPage: 21, logo: 'logo.png' } }), ['checksPerPage', 'logo']],
      ['a private dashboard', CREATE, () => ({ input: { isPrivate: true } }), ['isPrivate']],
      ['a blank tag', UPDATE, () => ({ id: target.dashboardId, input: { tags: ['prod', ' '] } }), ['tags.1']],
      ['custom CSS closing the style element', UPDATE, () => ({ id: target.dashboardId, input: { customCSS: 'a{}</style><script>' } }), ['customCSS']],
    ];

    it.each(BAD)('%s gives one userError per bad field and writes nothing', async (_what, mutation, variables, fields) => {
      const before = await count();
      const stored = (await s.a.request('GET', `${DASHBOARDS}/${target.dashboardId}`)).body;
      const res = await gql(s.a, mutation, variables());
      expect(res.errors).toBeUndefined();
      expect(res.data.r.dashboard).toBeNull();
      expect(res.data.r.userErrors.map((e: any) => e.field).sort()).toEqual([...fields].sort());
      for (const e of res.data.r.userErrors) expect(e).toEqual({ field: expect.any(String), code: 'BAD_USER_INPUT', message: expect.any(String) });
      expect(await count()).toBe(before);
      expect((await s.a.request('GET', `${DASHBOARDS}/${target.dashboardId}`)).body).toEqual(stored);
    });

    it('rejects a refresh rate that is no integer before any REST call', async () => {
      const before = await count();
      const { res, count: calls } = await counted(s.a, CREATE, { input: { refreshRate: 'often' } });
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(calls).toBe(0);
      expect(await count()).toBe(before);
    });
  });

  describe('accounts', () => {
    let mine: any;
    beforeAll(async () => {
      mine = await restDashboard(s.a, { header: 'Private to a' });
    });

    it('reads nothing of another account: its ids are null and its dashboards are not listed', async () => {
      const res = await ok(s.b, 'query($id: ID!) { dashboard(id: $id) { id } nodes(ids: [$id]) { id } dashboards(first: 100) { nodes { dashboardId } } }', { id: toGlobalId('Dashboard', mine.dashboardId) });
      expect(res.dashboard).toBeNull();
      expect(res.nodes).toEqual([null]);
      expect(res.dashboards.nodes.map((n: any) => n.dashboardId)).not.toContain(mine.dashboardId);
    });

    it.each<[string, string, () => Record<string, unknown>]>([
      ['updateDashboard', UPDATE, () => ({ id: mine.dashboardId, input: { header: 'Taken' } })],
      ['deleteDashboard', DELETE, () => ({ id: toGlobalId('Dashboard', mine.dashboardId) })],
    ])("%s of another account's id is NOT_FOUND and changes nothing", async (_name, mutation, variables) => {
      const before = await count();
      const res = await gql(s.b, mutation, variables());
      expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(await count()).toBe(before);
      expect((await s.a.request('GET', `${DASHBOARDS}/${mine.dashboardId}`)).body).toEqual(mine);
    });

    it('answers an id that can name nothing with NOT_FOUND, before any REST call', async () => {
      expect(dashboardRestId(toGlobalId('StatusPage', UNKNOWN))).toBeNull();
      for (const mutation of ['deleteDashboard(id: "nope")', `updateDashboard(id: "${toGlobalId('StatusPage', UNKNOWN)}", input: {})`]) {
        const { res, count: calls } = await counted(s.a, `mutation { r: ${mutation} { userErrors { field } } }`);
        expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
        expect(calls).toBe(0);
      }
    });
  });
});
