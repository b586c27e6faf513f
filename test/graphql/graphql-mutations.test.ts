import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { gql } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PAYLOAD = '{ check { __typename id checkId name activated muted } userErrors { field code message } }';

/** A valid create input per mutation. */
const CREATES: [mutation: string, inputType: string, input: Record<string, unknown>, typename: string][] = [
  ['createApiCheck', 'ApiCheckInput', { name: 'API', request: { url: 'https://example.test', method: 'POST', bodyType: 'JSON', body: '{}', assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] } }, 'ApiCheck'],
  ['createUrlCheck', 'UrlCheckInput', { name: 'URL', request: { url: 'https://example.test' } }, 'UrlCheck'],
  ['createTcpCheck', 'TcpCheckInput', { name: 'TCP', request: { hostname: 'db.test', port: 5432 } }, 'TcpCheck'],
  ['createDnsCheck', 'DnsCheckInput', { name: 'DNS', request: { query: 'example.test', recordType: 'AAAA' } }, 'DnsCheck'],
  ['createIcmpCheck', 'IcmpCheckInput', { name: 'ICMP', request: { hostname: 'example.test', pingCount: 5 } }, 'IcmpCheck'],
  ['createHeartbeatCheck', 'HeartbeatCheckInput', { name: 'HB', heartbeat: { period: 5, periodUnit: 'minutes', grace: 1, graceUnit: 'minutes' } }, 'HeartbeatCheck'],
  ['createBrowserCheck', 'BrowserCheckInput', { name: 'Browser', script: "await page.goto('https://example.test')" }, 'BrowserCheck'],
  ['createMultiStepCheck', 'MultiStepCheckInput', { name: 'MS', script: "await request.get('https://example.test')" }, 'MultiStepCheck'],
  ['createAgenticCheck', 'AgenticCheckInput', { name: 'Agent', prompt: 'Check that the home page shows prices' }, 'AgenticCheck'],
];

/** Bad inputs: [mutation, key the REST API names, input type, input]. */
const BAD: [string, string, string, Record<string, unknown>][] = [
  ['createApiCheck', 'name', 'ApiCheckInput', { request: { url: 'https://example.test' } }],
  ['createApiCheck', 'request', 'ApiCheckInput', { name: 'x' }],
  ['createApiCheck', 'request.url', 'ApiCheckInput', { name: 'x', request: { url: '' } }],
  ['createApiCheck', 'frequency', 'ApiCheckInput', { name: 'x', frequency: 7, request: { url: 'https://example.test' } }],
  ['createApiCheck', 'locations.0', 'ApiCheckInput', { name: 'x', locations: ['mars-north-1'], request: { url: 'https://example.test' } }],
  ['createApiCheck', 'runtimeId', 'ApiCheckInput', { name: 'x', runtimeId: '1999.01', request: { url: 'https://example.test' } }],
  ['createApiCheck', 'groupId', 'ApiCheckInput', { name: 'x', groupId: 999999, request: { url: 'https://example.test' } }],
  ['createTcpCheck', 'request.port', 'TcpCheckInput', { name: 'x', request: { hostname: 'db.test', port: 70000 } }],
  // A suite runs from its uploaded code bundle (created in test/cli/checkly-playwright-suite-cli.test.ts).
  ['createPlaywrightCheck', 'codeBundlePath', 'PlaywrightCheckInput', { name: 'PW', script: "test('home', async () => {})" }],
  ['createIcmpCheck', 'request.pingCount', 'IcmpCheckInput', { name: 'x', request: { hostname: 'db.test', pingCount: 0 } }],
  ['createHeartbeatCheck', 'heartbeat', 'HeartbeatCheckInput', { name: 'x' }],
  ['createDnsCheck', 'request.port', 'DnsCheckInput', { name: 'x', request: { query: 'example.test', port: 0 } }],
  ['createBrowserCheck', 'playwrightConfig.use.launchOptions', 'BrowserCheckInput', { name: 'x', script: 'await page.goto("/")', playwrightConfig: { use: { launchOptions: {} } } }],
];

