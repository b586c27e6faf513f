import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../../src/graphql/global-id.js';
import { gql, gqlData } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const RUN = `mutation($id: ID!) { r: runGroup(id: $id) {
  group { groupId name } checks { checkId check { name } sequenceId results { hasFailures } error { code message } } userErrors { field code message } } }`;

describe('GraphQL runGroup', () => {
  let s: TestServer;
  let target: Server;
  let url: string;

  beforeAll(async () => {
    target = createServer((_req, res) => res.writeHead(200).end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
    target?.close();
  });

  it('runs the activated checks of the group and answers their FINAL results, leaving no trigger token behind', async () => {
    const group = (await s.a.request('POST', '/v1/check-groups', { name: 'Run me', locations: ['eu-west-1'] })).body;
    const check = (await s.a.request('POST', '/v1/checks/api', {
      name: 'Member', groupId: group.id, locations: ['eu-west-1'],
      request: { url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    })).body;
    const r = (await gqlData(s.a, RUN, { id: toGlobalId('CheckGroup', group.id) })).r;
    expect(r.userErrors).toEqual([]);
    expect(r.group).toEqual({ groupId: group.id, name: 'Run me' });
    expect(r.checks).toEqual([{ checkId: check.id, check: { name: 'Member' }, sequenceId: expect.any(String), results: [{ hasFailures: false }], error: null }]);
    expect((await s.a.request('GET', `/v1/triggers/check-groups/${group.id}`)).status).toBe(404);
  });

  it("answers another account's group or an id that names no group as NOT_FOUND", async () => {
    const theirs = (await s.b.request('POST', '/v1/check-groups', { name: 'Theirs' })).body;
    for (const id of [String(theirs.id), 'nothing']) {
      expect((await gql(s.a, RUN, { id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    expect((await s.b.request('GET', `/v1/triggers/check-groups/${theirs.id}`)).status).toBe(404);
  });
});
