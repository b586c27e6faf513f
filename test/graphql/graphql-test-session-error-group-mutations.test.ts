import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../../src/graphql/global-id.js';
import { gql, gqlData } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const UPDATE = `mutation($id: ID!, $input: TestSessionErrorGroupInput!) { r: updateTestSessionErrorGroup(id: $id, input: $input) {
  testSessionErrorGroup { errorGroupId archivedUntilNextEvent } userErrors { field code message } } }`;

describe('GraphQL updateTestSessionErrorGroup', () => {
  let s: TestServer;
  let target: Server;
  let groupId: string;

  beforeAll(async () => {
    // A target that always fails the check's status assertion, so the session records an error group.
    target = createServer((_req, res) => res.writeHead(500).end('down'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    s = await startTestServer();
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const check = await s.a.request('POST', '/v1/checks/api', {
      name: 'Failing', locations: ['eu-west-1'], tags: ['gql-error-group'],
      request: { url, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    });
    expect(check.status, JSON.stringify(check.body)).toBe(201);
    const session = (await s.a.request('POST', '/v1/test-sessions/trigger', { tags: ['gql-error-group'] })).body;
    expect((await s.a.request('GET', `/v1/test-sessions/${session.id}/completion?maxWaitSeconds=30`)).body.status).toBe('FAILED');
    const groups = (await s.a.request('GET', `/v1/test-sessions/${session.id}/error-groups`)).body;
    expect(groups.length).toBeGreaterThan(0);
    groupId = groups[0].id;
  });
  afterAll(async () => {
    await s?.close();
    target?.close();
  });

  it('archives and unarchives a group by global id or REST id, through REST', async () => {
    const archived = (await gqlData(s.a, UPDATE, { id: toGlobalId('TestSessionErrorGroup', groupId), input: { archivedUntilNextEvent: true } })).r;
    expect(archived).toEqual({ testSessionErrorGroup: { errorGroupId: groupId, archivedUntilNextEvent: true }, userErrors: [] });
    expect((await s.a.request('GET', `/v1/test-session-error-groups/${groupId}`)).body.archivedUntilNextEvent).toBe(true);
    const back = (await gqlData(s.a, UPDATE, { id: groupId, input: { archivedUntilNextEvent: false } })).r;
    expect(back.testSessionErrorGroup.archivedUntilNextEvent).toBe(false);
  });

  it("answers another account's group or an unknown id as NOT_FOUND, changing nothing", async () => {
    for (const [client, id] of [[s.b, groupId], [s.a, crypto.randomUUID()], [s.a, 'nothing']] as const) {
      expect((await gql(client, UPDATE, { id, input: { archivedUntilNextEvent: true } })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    expect((await s.a.request('GET', `/v1/test-session-error-groups/${groupId}`)).body.archivedUntilNextEvent).toBe(false);
  });
});
