import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/** Resources as `checkly deploy` synthesizes them (the shapes of test/api/projects-deploy.test.ts). */
const channel = () => ({ logicalId: 'mail', type: 'alert-channel', member: true, payload: { type: 'EMAIL', config: { address: 'oncall@example.test' } } });
const group = () => ({
  logicalId: 'shop', type: 'check-group', member: true,
  payload: { name: 'Shop', locations: ['eu-west-1'], apiCheckDefaults: { headers: [], queryParameters: [], url: '', basicAuth: { username: '', password: '' } }, environmentVariables: [], v: 2 },
});
const apiCheck = (logicalId: string, name: string) => ({
  logicalId, type: 'check', member: true,
  payload: {
    name, locations: ['us-east-1'], frequency: 10, groupId: { ref: 'shop' }, useGlobalAlertSettings: true, runParallel: false,
    environmentVariables: [], checkType: 'API', request: { url: 'https://shop.example.test/', method: 'GET' },
  },
});
const subscription = () => ({
  logicalId: 'check-alert-channel-subscription#home#mail', type: 'alert-channel-subscription', member: true,
  payload: { alertChannelId: { ref: 'mail' }, checkId: { ref: 'home' }, activated: true },
});
const bundle = (logicalId: string, name: string, resources: unknown[]) => ({ project: { logicalId, name, repoUrl: `https://git.example.test/${logicalId}` }, sharedFiles: [], resources });

type Diff = { type: string; logicalId: string; physicalId: string | null }[];

async function deploy(client: TestClient, body: unknown): Promise<Diff> {
  const res = await client.request('POST', '/v1/projects/deploy?dryRun=false', body);
  expect(res.status, res.text).toBe(202);
  return res.body.result.diff;
}

const physicalIdOf = (diff: Diff, logicalId: string) => diff.find((d) => d.logicalId === logicalId)!.physicalId!;

