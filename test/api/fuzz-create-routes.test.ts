import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fuzzParameters } from '../support/fuzz-parameters.js';

const ROUTES = [
  '/v1/checks', '/v1/checks/api', '/v1/checks/browser', '/v1/checks/multistep', '/v1/checks/heartbeat',
  '/v1/checks/tcp', '/v1/checks/url', '/v1/checks/dns', '/v1/checks/icmp', '/v2/check-groups',
];

/** Random bodies: arbitrary JSON, and objects shaped like checks with random values in the known keys. */
const checkLike = fc.record(
  {
    name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    checkType: fc.oneof(fc.constantFrom('API', 'TCP', 'DNS', 'URL', 'BROWSER', 'HEARTBEAT', 'ICMP', 'MULTI_STEP'), fc.string()),
    frequency: fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.string()),
    frequencyOffset: fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.constant(null)),
    locations: fc.oneof(fc.array(fc.constantFrom('us-east-1', 'eu-west-1', 'nowhere')), fc.jsonValue()),
    request: fc.oneof(
      fc.record({ url: fc.oneof(fc.webUrl(), fc.string()), method: fc.constantFrom('GET', 'POST', 'X'), hostname: fc.string(), port: fc.integer({ min: -1, max: 70000 }), query: fc.string() }, { requiredKeys: [] }),
      fc.jsonValue(),
    ),
    script: fc.oneof(fc.string(), fc.constant(null)),
    heartbeat: fc.record({ period: fc.integer({ min: -1, max: 100000 }), periodUnit: fc.constantFrom('seconds', 'hours', 'weeks'), grace: fc.integer({ min: -1, max: 10 }), graceUnit: fc.constantFrom('minutes', 'x') }, { requiredKeys: [] }),
    retryStrategy: fc.oneof(fc.constant('FALLBACK'), fc.constant(null), fc.record({ type: fc.constantFrom('FIXED', 'LINEAR', 'X'), maxRetries: fc.integer({ min: -1, max: 20 }) }, { requiredKeys: [] })),
    groupId: fc.oneof(fc.integer({ min: -1, max: 2 ** 40 }), fc.constant(null)),
    tags: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

describe('create routes under random input', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { rateLimitMax: 0 } });
  });
  afterAll(async () => s?.close());

  const count = async (table: string) =>
    (await s.lookout.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

  it('never answers 5xx and writes nothing unless it answers 201', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.oneof(fc.jsonValue(), checkLike), async (route, body) => {
        const table = route.includes('group') ? 'check_groups' : 'checks';
        const before = await count(table);
        const res = await s.a.request('POST', route, JSON.stringify(body));
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(res.body).toMatchObject({ statusCode: res.status, error: expect.any(String), message: expect.any(String) });
        else expect(res.body).toHaveProperty('id');
        if (res.status === 400) expect(Array.isArray(res.body.validation.keys)).toBe(true);
        expect(await count(table)).toBe(res.status === 201 ? before + 1 : before);
      }),
      // Random locally (to keep finding new cases); fixed in CI so a landing is reproducible. FUZZ_SEED overrides.
      fuzzParameters(300, 20261122),
    );
  });
});
