import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../support/test-server.js';

const MINUTE = 60_000;
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

function expectBadRequest(res: TestResponse, key: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.validation.keys).toContain(key);
}

describe.each(BACKENDS)('batch filters of results, statuses and error groups on $name', (backend) => {
  let s: TestServer;
  let a: TestClient;
  let b: TestClient;
  let rec: ReturnType<typeof testRecorder>;
  /** Three checks of account a: `quiet` never ran; `busy` has 4 results (the 2nd newest failing); `broken` 2 failing ones. */
  let busy: Record<string, any>;
  let broken: Record<string, any>;
  let quiet: Record<string, any>;
  let theirs: Record<string, any>;
  const busyResults: Record<string, any>[] = [];

  const createCheck = async (client: TestClient, name: string) => {
    const res = await client.request('POST', '/v1/checks/api', { name, locations: ['eu-west-1'], request: { url: 'https://shop.test/' } });
    expect(res.status, res.text).toBe(201);
    return res.body as Record<string, any>;
  };

  beforeAll(async () => {
    s = await startTestServer({ backend, config: { rateLimitMax: 600_000 } });
    ({ a, b } = s);
    rec = testRecorder(s.lookout.store);
    [busy, broken, quiet, theirs] = await Promise.all([createCheck(a, 'busy'), createCheck(a, 'broken'), createCheck(a, 'quiet'), createCheck(b, 'theirs')]);
    const start = Date.now() - 60 * MINUTE;
    for (let i = 0; i < 4; i++) {
      const failing = i === 2;
      busyResults.push(await rec.record({
        check: runnable(a, busy),
        probe: probe({ at: new Date(start + i * MINUTE), hasFailures: failing, hasErrors: failing, errors: failing ? [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.1:443' }] : [] }),
      }));
    }
    for (const [i, message] of ['timeout after 30000 ms', 'TLS handshake failed'].entries()) {
      await rec.record({
        check: runnable(a, broken),
        probe: probe({ at: new Date(start + i * MINUTE), hasFailures: true, hasErrors: true, errors: [{ code: 'ERR', message }] }),
      });
    }
    await rec.record({ check: runnable(b, theirs), probe: probe() });
  });
  afterAll(async () => s?.close());

  describe('GET /v2/check-results?checkIds=…&perCheck=n', () => {
    it('answers the newest perCheck results of each check, in the order of checkIds, newest first within a check', async () => {
      const res = await a.request('GET', `/v2/check-results?checkIds=${quiet.id},${busy.id},${broken.id}&perCheck=2`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.length).toBe(4);
      expect(res.body.entries.map((e: any) => [e.checkId, e.startedAt])).toEqual([
        [busy.id, busyResults[3]!.startedAt], [busy.id, busyResults[2]!.startedAt],
        [broken.id, expect.any(String)], [broken.id, expect.any(String)],
      ]);
      // Entries are the same documents the per-check list answers.
      const single = await a.request('GET', `/v2/check-results/${busy.id}?limit=2`);
      expect(res.body.entries.slice(0, 2)).toEqual(single.body.entries);
    });

    it('defaults perCheck to 5 and accepts repeated checkIds', async () => {
      const res = await a.request('GET', `/v2/check-results?checkIds=${busy.id}&checkIds=${broken.id}`);
      expect(res.body.entries.filter((e: any) => e.checkId === busy.id)).toHaveLength(4);
      expect(res.body.entries.filter((e: any) => e.checkId === broken.id)).toHaveLength(2);
    });

    it('applies the filters of the per-check list and keeps only the fields asked for', async () => {
      const res = await a.request('GET', `/v2/check-results?checkIds=${busy.id},${broken.id}&perCheck=5&hasFailures=true&fields=id,checkId,hasFailures`);
      expect(res.body.entries).toEqual([
        { id: busyResults[2]!.id, checkId: busy.id, hasFailures: true },
        { id: expect.any(String), checkId: broken.id, hasFailures: true },
        { id: expect.any(String), checkId: broken.id, hasFailures: true },
      ]);
    });

    it("leaves out unknown checks and another account's checks, answering as if they had no results", async () => {
      const res = await a.request('GET', `/v2/check-results?checkIds=${UNKNOWN_UUID},${theirs.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ length: 0, entries: [] });
    });

    it.each([
      ['no checkIds', '', 'checkIds'],
      ['a checkId that is not a UUID', '?checkIds=nope', 'checkIds.0'],
      ['perCheck above 10', `?checkIds=${UNKNOWN_UUID}&perCheck=11`, 'perCheck'],
      ['perCheck of 0', `?checkIds=${UNKNOWN_UUID}&perCheck=0`, 'perCheck'],
      ['more than 100 checkIds', `?checkIds=${Array.from({ length: 101 }, () => UNKNOWN_UUID).join(',')}`, 'checkIds'],
      ['from after to', `?checkIds=${UNKNOWN_UUID}&from=200&to=100`, 'from'],
    ])('refuses %s with 400 naming the key', async (_name, query, key) => {
      expectBadRequest(await a.request('GET', `/v2/check-results${query}`), key);
    });

    it('is documented in /openapi.json with its query parameters', async () => {
      const doc = (await s.raw('GET', '/openapi.json')).body;
      const names = doc.paths['/v2/check-results'].get.parameters.map((p: { name: string }) => p.name);
      expect(names).toEqual(expect.arrayContaining(['checkIds', 'perCheck', 'fields', 'hasFailures', 'resultType']));
    });
  });

  describe('GET /v1/check-statuses?checkIds=…', () => {
    it('keeps the statuses of the named checks only (checks that never ran have none)', async () => {
      const res = await a.request('GET', `/v1/check-statuses?checkIds=${broken.id},${quiet.id},${theirs.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.map((st: any) => st.checkId)).toEqual([broken.id]);
      expect(res.body[0]).toEqual((await a.request('GET', `/v1/check-statuses/${broken.id}`)).body);
    });

    it('answers every status without the filter', async () => {
      const res = await a.request('GET', '/v1/check-statuses');
      expect(res.body.map((st: any) => st.checkId).sort()).toEqual([busy.id, broken.id].sort());
    });

    it.each([
      ['a checkId that is not a UUID', '?checkIds=nope', 'checkIds.0'],
      ['more than 100 checkIds', `?checkIds=${Array.from({ length: 101 }, () => UNKNOWN_UUID).join(',')}`, 'checkIds'],
    ])('refuses %s with 400', async (_name, query, key) => {
      expectBadRequest(await a.request('GET', `/v1/check-statuses${query}`), key);
    });
  });

  describe('GET /v1/error-groups with ids, checkIds, archived and perCheck', () => {
    it('answers the most recently seen perCheck groups of each named check, most recently seen first overall', async () => {
      const res = await a.request('GET', `/v1/error-groups?checkIds=${busy.id},${broken.id},${theirs.id}&perCheck=1&limit=100`);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-range')).toBe('0-1/2');
      expect(res.body.map((g: any) => [g.checkId, g.cleanedErrorMessage])).toEqual([
        [busy.id, expect.stringContaining('ECONNREFUSED')],
        [broken.id, expect.stringContaining('TLS handshake failed')],
      ]);
    });

    it('reads groups by id and tells archived from open ones', async () => {
      const all = (await a.request('GET', `/v1/error-groups?checkIds=${broken.id}`)).body as any[];
      expect(all).toHaveLength(2);
      const archived = all[0]!;
      expect((await a.request('PATCH', `/v1/error-groups/${archived.id}`, { archiveForEver: true })).status).toBe(200);
      const byId = await a.request('GET', `/v1/error-groups?ids=${all.map((g) => g.id).join(',')}`);
      expect(byId.body.map((g: any) => g.id).sort()).toEqual(all.map((g) => g.id).sort());
      const open = await a.request('GET', `/v1/error-groups?checkIds=${broken.id}&archived=false`);
      expect(open.body.map((g: any) => g.id)).toEqual([all[1]!.id]);
      const closed = await a.request('GET', `/v1/error-groups/checks/${broken.id}?archived=true`);
      expect(closed.body.map((g: any) => g.id)).toEqual([archived.id]);
      expect(closed.headers.get('content-range')).toBe('0-0/1');
      expect((await a.request('PATCH', `/v1/error-groups/${archived.id}`, { archivedUntilNextEvent: false })).status).toBe(200);
    });

    it("never shows another account's groups, by id or by check", async () => {
      const mine = (await a.request('GET', `/v1/error-groups?checkIds=${busy.id}`)).body as any[];
      expect((await b.request('GET', `/v1/error-groups?ids=${mine[0].id}`)).body).toEqual([]);
      expect((await b.request('GET', `/v1/error-groups?checkIds=${busy.id}`)).body).toEqual([]);
    });

    it.each([
      ['perCheck without checkIds', '?perCheck=2', 'perCheck'],
      ['a checkId that is not a UUID', '?checkIds=nope', 'checkIds.0'],
      ['an id that is not a UUID', '?ids=nope', 'ids.0'],
      ['archived that is not a boolean', '?archived=maybe', 'archived'],
      ['perCheck above 100', `?checkIds=${UNKNOWN_UUID}&perCheck=101`, 'perCheck'],
    ])('refuses %s with 400', async (_name, query, key) => {
      expectBadRequest(await a.request('GET', `/v1/error-groups${query}`), key);
    });
  });
});
