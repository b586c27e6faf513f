import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { gql } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ENTRY = '{ id at actor { kind id label } via ip action resourceType resourceId fields }';

describe.each(BACKENDS)('GraphQL audit log on $name', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  it('records GraphQL writes as via graphql and lists them with filters and cursors', async () => {
    for (const key of ['GQL_AUDIT_A', 'GQL_AUDIT_B', 'GQL_AUDIT_C']) {
      const created = await gql(s.a, `mutation { r: createEnvironmentVariable(input: {key: "${key}", value: "v"}) { userErrors { field } } }`);
      expect(created.data.r.userErrors).toEqual([]);
    }
    const updated = await gql(s.a, 'mutation { r: updateEnvironmentVariable(key: "GQL_AUDIT_A", input: {value: "w"}) { userErrors { field } } }');
    expect(updated.data.r.userErrors).toEqual([]);

    const all = await gql(s.a, `{ auditLog(first: 10, filter: {resourceType: "variable"}) { nodes ${ENTRY} pageInfo { hasNextPage endCursor } } }`);
    expect(all.errors).toBeUndefined();
    expect(all.data.auditLog.nodes.map((e: any) => [e.action, e.resourceId, e.via, e.fields])).toEqual([
      ['update', 'GQL_AUDIT_A', 'graphql', ['value']],
      ['create', 'GQL_AUDIT_C', 'graphql', ['key', 'locked', 'secret', 'value']],
      ['create', 'GQL_AUDIT_B', 'graphql', ['key', 'locked', 'secret', 'value']],
      ['create', 'GQL_AUDIT_A', 'graphql', ['key', 'locked', 'secret', 'value']],
    ]);

    const first = await gql(s.a, `{ auditLog(first: 2, filter: {action: "create"}) { nodes { resourceId } pageInfo { hasNextPage endCursor } } }`);
    expect(first.data.auditLog.nodes).toEqual([{ resourceId: 'GQL_AUDIT_C' }, { resourceId: 'GQL_AUDIT_B' }]);
    expect(first.data.auditLog.pageInfo.hasNextPage).toBe(true);
    const next = await gql(s.a, `query($after: String) { auditLog(first: 2, after: $after, filter: {action: "create"}) { nodes { resourceId } } }`,
      { after: first.data.auditLog.pageInfo.endCursor });
    expect(next.data.auditLog.nodes[0]).toEqual({ resourceId: 'GQL_AUDIT_A' });
  });

  it('answers a bad filter with an error naming it', async () => {
    const res = await gql(s.a, '{ auditLog(filter: {action: "rename"}) { nodes { id } } }');
    expect(res.errors?.[0]?.message).toMatch(/action/);
  });
});
