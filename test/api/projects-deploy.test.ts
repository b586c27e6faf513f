import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/** Resources as `checkly deploy` synthesizes them (see its --debug-bundle output). */
const channel = (address = 'oncall@example.test') => ({ logicalId: 'mail', type: 'alert-channel', member: true, payload: { type: 'EMAIL', config: { address } } });
const group = (name = 'Shop') => ({
  logicalId: 'shop', type: 'check-group', member: true,
  payload: { name, locations: ['eu-west-1'], apiCheckDefaults: { headers: [], queryParameters: [], url: '', basicAuth: { username: '', password: '' } }, environmentVariables: [], v: 2 },
});
const apiCheck = (name = 'Homepage', extra: Record<string, unknown> = {}) => ({
  logicalId: 'home', type: 'check', member: true,
  payload: {
    name, locations: ['us-east-1'], frequency: 10, groupId: { ref: 'shop' }, useGlobalAlertSettings: true, runParallel: false,
    environmentVariables: [], checkType: 'API', request: { url: 'https://shop.example.test/', method: 'GET' }, ...extra,
  },
});
const tcpCheck = () => ({
  logicalId: 'db', type: 'check', member: true,
  payload: { name: 'Database', locations: ['us-east-1'], frequency: 10, groupId: null, doubleCheck: false, checkType: 'TCP', request: { hostname: 'db.example.test', port: 5432 } },
});
const subscription = () => ({
  logicalId: 'check-alert-channel-subscription#home#mail', type: 'alert-channel-subscription', member: true,
  payload: { alertChannelId: { ref: 'mail' }, checkId: { ref: 'home' }, activated: true },
});
/** A private location of the project, and where a check or group runs in one (the CLI emits both for `privateLocations: [loc]`). */
const location = (slugName = 'basement', logicalId = 'basement') => ({ logicalId, type: 'private-location', member: true, payload: { name: 'Basement rack', slugName } });
const assignment = (checkLogicalId: string, locationLogicalId: string) => ({
  logicalId: `private-location-check-assignment#${checkLogicalId}#${locationLogicalId}`, type: 'private-location-check-assignment', member: true,
  payload: { privateLocationId: { ref: locationLogicalId }, checkId: { ref: checkLogicalId } },
});
const groupAssignment = (groupLogicalId: string, locationLogicalId: string) => ({
  logicalId: `private-location-group-assignment#${groupLogicalId}#${locationLogicalId}`, type: 'private-location-group-assignment', member: true,
  payload: { privateLocationId: { ref: locationLogicalId }, groupId: { ref: groupLogicalId } },
});
const bundle = (resources: unknown[], logicalId = 'shop-project') => ({ project: { logicalId, name: 'Shop', repoUrl: 'https://git.example.test/shop' }, sharedFiles: [], resources });
const FULL = () => [channel(), group(), apiCheck(), tcpCheck(), subscription()];

const DEPLOY = '/v1/projects/deploy?dryRun=false&scheduleOnDeploy=true';
const physicalIdOf = (diff: { logicalId: string; physicalId: string | null }[], logicalId: string) => diff.find((d) => d.logicalId === logicalId)!.physicalId;

