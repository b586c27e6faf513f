import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlData } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const UPDATE = `mutation($input: AccountSettingsInput!) { r: updateAccountSettings(input: $input) {
  account { accountId name runtimeId } userErrors { field code message } } }`;

describe('GraphQL updateAccountSettings', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer(); });
  afterAll(async () => s?.close());

  it("changes the caller's account name through REST, leaving the other fields and accounts as they were", async () => {
    const before = (await s.a.request('GET', '/v1/accounts/me')).body;
    const other = (await s.b.request('GET', '/v1/accounts/me')).body;
    const r = (await gqlData(s.a, UPDATE, { input: { name: 'Renamed over GraphQL' } })).r;
    expect(r).toEqual({ account: { accountId: s.a.accountId, name: 'Renamed over GraphQL', runtimeId: before.runtimeId }, userErrors: [] });
    expect((await s.a.request('GET', '/v1/accounts/me')).body.name).toBe('Renamed over GraphQL');
    expect((await s.b.request('GET', '/v1/accounts/me')).body.name).toBe(other.name);
  });

  it('answers an unknown runtime as a userError naming runtimeId, writing nothing', async () => {
    const before = (await s.a.request('GET', '/v1/accounts/me')).body;
    const r = (await gqlData(s.a, UPDATE, { input: { name: 'Never written', runtimeId: 'no-such-runtime' } })).r;
    expect(r.account).toBeNull();
    expect(r.userErrors).toEqual([{ field: 'runtimeId', code: 'BAD_USER_INPUT', message: expect.any(String) }]);
    expect((await s.a.request('GET', '/v1/accounts/me')).body).toMatchObject({ name: before.name, runtimeId: before.runtimeId });
  });
});