describe.each(BACKENDS)('GraphQL check mutations on $name', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    // A model configured (never called: nothing runs here), so agentic checks are accepted.
    s = await startTestServer({ backend, config: { agentic: { modelUrl: 'http://127.0.0.1:9/v1', modelKey: null, model: 'none', maxSteps: 1, timeoutMs: 1000, requestTimeoutMs: 1000 } } });
  });
  afterAll(async () => s?.close());

  const countChecks = async (client = s.a) => Number((await client.request('GET', '/v1/checks?limit=1')).headers.get('content-range')?.split('/')[1]);
  const create = (mutation: string, inputType: string, input: Record<string, unknown>, client = s.a) =>
    gql(client, `mutation($input: ${inputType}!) { r: ${mutation}(input: $input) ${PAYLOAD} }`, { input });

  it.each(CREATES)('%s creates the check through REST and returns it typed', async (mutation, inputType, input, typename) => {
    const res = await create(mutation, inputType, input);
    expect(res.errors).toBeUndefined();
    expect(res.data.r.userErrors).toEqual([]);
    expect(res.data.r.check).toMatchObject({ __typename: typename, name: input.name, activated: true, muted: false });
    const rest = await s.a.request('GET', `/v1/checks/${res.data.r.check.checkId}`);
    expect(rest.status).toBe(200);
    expect(rest.body.name).toBe(input.name);
  });

  it.each(BAD)('%s with a bad %s returns a userError naming it and writes nothing', async (mutation, key, inputType, input) => {
    const before = await countChecks();
    const res = await create(mutation, inputType, input);
    expect(res.errors).toBeUndefined();
    expect(res.data.r.check).toBeNull();
    expect(res.data.r.userErrors).toContainEqual({ field: key, code: 'BAD_USER_INPUT', message: expect.any(String) });
    expect(await countChecks()).toBe(before);
  });

  it.each([
    ['a missing name', { request: { url: 'https://example.test' } }, 'name', 'REQUIRED'],
    ['an empty name', { name: '', request: { url: 'https://example.test' } }, 'name', 'TOO_SHORT'],
    ['a port out of range', { name: 'x', request: { url: 'https://example.test' }, maxResponseTime: -1 }, 'maxResponseTime', 'TOO_SMALL'],
    ['a frequency the API does not offer', { name: 'x', frequency: 7, request: { url: 'https://example.test' } }, 'frequency', 'INVALID'],
  ])('gives %s a userError whose reason is the REST issue\'s stable code', async (_name, input, field, reason) => {
    const res = await gql(s.a, 'mutation($input: ApiCheckInput!) { r: createApiCheck(input: $input) { userErrors { field code reason } } }', { input });
    expect(res.data.r.userErrors).toContainEqual({ field, code: 'BAD_USER_INPUT', reason });
    const rest = await s.a.request('POST', '/v1/checks/api', input);
    expect(rest.body.validation.issues).toContainEqual(expect.objectContaining({ key: field, code: reason }));
  });

  it.each([
    ['a string for an integer', { name: 'x', frequency: 'ten', request: { url: 'https://example.test' } }],
    ['an unknown enum value', { name: 'x', request: { url: 'https://example.test', method: 'BREW' } }],
    ['an unknown input field', { name: 'x', nope: 1, request: { url: 'https://example.test' } }],
  ])('rejects %s before any REST call and writes nothing', async (_name, input) => {
    const before = await countChecks();
    const res = await create('createApiCheck', 'ApiCheckInput', input);
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.data).toBeUndefined();
    expect(await countChecks()).toBe(before);
  });

  it('updates only the fields given and keeps the rest', async () => {
    const created = await create('createApiCheck', 'ApiCheckInput', { name: 'Before', tags: ['keep'], request: { url: 'https://example.test/a' } });
    const id = created.data.r.check.id;
    const res = await gql(s.a, `mutation($id: ID!, $input: ApiCheckInput!) { r: updateApiCheck(id: $id, input: $input) { check { name tags ... on ApiCheck { request { url method } } } userErrors { field } } }`,
      { id, input: { name: 'After', request: { method: 'HEAD' } } });
    expect(res.errors).toBeUndefined();
    expect(res.data.r).toEqual({ check: { name: 'After', tags: ['keep'], request: { url: 'https://example.test/a', method: 'HEAD' } }, userErrors: [] });
  });

  it('stores a browser check\'s playwrightConfig and an API check\'s script files, and reads them back', async () => {
    const playwrightConfig = { use: { baseURL: 'https://shop.test', viewport: { width: 390, height: 844 } }, expect: { timeout: 3000 } };
    const browser = await gql(s.a, 'mutation($input: BrowserCheckInput!) { r: createBrowserCheck(input: $input) { check { ... on BrowserCheck { playwrightConfig } } userErrors { field } } }',
      { input: { name: 'Configured', script: "await page.goto('/')", playwrightConfig } });
    expect(browser.errors).toBeUndefined();
    expect(browser.data.r).toEqual({ check: { playwrightConfig }, userErrors: [] });
    const files = { setupScriptPath: 'checks/setup.ts', setupScriptDependencies: [{ path: 'checks/auth.ts', content: 'export const a = 1' }] };
    const api = await gql(s.a, 'mutation($input: ApiCheckInput!) { r: createApiCheck(input: $input) { check { ... on ApiCheck { setupScriptPath setupScriptDependencies { path content } tearDownScriptPath } } userErrors { field } } }',
      { input: { name: 'Scripted', request: { url: 'https://example.test' }, localSetupScript: "import { a } from './auth'", ...files } });
    expect(api.errors).toBeUndefined();
    expect(api.data.r).toEqual({ check: { ...files, tearDownScriptPath: null }, userErrors: [] });
  });

  it('updates a type without a typed REST route through the generic one', async () => {
    const created = await create('createAgenticCheck', 'AgenticCheckInput', { name: 'Agent', prompt: 'first' });
    const res = await gql(s.a, 'mutation($id: ID!) { r: updateAgenticCheck(id: $id, input: {prompt: "second"}) { check { ... on AgenticCheck { prompt } } userErrors { field } } }', { id: created.data.r.check.id });
    expect(res.data.r).toEqual({ check: { prompt: 'second' }, userErrors: [] });
  });

  it('returns userErrors for a bad update and leaves the check unchanged', async () => {
    const created = await create('createTcpCheck', 'TcpCheckInput', { name: 'Stable', request: { hostname: 'db.test', port: 1 } });
    const id = created.data.r.check.id;
    const res = await gql(s.a, 'mutation($id: ID!) { r: updateTcpCheck(id: $id, input: {request: {port: 0}, name: "Changed"}) { check { id } userErrors { field code } } }', { id });
    expect(res.data.r).toEqual({ check: null, userErrors: [{ field: 'request.port', code: 'BAD_USER_INPUT' }] });
    const rest = await s.a.request('GET', `/v1/checks/${created.data.r.check.checkId}`);
    expect(rest.body).toMatchObject({ name: 'Stable', request: { port: 1 } });
  });

  it('activates, deactivates, mutes and unmutes a check', async () => {
    const { data } = await create('createUrlCheck', 'UrlCheckInput', { name: 'Flags', request: { url: 'https://example.test' } });
    const id = data.r.check.id;
    const flip = async (mutation: string) => (await gql(s.a, `mutation($id: ID!) { r: ${mutation}(id: $id) { check { activated muted } userErrors { field } } }`, { id })).data.r;
    expect(await flip('deactivateCheck')).toEqual({ check: { activated: false, muted: false }, userErrors: [] });
    expect(await flip('muteCheck')).toEqual({ check: { activated: false, muted: true }, userErrors: [] });
    expect(await flip('activateCheck')).toEqual({ check: { activated: true, muted: true }, userErrors: [] });
    expect(await flip('unmuteCheck')).toEqual({ check: { activated: true, muted: false }, userErrors: [] });
  });

  it('deletes a check, after which it reads as null', async () => {
    const { data } = await create('createDnsCheck', 'DnsCheckInput', { name: 'Gone', request: { query: 'example.test' } });
    const id = data.r.check.id;
    const res = await gql(s.a, 'mutation($id: ID!) { deleteCheck(id: $id) { deletedId userErrors { field } } }', { id });
    expect(res.data.deleteCheck).toEqual({ deletedId: id, userErrors: [] });
    expect((await gql(s.a, 'query($id: ID!) { check(id: $id) { id } }', { id })).data.check).toBeNull();
  });

  it.each([
    ['deleteCheck', '{ deletedId }'],
    ['activateCheck', '{ check { id } }'],
    ['muteCheck', '{ check { id } }'],
  ])("%s of an unknown, malformed or other account's id is NOT_FOUND and changes nothing", async (mutation, selection) => {
    const { data } = await create('createTcpCheck', 'TcpCheckInput', { name: 'Mine', activated: false, request: { hostname: 'db.test', port: 2 } });
    const mine = data.r.check;
    for (const [client, id] of [[s.a, Buffer.from('Check:00000000-0000-4000-8000-000000000000').toString('base64url')], [s.a, 'garbage'], [s.b, mine.id]] as const) {
      const res = await gql(client, `mutation($id: ID!) { r: ${mutation}(id: $id) ${selection} }`, { id });
      expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
      expect(res.data).toBeNull();
    }
    const rest = await s.a.request('GET', `/v1/checks/${mine.checkId}`);
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ activated: false, muted: false });
  });

  it("cannot update another account's check", async () => {
    const { data } = await create('createApiCheck', 'ApiCheckInput', { name: 'Private', request: { url: 'https://example.test' } });
    const res = await gql(s.b, 'mutation($id: ID!) { r: updateApiCheck(id: $id, input: {name: "Hijacked"}) { check { id } } }', { id: data.r.check.id });
    expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    expect((await s.a.request('GET', `/v1/checks/${data.r.check.checkId}`)).body.name).toBe('Private');
    expect(await countChecks(s.b)).toBe(0);
  });
});
