import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/** The ids in an order that is neither creation nor id order: last, first, then the rest reversed. */
function scrambled<T>(ids: T[]): T[] {
  const [first, ...rest] = ids;
  const last = rest.pop();
  return [last!, first!, ...rest.reverse()];
}

describe.each(BACKENDS)('batch filters answer in the order the ids were asked on $name', (backend) => {
  let s: TestServer;
  let a: TestClient;
  const checks: Record<string, any>[] = [];

  const create = async (path: string, body: unknown) => {
    const res = await a.request('POST', path, body);
    expect(res.status, res.text).toBe(201);
    return res.body as Record<string, any>;
  };
  const idsOf = async (path: string, key = 'id') => {
    const res = await a.request('GET', path);
    expect(res.status, res.text).toBe(200);
    return (res.body as Record<string, unknown>[]).map((entry) => entry[key]);
  };

  beforeAll(async () => {
    s = await startTestServer({ backend, config: { rateLimitMax: 600_000 } });
    a = s.a;
    for (let i = 0; i < 5; i++) {
      checks.push(await create('/v1/checks/api', { name: `check ${i}`, locations: ['eu-west-1'], request: { url: `https://shop.test/${i}` } }));
    }
  });
  afterAll(async () => s?.close());

  it('GET /v1/checks?ids= answers the checks in the order of ids, across pages too', async () => {
    const asked = scrambled(checks.map((c) => c.id));
    expect(await idsOf(`/v1/checks?ids=${asked.join(',')}`)).toEqual(asked);
    expect(await idsOf(`/v1/checks?ids=${asked.join(',')}&limit=2&page=2`)).toEqual(asked.slice(2, 4));
  });

  it('GET /v1/check-groups?ids= and its v2 twin answer the groups in the order of ids', async () => {
    const groups = [];
    for (let i = 0; i < 4; i++) groups.push(await create('/v1/check-groups', { name: `group ${i}` }));
    const asked = scrambled(groups.map((g) => g.id));
    expect(await idsOf(`/v1/check-groups?ids=${asked.join(',')}`)).toEqual(asked);
    expect(await idsOf(`/v2/check-groups?ids=${asked.join(',')}`)).toEqual(asked);
  });

  it('GET /v1/alert-channels?ids= answers the channels in the order of ids', async () => {
    const channels = [];
    for (let i = 0; i < 4; i++) channels.push(await create('/v1/alert-channels', { type: 'EMAIL', config: { address: `ops${i}@shop.test` } }));
    const asked = scrambled(channels.map((c) => c.id));
    expect(await idsOf(`/v1/alert-channels?ids=${asked.join(',')}`)).toEqual(asked);
  });

  it('GET /v1/snippets?ids= answers the snippets in the order of ids', async () => {
    const snippets = [];
    for (let i = 0; i < 4; i++) snippets.push(await create('/v1/snippets', { name: `snippet ${i}`, script: `// ${i}` }));
    const asked = scrambled(snippets.map((sn) => sn.id));
    expect(await idsOf(`/v1/snippets?ids=${asked.join(',')}`)).toEqual(asked);
  });

  it('GET /v1/check-statuses?checkIds= and GET /v1/error-groups?ids= answer in the order of the ids', async () => {
    const rec = testRecorder(s.lookout.store);
    for (const [i, check] of checks.entries()) {
      await rec.record({
        check: runnable(a, check),
        probe: probe({ hasFailures: true, hasErrors: true, errors: [{ code: 'ERR', message: `failure number ${i} of its own kind` }] }),
      });
    }
    const askedChecks = scrambled(checks.map((c) => c.id));
    expect(await idsOf(`/v1/check-statuses?checkIds=${askedChecks.join(',')}`, 'checkId')).toEqual(askedChecks);

    const groupIds = (await idsOf('/v1/error-groups?limit=100')) as string[];
    expect(groupIds).toHaveLength(checks.length);
    const askedGroups = scrambled(groupIds);
    expect(await idsOf(`/v1/error-groups?ids=${askedGroups.join(',')}`)).toEqual(askedGroups);
  });

  it('POST /v1/analytics/checks and GET /v2/check-results?checkIds= answer in the order of checkIds', async () => {
    const asked = scrambled(checks.map((c) => c.id));
    const summary = await a.request('POST', '/v1/analytics/checks', { checkIds: asked });
    expect(summary.status, summary.text).toBe(200);
    expect(summary.body.map((e: any) => e.checkId)).toEqual(asked);
    const latest = await a.request('GET', `/v2/check-results?checkIds=${asked.join(',')}&perCheck=1`);
    expect(latest.status, latest.text).toBe(200);
    expect(latest.body.entries.map((e: any) => e.checkId)).toEqual(asked);
  });
});