describe.each(BACKENDS)('projects: checkly deploy, preview and destroy over REST ($name)', (backend) => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer({ backend }); });
  afterAll(async () => s?.close());

  const ids = async (client: TestClient, route: string) => ((await client.request('GET', route)).body as { id: unknown }[]).map((r) => String(r.id)).sort();
  const inventory = async (client: TestClient) => ({
    checks: await ids(client, '/v1/checks'), groups: await ids(client, '/v1/check-groups'),
    channels: await ids(client, '/v1/alert-channels'), projects: (await client.request('GET', '/next/projects')).body,
  });
  const deploy = async (client: TestClient, body: unknown, query = '') => client.request('POST', DEPLOY + query, body);

  it('deploys a project: every resource created, references resolved, the deployment answered final', async () => {
    const res = await deploy(s.a, bundle(FULL()));
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ status: 'SUCCEEDED', kind: 'DEPLOY', projectLogicalId: 'shop-project', error: null });
    const diff = res.body.result.diff;
    expect(diff.map((d: { action: string }) => d.action)).toEqual(['CREATE', 'CREATE', 'CREATE', 'CREATE', 'CREATE']);
    const home = await s.a.request('GET', `/v1/checks/${physicalIdOf(diff, 'home')}`);
    expect(home.body).toMatchObject({
      name: 'Homepage', checkType: 'API', groupId: Number(physicalIdOf(diff, 'shop')),
      alertChannelSubscriptions: [{ alertChannelId: Number(physicalIdOf(diff, 'mail')), activated: true }],
    });
    expect((await s.a.request('GET', `/v1/checks/${physicalIdOf(diff, 'db')}`)).body.alertChannelSubscriptions).toEqual([]);
    expect((await s.a.request('GET', '/next/projects/shop-project')).body).toMatchObject({ logicalId: 'shop-project', name: 'Shop', repoUrl: 'https://git.example.test/shop' });

    const followed = await s.a.request('GET', `/v1/projects/shop-project/deployments/${res.body.id}`);
    expect(followed.body).toEqual(res.body);
    const done = await s.a.request('GET', `/v1/projects/shop-project/deployments/${res.body.id}/completion?maxWaitSeconds=1`);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('SUCCEEDED');
    const events = await s.a.request('GET', `/v1/projects/shop-project/deployments/${res.body.id}/events`);
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    expect(events.text).toMatch(/^event: complete\ndata: \{.*"status":"SUCCEEDED".*\}\n\n$/);
  });

  it('redeploys with a change and a removal: ids kept, the change applied, the removed check deleted', async () => {
    const before = (await deploy(s.a, bundle(FULL()))).body.result.diff;
    const res = await deploy(s.a, bundle([channel(), group('Shop renamed'), apiCheck('Homepage v2')]));
    expect(res.status, res.text).toBe(202);
    const diff = res.body.result.diff;
    expect(diff).toContainEqual({ type: 'check', logicalId: 'home', physicalId: physicalIdOf(before, 'home'), action: 'UPDATE' });
    expect(diff).toContainEqual({ type: 'check', logicalId: 'db', physicalId: physicalIdOf(before, 'db'), action: 'DELETE' });
    expect(diff).toContainEqual(expect.objectContaining({ type: 'alert-channel-subscription', action: 'DELETE' }));
    const home = await s.a.request('GET', `/v1/checks/${physicalIdOf(before, 'home')}`);
    expect(home.body).toMatchObject({ name: 'Homepage v2', alertChannelSubscriptions: [] });
    expect((await s.a.request('GET', `/v1/check-groups/${physicalIdOf(before, 'shop')}`)).body.name).toBe('Shop renamed');
    expect((await s.a.request('GET', `/v1/checks/${physicalIdOf(before, 'db')}`)).status).toBe(404);
  });

  it('a redeploy replaces a resource whole: what the code no longer says takes its default, a check leaves its group', async () => {
    const first = (await deploy(s.a, bundle([group(), apiCheck('Tagged', { tags: ['shop', 'web'], description: 'Front page' })], 'replace'))).body.result.diff;
    await deploy(s.a, bundle([group(), { ...apiCheck('Untagged'), payload: { ...apiCheck('Untagged').payload, groupId: null } }], 'replace'));
    const check = (await s.a.request('GET', `/v1/checks/${physicalIdOf(first, 'home')}`)).body;
    expect(check).toMatchObject({ name: 'Untagged', tags: [], groupId: null });
    expect(check.description ?? null).toBeNull();
  });

  it('a redeployed heartbeat keeps its ping URL', async () => {
    const hb = (name: string) => ({
      logicalId: 'nightly', type: 'check', member: true,
      payload: { name, frequency: 10, groupId: null, checkType: 'HEARTBEAT', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } },
    });
    const id = physicalIdOf((await deploy(s.a, bundle([hb('Nightly')], 'beats'))).body.result.diff, 'nightly');
    const before = (await s.a.request('GET', `/v1/checks/${id}`)).body.heartbeat.pingUrl;
    await deploy(s.a, bundle([hb('Nightly backup')], 'beats'));
    expect((await s.a.request('GET', `/v1/checks/${id}`)).body).toMatchObject({ name: 'Nightly backup', heartbeat: { pingUrl: before } });
  });

  it('a resource outside the project (member: false) lends its id to references, and is left alone', async () => {
    const external = (await s.a.request('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: 'existing@example.test' } })).body.id;
    const res = await deploy(s.a, bundle([
      tcpCheck(), { logicalId: 'existing', type: 'alert-channel', member: false, physicalId: external, payload: null },
      { logicalId: 'sub-db', type: 'alert-channel-subscription', member: true, payload: { alertChannelId: { ref: 'existing' }, checkId: { ref: 'db' }, activated: true } },
    ], 'borrower'));
    expect(res.status, res.text).toBe(202);
    expect(res.body.result.diff.map((d: { logicalId: string }) => d.logicalId)).toEqual(['db', 'sub-db']);
    const db = physicalIdOf(res.body.result.diff, 'db');
    expect((await s.a.request('GET', `/v1/checks/${db}`)).body.alertChannelSubscriptions).toEqual([{ alertChannelId: external, activated: true }]);
    expect((await s.a.request('DELETE', '/v1/projects/borrower')).status).toBe(202);
    expect((await s.a.request('GET', `/v1/alert-channels/${external}`)).status).toBe(200);
  });

  it('a dry run answers the diff and writes nothing', async () => {
    const before = await inventory(s.a);
    const res = await s.a.request('POST', '/v1/projects/deploy?dryRun=true&scheduleOnDeploy=true', bundle([channel(), tcpCheck()], 'preview-only'));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ diff: [
      { type: 'alert-channel', logicalId: 'mail', physicalId: null, action: 'CREATE' },
      { type: 'check', logicalId: 'db', physicalId: null, action: 'CREATE' },
    ] });
    expect(await inventory(s.a)).toEqual(before);
  });

  it('preserveResources keeps a removed resource in the account, no longer owned by the project', async () => {
    const first = (await deploy(s.a, bundle([tcpCheck(), { ...tcpCheck(), logicalId: 'db2' }], 'keeper'))).body.result.diff;
    const res = await deploy(s.a, bundle([tcpCheck()], 'keeper'), '&preserveResources=true');
    expect(res.body.result.diff).toContainEqual({ type: 'check', logicalId: 'db2', physicalId: physicalIdOf(first, 'db2'), action: 'DETACHED' });
    expect((await s.a.request('GET', `/v1/checks/${physicalIdOf(first, 'db2')}`)).status).toBe(200);
    // Detached: a later deploy without it has nothing of it to delete.
    const again = await deploy(s.a, bundle([tcpCheck()], 'keeper'));
    expect(again.body.result.diff).toEqual([{ type: 'check', logicalId: 'db', physicalId: physicalIdOf(first, 'db'), action: 'UPDATE' }]);
    expect((await s.a.request('GET', `/v1/checks/${physicalIdOf(first, 'db2')}`)).status).toBe(200);
  });

  it('never touches resources outside the project, nor another account\'s project of the same logical id', async () => {
    const theirs = (await s.b.request('POST', '/v1/checks/tcp', { name: 'Theirs', request: { hostname: 'b.example.test', port: 22 } })).body.id;
    const mine = (await s.a.request('POST', '/v1/checks/tcp', { name: 'Mine, by hand', request: { hostname: 'a.example.test', port: 22 } })).body.id;
    const b = await deploy(s.b, bundle([tcpCheck()], 'shop-project'));
    expect(b.status, b.text).toBe(202);
    await deploy(s.a, bundle([channel()], 'shop-project'));
    expect((await s.a.request('DELETE', '/v1/projects/shop-project')).status).toBe(202);
    expect((await s.a.request('GET', `/v1/checks/${mine}`)).status).toBe(200);
    expect((await s.b.request('GET', `/v1/checks/${theirs}`)).status).toBe(200);
    expect((await s.b.request('GET', `/v1/checks/${physicalIdOf(b.body.result.diff, 'db')}`)).status).toBe(200);
    expect((await s.b.request('GET', '/next/projects')).body.map((p: { logicalId: string }) => p.logicalId)).toEqual(['shop-project']);
    expect((await s.a.request('GET', `/v1/projects/shop-project/deployments/${b.body.id}`)).status).toBe(404);
  });

  it('destroy deletes the project and its resources; a project that does not exist is already destroyed', async () => {
    const diff = (await deploy(s.a, bundle(FULL(), 'doomed'))).body.result.diff;
    const preview = await s.a.request('DELETE', '/v1/projects/doomed?dryRun=true');
    expect(preview.status).toBe(200);
    expect(preview.body.diff.every((d: { action: string }) => d.action === 'DELETE')).toBe(true);
    const res = await s.a.request('DELETE', '/v1/projects/doomed?preserveResources=false&dryRun=false');
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ status: 'SUCCEEDED', kind: 'DESTROY' });
    for (const [logicalId, route] of [['home', '/v1/checks/'], ['db', '/v1/checks/'], ['shop', '/v1/check-groups/'], ['mail', '/v1/alert-channels/']] as const) {
      expect((await s.a.request('GET', route + physicalIdOf(diff, logicalId))).status).toBe(404);
    }
    expect((await s.a.request('GET', '/next/projects/doomed')).status).toBe(404);
    // The CLI follows the destroy to completion after the project is gone.
    expect((await s.a.request('GET', `/v1/projects/doomed/deployments/${res.body.id}/completion`)).body.status).toBe('SUCCEEDED');
    expect(await s.a.request('DELETE', '/v1/projects/doomed')).toMatchObject({ status: 200, body: { diff: [] } });
  });

  it('a second deploy while one runs is a 409 naming the running deployment; completion waits for it', async () => {
    await deploy(s.a, bundle([channel()], 'busy'));
    const running = randomUUID();
    await s.lookout.store.db.query(
      `INSERT INTO deployments (id, account_id, project_id, project_logical_id, kind, status)
       SELECT $1, account_id, id, logical_id, 'DEPLOY', 'RUNNING' FROM projects WHERE account_id = $2 AND logical_id = 'busy'`,
      [running, s.a.accountId],
    );
    const res = await deploy(s.a, bundle([channel('other@example.test')], 'busy'));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ deploymentId: running, attributes: { deploymentId: running } });
    expect((await s.a.request('DELETE', '/v1/projects/busy')).body.deploymentId).toBe(running);
    const waiting = await s.a.request('GET', `/v1/projects/busy/deployments/${running}/completion?maxWaitSeconds=0`);
    expect(waiting.status).toBe(408);

    // The event stream reports progress while it runs, then completes once it finishes.
    const stream = await fetch(`${s.url}/v1/projects/busy/deployments/${running}/events`, {
      headers: { authorization: `Bearer ${s.a.apiKey}`, 'x-lookout-account': s.a.accountId, accept: 'text/event-stream' },
    });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('\n\n')) text += (await reader.read()).value ?? '';
    expect(text).toBe('event: progress\ndata: {"progress":0}\n\n');
    await s.lookout.store.db.query("UPDATE deployments SET status = 'SUCCEEDED', finished_at = now() WHERE id = $1", [running]);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
    expect(text).toMatch(/event: complete\ndata: \{.*"status":"SUCCEEDED".*\}\n\n$/);
    expect((await s.a.request('GET', `/v1/projects/busy/deployments/${running}/completion`)).body.status).toBe('SUCCEEDED');
    expect((await deploy(s.a, bundle([channel('other@example.test')], 'busy'))).status).toBe(202);
  });

  it('deploys maintenance windows: created, updated keeping the id (absent repetition cleared), previewed, removed', async () => {
    const window = (name: string, repeat: Record<string, unknown> = {}) => ({
      logicalId: 'release', type: 'maintenance-window', member: true,
      payload: { name, tags: ['shop'], startsAt: '2099-01-01T10:00:00.000Z', endsAt: '2099-01-01T11:00:00.000Z', ...repeat },
    });
    const first = await deploy(s.a, bundle([tcpCheck(), window('Release', { repeatUnit: 'WEEK', repeatInterval: 1 })], 'windows'));
    expect(first.status, first.text).toBe(202);
    const id = physicalIdOf(first.body.result.diff, 'release');
    expect((await s.a.request('GET', `/v1/maintenance-windows/${id}`)).body).toMatchObject({ name: 'Release', tags: ['shop'], repeatUnit: 'WEEK', repeatInterval: 1 });

    const preview = await s.a.request('POST', '/v1/projects/deploy?dryRun=true', bundle([tcpCheck()], 'windows'));
    expect(preview.body.diff).toContainEqual({ type: 'maintenance-window', logicalId: 'release', physicalId: id, action: 'DELETE' });

    const second = await deploy(s.a, bundle([tcpCheck(), window('Release v2')], 'windows'));
    expect(second.status, second.text).toBe(202);
    expect(physicalIdOf(second.body.result.diff, 'release')).toBe(id);
    expect((await s.a.request('GET', `/v1/maintenance-windows/${id}`)).body).toMatchObject({ name: 'Release v2', repeatUnit: null, repeatInterval: null });

    const bad = await deploy(s.a, bundle([tcpCheck(), { ...window('Backwards'), payload: { ...window('Backwards').payload, endsAt: '2098-01-01T00:00:00.000Z' } }], 'windows'));
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.validation.keys.some((k: string) => k.startsWith('resources.release.payload'))).toBe(true);

    expect((await deploy(s.a, bundle([tcpCheck()], 'windows'))).status).toBe(202);
    expect((await s.a.request('GET', `/v1/maintenance-windows/${id}`)).status).toBe(404);
  });

  it('deploys status pages and their services: cards name services by reference, ids kept on update, removed', async () => {
    const slug = `shop-${randomUUID().slice(0, 8)}`;
    const service = (name: string) => ({ logicalId: 'checkout', type: 'status-page-service', member: true, payload: { name } });
    const page = (name: string, cards: unknown[]) => ({ logicalId: 'public-page', type: 'status-page', member: true, payload: { name, url: slug, cards } });
    const first = await deploy(s.a, bundle([service('Checkout'), page('Shop status', [{ name: 'Shop', services: [{ ref: 'checkout' }] }])], 'pages'));
    expect(first.status, first.text).toBe(202);
    const serviceId = physicalIdOf(first.body.result.diff, 'checkout');
    const pageId = physicalIdOf(first.body.result.diff, 'public-page');
    expect((await s.a.request('GET', `/v1/status-pages/${pageId}`)).body).toMatchObject({
      name: 'Shop status', url: slug, defaultTheme: 'AUTO', cards: [{ name: 'Shop', services: [{ id: serviceId, name: 'Checkout' }] }],
    });

    const second = await deploy(s.a, bundle([service('Checkout v2'), page('Shop status v2', [{ name: 'Buying', services: [{ ref: 'checkout' }] }])], 'pages'));
    expect(second.status, second.text).toBe(202);
    expect(physicalIdOf(second.body.result.diff, 'checkout')).toBe(serviceId);
    expect(physicalIdOf(second.body.result.diff, 'public-page')).toBe(pageId);
    expect((await s.a.request('GET', `/v1/status-pages/${pageId}`)).body).toMatchObject({
      name: 'Shop status v2', cards: [{ name: 'Buying', services: [{ id: serviceId, name: 'Checkout v2' }] }],
    });

    const preview = await s.a.request('POST', '/v1/projects/deploy?dryRun=true', bundle([tcpCheck()], 'pages'));
    expect(preview.body.diff.filter((d: { action: string }) => d.action === 'DELETE').map((d: { logicalId: string }) => d.logicalId)).toEqual(['public-page', 'checkout']);
    expect((await deploy(s.a, bundle([tcpCheck()], 'pages'))).status).toBe(202);
    expect((await s.a.request('GET', `/v1/status-pages/${pageId}`)).status).toBe(404);
    expect((await s.a.request('GET', `/v1/status-pages/services/${serviceId}`)).status).toBe(404);
  });

  it('refuses a status page card naming a service of another account by id', async () => {
    const theirs = (await s.b.request('POST', '/v1/status-pages/services', { name: 'Theirs' })).body.id;
    const res = await deploy(s.a, bundle([{ logicalId: 'p', type: 'status-page', payload: { name: 'P', url: `p-${randomUUID().slice(0, 8)}`, cards: [{ name: 'C', services: [theirs] }] } }], 'foreign-page'));
    expect(res.status, res.text).toBe(400);
    expect(res.body.validation.keys.some((k: string) => k.startsWith('resources.p.payload.cards'))).toBe(true);
    expect((await s.a.request('GET', '/next/projects/foreign-page')).status).toBe(404);
  });

  it('deploys dashboards: created, updated keeping the id (what the construct drops is reset), removed', async () => {
    const customUrl = `board-${randomUUID().slice(0, 8)}`;
    const board = (extra: Record<string, unknown>) => ({ logicalId: 'board', type: 'dashboard', member: true, payload: { customUrl, tags: ['shop'], ...extra } });
    const first = await deploy(s.a, bundle([board({ header: 'Shop', refreshRate: 300 })], 'boards'));
    expect(first.status, first.text).toBe(202);
    const id = physicalIdOf(first.body.result.diff, 'board');
    expect((await s.a.request('GET', `/v1/dashboards/${id}`)).body).toMatchObject({ dashboardId: id, customUrl, header: 'Shop', refreshRate: 300, tags: ['shop'] });

    const second = await deploy(s.a, bundle([board({ description: 'All shop checks' })], 'boards'));
    expect(second.status, second.text).toBe(202);
    expect(physicalIdOf(second.body.result.diff, 'board')).toBe(id);
    expect((await s.a.request('GET', `/v1/dashboards/${id}`)).body).toMatchObject({ header: null, refreshRate: 60, description: 'All shop checks' });

    expect((await deploy(s.a, bundle([], 'boards'))).status).toBe(202);
    expect((await s.a.request('GET', `/v1/dashboards/${id}`)).status).toBe(404);
  });

  it('deploys private locations and where checks and groups run in them: created keyless, assigned, unassigned, removed', async () => {
    const slug = `rack-${randomUUID().slice(0, 8)}`;
    const lent = (await s.a.request('POST', '/v1/private-locations', { name: 'Office', slugName: `office-${randomUUID().slice(0, 8)}` })).body;
    const resources = () => [
      location(slug), group(), tcpCheck(), apiCheck(),
      { logicalId: `private-location-${lent.id}`, type: 'private-location', member: false, physicalId: lent.id, payload: null },
      assignment('db', 'basement'), assignment('db', `private-location-${lent.id}`), groupAssignment('shop', 'basement'),
    ];
    const first = await deploy(s.a, bundle(resources(), 'racks'));
    expect(first.status, first.text).toBe(202);
    const diff = first.body.result.diff;
    expect(diff).toContainEqual({ type: 'private-location', logicalId: 'basement', physicalId: expect.any(String), action: 'CREATE' });
    expect(diff).toContainEqual({ type: 'private-location-check-assignment', logicalId: `private-location-check-assignment#db#basement`, physicalId: null, action: 'CREATE' });
    expect(diff.some((d: { logicalId: string }) => d.logicalId === `private-location-${lent.id}`)).toBe(false);
    const locationId = physicalIdOf(diff, 'basement')!;
    expect((await s.a.request('GET', `/v1/private-locations/${locationId}`)).body).toMatchObject({ name: 'Basement rack', slugName: slug, keys: [] });
    expect((await s.a.request('GET', `/v1/checks/${physicalIdOf(diff, 'db')}`)).body.privateLocations).toEqual([slug, lent.slugName]);
    expect((await s.a.request('GET', `/v1/checks/${physicalIdOf(diff, 'home')}`)).body.privateLocations).toEqual([]);
    expect((await s.a.request('GET', `/v1/check-groups/${physicalIdOf(diff, 'shop')}`)).body.privateLocations).toEqual([slug]);

    // The office assignment and the group's are dropped: both stop running there; the location itself is renamed in place.
    const second = await deploy(s.a, bundle([
      { ...location(slug), payload: { name: 'Basement rack 2', slugName: slug } }, group(), tcpCheck(), apiCheck(), assignment('db', 'basement'),
    ], 'racks'));
    expect(second.status, second.text).toBe(202);
    expect(physicalIdOf(second.body.result.diff, 'basement')).toBe(locationId);
    expect((await s.a.request('GET', `/v1/checks/${physicalIdOf(diff, 'db')}`)).body.privateLocations).toEqual([slug]);
    expect((await s.a.request('GET', `/v1/check-groups/${physicalIdOf(diff, 'shop')}`)).body.privateLocations).toEqual([]);
    expect((await s.a.request('GET', `/v1/private-locations/${locationId}`)).body.name).toBe('Basement rack 2');

    // Gone from the project: the checks leave it first, then the location is deleted; the lent one stays.
    const third = await deploy(s.a, bundle([group(), tcpCheck(), apiCheck()], 'racks'));
    expect(third.status, third.text).toBe(202);
    expect(third.body.result.diff).toContainEqual({ type: 'private-location', logicalId: 'basement', physicalId: locationId, action: 'DELETE' });
    expect((await s.a.request('GET', `/v1/private-locations/${locationId}`)).status).toBe(404);
    expect((await s.a.request('GET', `/v1/checks/${physicalIdOf(diff, 'db')}`)).body.privateLocations).toEqual([]);
    expect((await s.a.request('GET', `/v1/private-locations/${lent.id}`)).status).toBe(200);
    expect((await s.a.request('DELETE', '/v1/projects/racks')).status).toBe(202);
  });

  it('refuses to remove a private location that a check outside the project still runs in: 409, nothing applied', async () => {
    const slug = `shared-${randomUUID().slice(0, 8)}`;
    const first = await deploy(s.a, bundle([location(slug)], 'shared-rack'));
    expect(first.status, first.text).toBe(202);
    const locationId = physicalIdOf(first.body.result.diff, 'basement')!;
    const outsider = await s.a.request('POST', '/v1/checks/tcp', { name: 'Outsider', request: { hostname: 'db.example.test', port: 5432 }, locations: [], privateLocations: [slug] });
    expect(outsider.status, outsider.text).toBe(201);
    const res = await deploy(s.a, bundle([], 'shared-rack'));
    expect(res.status, res.text).toBe(409);
    expect(res.body.message).toContain(slug);
    expect((await s.a.request('GET', `/v1/private-locations/${locationId}`)).status).toBe(200);
    expect((await s.a.request('DELETE', `/v1/checks/${outsider.body.id}`)).status).toBe(204);
    expect((await deploy(s.a, bundle([], 'shared-rack'))).status).toBe(202);
    expect((await s.a.request('GET', `/v1/private-locations/${locationId}`)).status).toBe(404);
  });

  it('stores a browser check with the project files it imports, named by their index in sharedFiles', async () => {
    const browser = {
      logicalId: 'home-browser', type: 'check', member: true,
      payload: {
        name: 'Home in a browser', checkType: 'BROWSER', locations: ['us-east-1'], frequency: 10, groupId: null,
        script: "const { login } = require('./helpers/login.js')\nawait login(page)", scriptPath: 'home.spec.js', dependencies: [1],
      },
    };
    const sharedFiles = [{ path: 'unused.js', content: '' }, { path: 'helpers/login.js', content: 'exports.login = async () => {}' }];
    const res = await deploy(s.a, { ...bundle([browser], 'browser-files'), sharedFiles });
    expect(res.status, res.text).toBe(202);
    const check = await s.a.request('GET', `/v1/checks/${physicalIdOf(res.body.result.diff, 'home-browser')}`);
    expect(check.body).toMatchObject({ scriptPath: 'home.spec.js', dependencies: [{ path: 'helpers/login.js', content: 'exports.login = async () => {}' }] });

    const bad = await deploy(s.a, { ...bundle([{ ...browser, payload: { ...browser.payload, dependencies: [7] } }], 'browser-files'), sharedFiles });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.validation.keys).toContain('resources.home-browser.payload.dependencies.0');
    expect((await s.a.request('DELETE', '/v1/projects/browser-files')).status).toBe(202);
  });

  describe('bad input: a clear 400 naming the resource, nothing applied', () => {
    let theirGroup: number;
    let theirLocation: string;
    beforeAll(async () => {
      theirGroup = (await s.b.request('POST', '/v1/check-groups', { name: 'Theirs', locations: ['eu-west-1'] })).body.id;
      theirLocation = (await s.b.request('POST', '/v1/private-locations', { name: 'Their basement', slugName: `their-${randomUUID().slice(0, 8)}` })).body.id;
    });

    it.each([
      ['a reference to a logical id not in the project', () => [apiCheck()], 'resources.home.payload.groupId'],
      ['a reference cycle', () => [
        { ...group(), payload: { ...group().payload, setupSnippetId: { ref: 'home' } } }, apiCheck(),
      ], 'resources.shop'],
      ['an unknown resource type', () => [tcpCheck(), { logicalId: 'w', type: 'widget', payload: {} }], 'resources.w.type'],
      ['a private location the private location routes refuse', () => [{ logicalId: 'loc', type: 'private-location', payload: { name: 'Basement', slugName: 'Not A Slug' } }],
        'resources.loc.payload.slugName'],
      ['a private location of another account lent by id', () => [
        { logicalId: 'theirs-loc', type: 'private-location', member: false, physicalId: theirLocation, payload: null },
        tcpCheck(), assignment('db', 'theirs-loc'),
      ], 'resources.theirs-loc.physicalId'],
      ['a private location lent by something that is not an id', () => [
        { logicalId: 'odd-loc', type: 'private-location', member: false, physicalId: 'basement', payload: null },
      ], 'resources.odd-loc.physicalId'],
      ['an assignment whose private location is not one', () => [tcpCheck(), channel(), { ...assignment('db', 'mail'), logicalId: 'odd' }], 'resources.odd.payload'],
      ['an assignment of a check the project does not own', () => [location(), { ...assignment('nobody', 'basement'), logicalId: 'odd' }], 'resources.odd.payload.checkId'],
      ['an unknown checkType', () => [{ ...tcpCheck(), payload: { ...tcpCheck().payload, checkType: 'SMOKE' } }], 'resources.db.payload.checkType'],
      ['a check the check routes refuse', () => [channel(), { ...tcpCheck(), payload: { ...tcpCheck().payload, frequency: 7 } }], 'resources.db.payload.frequency'],
      ['a group of another account named by physical id', () => [channel(), { ...tcpCheck(), payload: { ...tcpCheck().payload, groupId: theirGroup } }], 'resources.db.payload.groupId'],
      ['a group of another account lent as a resource outside the project', () => [
        { logicalId: 'theirs', type: 'check-group', member: false, physicalId: theirGroup, payload: null },
        { ...tcpCheck(), payload: { ...tcpCheck().payload, groupId: { ref: 'theirs' } } },
      ], 'resources.theirs.physicalId'],
      ['a subscription of a check the project does not own', () => [channel(), { ...subscription(), payload: { ...subscription().payload, checkId: { ref: 'mail' } } }],
        'resources.check-alert-channel-subscription#home#mail.payload'],
    ])('%s (deploy --preview refuses it the same way)', async (_name, resources, key) => {
      const before = await inventory(s.a);
      const preview = await s.a.request('POST', '/v1/projects/deploy?dryRun=true', bundle(resources(), 'bad-input'));
      expect(preview.status, preview.text).toBe(400);
      expect(preview.body.validation.keys).toContain(key);
      expect(await inventory(s.a)).toEqual(before);
      const res = await deploy(s.a, bundle(resources(), 'bad-input'));
      expect(res.status, res.text).toBe(400);
      expect(res.body.validation.keys).toContain(key);
      expect(await inventory(s.a)).toEqual(before);
    });

    it.each([
      ['a body without project', { resources: [] }],
      ['a resource without type', bundle([{ logicalId: 'x', payload: {} }])],
      ['an empty project logical id', { project: { logicalId: '', name: 'X' }, resources: [] }],
    ])('refuses %s', async (_name, body) => {
      expect((await deploy(s.a, body)).status).toBe(400);
    });
  });
});