describe.each(BACKENDS)('projects in the graph over REST: lists, resources and who owns a resource ($name)', (backend) => {
  let s: TestServer;
  let shop: Diff;
  let blog: Diff;
  let loose: string;

  beforeAll(async () => {
    s = await startTestServer({ backend });
    shop = await deploy(s.a, bundle('shop-project', 'Shop', [channel(), group(), apiCheck('home', 'Homepage'), apiCheck('cart', 'Cart'), subscription()]));
    blog = await deploy(s.a, bundle('blog-project', 'Blog', [{ ...apiCheck('posts', 'Posts'), payload: { ...apiCheck('posts', 'Posts').payload, groupId: null } }]));
    loose = (await s.a.request('POST', '/v1/checks/api', { name: 'By hand', request: { method: 'GET', url: 'https://hand.example.test' } })).body.id;
    await deploy(s.b, bundle('other-project', 'Other', [{ ...apiCheck('home', 'Theirs'), payload: { ...apiCheck('home', 'Theirs').payload, groupId: null } }]));
  });
  afterAll(async () => s?.close());

  it('lists the projects of the account oldest first, a page at a time, with the total in Content-Range', async () => {
    const first = await s.a.request('GET', '/v1/projects?limit=1');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-range')).toBe('0-0/2');
    expect(first.body).toEqual([expect.objectContaining({ logicalId: 'shop-project', name: 'Shop', repoUrl: 'https://git.example.test/shop-project' })]);
    const second = await s.a.request('GET', '/v1/projects?page=2&limit=1');
    expect(second.body.map((p: { logicalId: string }) => p.logicalId)).toEqual(['blog-project']);
    const past = await s.a.request('GET', '/v1/projects?page=3&limit=1');
    expect(past.body).toEqual([]);
    expect(past.headers.get('content-range')).toBe('*/2');
  });

  it('reads one project by its logical id, with every field of the project', async () => {
    const res = await s.a.request('GET', '/v1/projects/shop-project');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number), logicalId: 'shop-project', name: 'Shop', repoUrl: 'https://git.example.test/shop-project',
      created_at: expect.any(String), updated_at: expect.toBeOneOf([null, expect.any(String)]),
    });
  });

  it('lists the resources a project owns by type then logical id, subscriptions without a physical id', async () => {
    const res = await s.a.request('GET', '/v1/projects/shop-project/resources');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { type: 'alert-channel', logicalId: 'mail', physicalId: physicalIdOf(shop, 'mail') },
      { type: 'alert-channel-subscription', logicalId: 'check-alert-channel-subscription#home#mail', physicalId: null },
      { type: 'check', logicalId: 'cart', physicalId: physicalIdOf(shop, 'cart') },
      { type: 'check', logicalId: 'home', physicalId: physicalIdOf(shop, 'home') },
      { type: 'check-group', logicalId: 'shop', physicalId: physicalIdOf(shop, 'shop') },
    ]);
    const checks = await s.a.request('GET', '/v1/projects/shop-project/resources?type=check');
    expect(checks.body.map((r: { logicalId: string }) => r.logicalId)).toEqual(['cart', 'home']);
  });

  it('tells which project owns each resource asked for, in the order asked, leaving out resources no project owns', async () => {
    const ids = [physicalIdOf(blog, 'posts'), loose, physicalIdOf(shop, 'home').toUpperCase(), physicalIdOf(shop, 'home')];
    const res = await s.a.request('GET', `/v1/project-resources?type=check&${ids.map((id) => `physicalId=${id}`).join('&')}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { type: 'check', physicalId: physicalIdOf(blog, 'posts'), logicalId: 'posts', project: expect.objectContaining({ logicalId: 'blog-project', name: 'Blog' }) },
      { type: 'check', physicalId: physicalIdOf(shop, 'home'), logicalId: 'home', project: expect.objectContaining({ logicalId: 'shop-project', name: 'Shop' }) },
    ]);
  });

  it('takes the physical ids comma-separated too, and looks them up within the type asked for', async () => {
    const res = await s.a.request('GET', `/v1/project-resources?type=check-group&physicalId=${physicalIdOf(shop, 'shop')},${physicalIdOf(shop, 'mail')}`);
    expect(res.body).toEqual([{ type: 'check-group', physicalId: physicalIdOf(shop, 'shop'), logicalId: 'shop', project: expect.objectContaining({ logicalId: 'shop-project' }) }]);
  });

  describe('another account sees none of it', () => {
    it('lists only its own projects', async () => {
      const res = await s.b.request('GET', '/v1/projects');
      expect(res.body.map((p: { logicalId: string }) => p.logicalId)).toEqual(['other-project']);
    });

    it.each([
      ['the project', '/v1/projects/shop-project'],
      ['its resources', '/v1/projects/shop-project/resources'],
    ])('answers 404 for %s of the first account, as for an unknown one', async (_what, path) => {
      expect((await s.b.request('GET', path)).status).toBe(404);
      expect((await s.a.request('GET', path.replace('shop-project', 'no-such-project'))).status).toBe(404);
    });

    it('finds no owner for resources of the first account', async () => {
      const res = await s.b.request('GET', `/v1/project-resources?type=check&physicalId=${physicalIdOf(shop, 'home')}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });
  });

  it.each<[string, string, string]>([
    ['an unknown type', '/v1/project-resources?type=widget&physicalId=1', 'type'],
    ['no type', '/v1/project-resources?physicalId=1', 'type'],
    ['no physical id', '/v1/project-resources?type=check', 'physicalId'],
    ['101 physical ids', `/v1/project-resources?type=check&physicalId=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, 'physicalId'],
    ['a physical id longer than 64 characters', `/v1/project-resources?type=check&physicalId=${'x'.repeat(65)}`, 'physicalId.0'],
    ['an unknown type filter on the resources', '/v1/projects/shop-project/resources?type=widget', 'type'],
    ['a limit over 100', '/v1/projects?limit=101', 'limit'],
    ['a page of 0', '/v1/projects?page=0', 'page'],
  ])('refuses %s with a 400 naming the key', async (_name, path, key) => {
    const res = await s.a.request('GET', path);
    expect(res.status, res.text).toBe(400);
    expect(res.body.validation.keys).toContain(key);
  });
});
