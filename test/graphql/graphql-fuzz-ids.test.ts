import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetConnection, offsetWindows } from '../../src/graphql/connection.js';
import { fromGlobalId, isIntegerId, isUuid, toGlobalId } from '../../src/graphql/global-id.js';
import { gql } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fuzzParameters } from '../support/fuzz-parameters.js';

const params = (numRuns: number) => fuzzParameters(numRuns, 20261122);

/** Strings a client could send as ids and cursors: random text, base64url text, and near-misses of real ones. */
const idLike = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.base64String({ maxLength: 60 }).map((s) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')),
  fc.tuple(fc.constantFrom('Check', 'CheckGroup', 'CheckResult', 'ErrorGroup', 'AlertChannel', 'Snippet', 'Account', 'Nope'), fc.string({ maxLength: 50 }))
    .map(([type, rest]) => Buffer.from(`${type}:${rest}`, 'utf8').toString('base64url')),
);

describe('global ids and cursors under random input', () => {
  it('decodes only ids it could have issued, and every issued id back to its parts', () => {
    fc.assert(fc.property(idLike, (id) => {
      const decoded = fromGlobalId(id);
      if (decoded) expect(toGlobalId(decoded.type, decoded.restId)).toBe(id);
    }), params(2000));
    fc.assert(fc.property(fc.stringMatching(/^[A-Za-z]{1,20}$/), fc.string({ minLength: 1, maxLength: 200 }), (type, restId) => {
      const id = toGlobalId(type, restId);
      if (id.length <= 400) expect(fromGlobalId(id)).toEqual({ type, restId });
    }), params(2000));
  });

  it('pages any offset window with one or two REST pages that cover exactly the window', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 100 }), (offset, first) => {
      const { pages, skip } = offsetWindows(offset, first);
      expect(pages.length).toBeLessThanOrEqual(2);
      const start = (pages[0]!.page - 1) * pages[0]!.limit + skip;
      const covered = pages.reduce((n, p) => n + p.limit, 0) - skip;
      expect(start).toBe(offset);
      expect(covered).toBeGreaterThanOrEqual(first);
      for (const p of pages) expect(p.limit).toBeLessThanOrEqual(100);
    }), params(2000));
  });

  it('refuses any cursor it did not issue with BAD_USER_INPUT, never another error', async () => {
    await fc.assert(fc.asyncProperty(idLike, async (after) => {
      const page = await offsetConnection(10, after, async () => ({ items: [], total: 0 })).then(() => null, (err: { extensions?: { code?: string } }) => err);
      if (page) expect(page.extensions?.code).toBe('BAD_USER_INPUT');
    }), params(1000));
  });
});

describe('node(id), check(id) and checkGroup(id) over HTTP under random ids', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { rateLimitMax: 0 } });
  });
  afterAll(async () => s?.close());

  it('answers null or a coded error, never an internal error, and makes no REST call for an id it cannot decode', async () => {
    await fc.assert(fc.asyncProperty(idLike, async (id) => {
      const res = await gql(s.a, 'query($id: ID!) { node(id: $id) { id } check(id: $id) { id } checkGroup(id: $id) { id } }', { id });
      expect(res.status).toBe(200);
      for (const error of res.errors ?? []) expect(error.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
      expect(res.data?.node ?? null).toBeNull();
      expect(res.data?.check ?? null).toBeNull();
      expect(res.data?.checkGroup ?? null).toBeNull();
      if (!fromGlobalId(id) && !isUuid(id) && !isIntegerId(id)) expect(res.extensions?.cost?.restCalls).toBe(0);
    }), params(150));
  });
});
