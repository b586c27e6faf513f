import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { gql } from '../support/graphql.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const total = async (client: TestClient, path: string) => Number((await client.request('GET', `${path}?limit=1`)).headers.get('content-range')?.split('/')[1]);

describe.each(BACKENDS)('GraphQL account configuration on $name', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  describe('environment variables', () => {
    const VAR = '{ environmentVariable { key value locked secret createdAt updatedAt } userErrors { field code message } }';
    const create = (input: Record<string, unknown>, client: TestClient = s.a) =>
      gql(client, `mutation($input: EnvironmentVariableInput!) { r: createEnvironmentVariable(input: $input) ${VAR} }`, { input });

    it('creates, lists, reads, updates and deletes a variable', async () => {
      const created = await create({ key: 'BASE_URL', value: 'https://shop.test', locked: true });
      expect(created.errors).toBeUndefined();
      expect(created.data.r).toEqual({
        environmentVariable: { key: 'BASE_URL', value: 'https://shop.test', locked: true, secret: false, createdAt: expect.any(String), updatedAt: null },
        userErrors: [],
      });
      const read = await gql(s.a, '{ environmentVariable(key: "BASE_URL") { value } environmentVariables(first: 100) { totalCount nodes { key } } }');
      expect(read.data.environmentVariable).toEqual({ value: 'https://shop.test' });
      expect(read.data.environmentVariables.nodes).toContainEqual({ key: 'BASE_URL' });
      expect(read.data.environmentVariables.totalCount).toBe(await total(s.a, '/v1/variables'));

      const updated = await gql(s.a, `mutation { r: updateEnvironmentVariable(key: "BASE_URL", input: {value: "https://shop2.test"}) ${VAR} }`);
      expect(updated.data.r.environmentVariable).toMatchObject({ key: 'BASE_URL', value: 'https://shop2.test', locked: true, updatedAt: expect.any(String) });

      const deleted = await gql(s.a, 'mutation { r: deleteEnvironmentVariable(key: "BASE_URL") { deletedKey userErrors { field } } }');
      expect(deleted.data.r).toEqual({ deletedKey: 'BASE_URL', userErrors: [] });
      expect((await gql(s.a, '{ environmentVariable(key: "BASE_URL") { key } }')).data.environmentVariable).toBeNull();
    });

    it('never reads back the value of a secret variable, from the payload, the list or by key', async () => {
      const created = await s.a.request('POST', '/graphql', {
        query: `mutation { r: createEnvironmentVariable(input: {key: "API_TOKEN", value: "tok-super-secret", secret: true}) ${VAR} }`,
      });
      expect(created.body.data.r.environmentVariable).toMatchObject({ key: 'API_TOKEN', value: null, secret: true });
      const updated = await s.a.request('POST', '/graphql', { query: `mutation { r: updateEnvironmentVariable(key: "API_TOKEN", input: {value: "tok-newer-secret"}) ${VAR} }` });
      const read = await s.a.request('POST', '/graphql', { query: '{ environmentVariable(key: "API_TOKEN") { value } environmentVariables(first: 100) { nodes { key value } } }' });
      for (const res of [created, updated, read]) {
        expect(res.text).not.toContain('tok-super-secret');
        expect(res.text).not.toContain('tok-newer-secret');
      }
      expect(read.body.data.environmentVariable).toEqual({ value: null });
    });

    it.each([
      ['key', 'createEnvironmentVariable', { input: { key: 'not a key', value: 'x' } }],
      ['key', 'createEnvironmentVariable', { input: { key: '', value: 'x' } }],
      ['secret', 'updateEnvironmentVariable', { key: 'STAYS_SECRET', input: { secret: false } }],
    ])('returns a userError on %s for a bad %s and writes nothing', async (field, mutation, variables) => {
      await s.a.request('POST', '/v1/variables', { key: 'STAYS_SECRET', value: 'x', secret: true });
      const before = await total(s.a, '/v1/variables');
      const query = mutation === 'createEnvironmentVariable'
        ? `mutation($input: EnvironmentVariableInput!) { r: createEnvironmentVariable(input: $input) ${VAR} }`
        : `mutation($key: String!, $input: EnvironmentVariableUpdateInput!) { r: updateEnvironmentVariable(key: $key, input: $input) ${VAR} }`;
      const res = await gql(s.a, query, variables);
      expect(res.errors).toBeUndefined();
      expect(res.data.r.environmentVariable).toBeNull();
      expect(res.data.r.userErrors).toContainEqual({ field, code: 'BAD_USER_INPUT', message: expect.any(String) });
      expect(await total(s.a, '/v1/variables')).toBe(before);
      expect((await s.a.request('GET', '/v1/variables/STAYS_SECRET')).body.secret).toBe(true);
    });

    it('answers a key that already exists with CONFLICT', async () => {
      await create({ key: 'TWICE', value: '1' });
      const res = await create({ key: 'TWICE', value: '2' });
      expect(res.errors?.[0]?.extensions?.code).toBe('CONFLICT');
      expect((await s.a.request('GET', '/v1/variables/TWICE')).body.value).toBe('1');
    });

    it("keeps each account's variables to itself: reads are null, writes are NOT_FOUND", async () => {
      await s.b.request('POST', '/v1/variables', { key: 'THEIRS', value: 'b-value' });
      const read = await gql(s.a, '{ environmentVariable(key: "THEIRS") { value } environmentVariables(first: 100) { nodes { key } } }');
      expect(read.data.environmentVariable).toBeNull();
      expect(read.data.environmentVariables.nodes).not.toContainEqual({ key: 'THEIRS' });
      const update = await gql(s.a, 'mutation { r: updateEnvironmentVariable(key: "THEIRS", input: {value: "hijacked"}) { environmentVariable { key } } }');
      expect(update.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const del = await gql(s.a, 'mutation { r: deleteEnvironmentVariable(key: "THEIRS") { deletedKey } }');
      expect(del.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect((await s.b.request('GET', '/v1/variables/THEIRS')).body.value).toBe('b-value');
    });
  });

  describe('snippets', () => {
    const SNIPPET = '{ snippet { id snippetId name script createdAt updatedAt } userErrors { field code message } }';
    const create = (input: Record<string, unknown>, client: TestClient = s.a) =>
      gql(client, `mutation($input: SnippetInput!) { r: createSnippet(input: $input) ${SNIPPET} }`, { input });

    it('creates, reads by global and REST id, lists, updates and deletes a snippet', async () => {
      const created = await create({ name: 'login.js', script: 'await login()' });
      expect(created.errors).toBeUndefined();
      const snippet = created.data.r.snippet;
      expect(snippet).toMatchObject({ name: 'login.js', script: 'await login()', updatedAt: null });
      const read = await gql(s.a, `query($id: ID!) { snippet(id: $id) { name } node(id: $id) { __typename ... on Snippet { snippetId } } byRest: snippet(id: "${snippet.snippetId}") { id } snippets(first: 100) { totalCount nodes { id } } }`, { id: snippet.id });
      expect(read.data).toMatchObject({ snippet: { name: 'login.js' }, node: { __typename: 'Snippet', snippetId: snippet.snippetId }, byRest: { id: snippet.id } });
      expect(read.data.snippets.nodes).toContainEqual({ id: snippet.id });
      expect(read.data.snippets.totalCount).toBe(await total(s.a, '/v1/snippets'));

      const updated = await gql(s.a, `mutation($id: ID!) { r: updateSnippet(id: $id, input: {script: "await login(2)"}) ${SNIPPET} }`, { id: snippet.id });
      expect(updated.data.r.snippet).toMatchObject({ name: 'login.js', script: 'await login(2)', updatedAt: expect.any(String) });

      const deleted = await gql(s.a, 'mutation($id: ID!) { r: deleteSnippet(id: $id) { deletedId userErrors { field } } }', { id: snippet.id });
      expect(deleted.data.r).toEqual({ deletedId: snippet.id, userErrors: [] });
      expect((await gql(s.a, 'query($id: ID!) { snippet(id: $id) { id } node(id: $id) { id } }', { id: snippet.id })).data).toEqual({ snippet: null, node: null });
    });

    it('refuses to delete a snippet a group uses, with CONFLICT', async () => {
      const { data } = await create({ name: 'setup.js', script: '1' });
      await s.a.request('POST', '/v1/check-groups', { name: 'Uses snippet', setupSnippetId: data.r.snippet.snippetId });
      const res = await gql(s.a, 'mutation($id: ID!) { r: deleteSnippet(id: $id) { deletedId } }', { id: data.r.snippet.id });
      expect(res.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    });

    it.each([
      ['name', { script: 'x' }],
      ['script', { name: 'no-script.js' }],
      ['name', { name: '', script: 'x' }],
    ])('createSnippet without a valid %s returns a userError naming it and writes nothing', async (field, input) => {
      const before = await total(s.a, '/v1/snippets');
      const res = await create(input);
      expect(res.data.r.snippet).toBeNull();
      expect(res.data.r.userErrors).toContainEqual({ field, code: 'BAD_USER_INPUT', message: expect.any(String) });
      expect(await total(s.a, '/v1/snippets')).toBe(before);
    });

    it("reads another account's snippet as null and answers writes to it with NOT_FOUND", async () => {
      const { data } = await create({ name: 'theirs.js', script: 'b' }, s.b);
      const id = data.r.snippet.id;
      const read = await gql(s.a, 'query($id: ID!) { snippet(id: $id) { id } node(id: $id) { id } }', { id });
      expect(read.data).toEqual({ snippet: null, node: null });
      for (const mutation of [
        'mutation($id: ID!) { r: updateSnippet(id: $id, input: {script: "a"}) { snippet { id } } }',
        'mutation($id: ID!) { r: deleteSnippet(id: $id) { deletedId } }',
      ]) expect((await gql(s.a, mutation, { id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect((await s.b.request('GET', `/v1/snippets/${data.r.snippet.snippetId}`)).body.script).toBe('b');
    });
  });

  describe('private locations', () => {
    const LOCATION = 'id privateLocationId name slugName icon proxyUrl agentCount lastSeen keys { keyId maskedKey createdAt }';
    const create = (input: Record<string, unknown>, client: TestClient = s.a) =>
      client.request('POST', '/graphql', {
        query: `mutation($input: PrivateLocationInput!) { r: createPrivateLocation(input: $input) { privateLocation { ${LOCATION} } key { keyId rawKey maskedKey createdAt } userErrors { field code message } } }`,
        variables: { input },
      });

    it('creates a location whose first raw key appears in the create payload only', async () => {
      const res = await create({ name: 'Office', slugName: 'office', icon: 'building' });
      expect(res.body.errors).toBeUndefined();
      const { privateLocation, key, userErrors } = res.body.data.r;
      expect(userErrors).toEqual([]);
      expect(privateLocation).toMatchObject({ name: 'Office', slugName: 'office', icon: 'building', proxyUrl: null, agentCount: 0, lastSeen: null });
      expect(key.rawKey).toMatch(/^pl_/);
      expect(privateLocation.keys).toEqual([{ keyId: key.keyId, maskedKey: key.maskedKey, createdAt: key.createdAt }]);
      expect(key.maskedKey).not.toContain(key.rawKey);

      const read = await s.a.request('POST', '/graphql', {
        query: `query($id: ID!) { privateLocation(id: $id) { ${LOCATION} } node(id: $id) { __typename } privateLocations { ${LOCATION} } byRest: privateLocation(id: "${privateLocation.privateLocationId}") { id } }`,
        variables: { id: privateLocation.id },
      });
      expect(read.body.data.privateLocation).toEqual(privateLocation);
      expect(read.body.data.node).toEqual({ __typename: 'PrivateLocation' });
      expect(read.body.data.byRest).toEqual({ id: privateLocation.id });
      expect(read.body.data.privateLocations).toContainEqual(privateLocation);
      expect(read.text).not.toContain(key.rawKey);
    });

    it('creates and revokes keys: each raw key is shown once, then only masked', async () => {
      const created = (await create({ name: 'Lab', slugName: 'lab' })).body.data.r;
      const id = created.privateLocation.id;
      const added = await s.a.request('POST', '/graphql', {
        query: 'mutation($id: ID!) { r: createPrivateLocationKey(privateLocationId: $id) { key { keyId rawKey maskedKey } privateLocation { keys { keyId maskedKey } } userErrors { field } } }',
        variables: { id },
      });
      const { key, privateLocation } = added.body.data.r;
      expect(key.rawKey).toMatch(/^pl_/);
      expect(privateLocation.keys).toHaveLength(2);
      expect(privateLocation.keys).toContainEqual({ keyId: key.keyId, maskedKey: key.maskedKey });
      // The payload's location lists the new key masked, never raw.
      expect(JSON.stringify(privateLocation)).not.toContain(key.rawKey);

      const listed = await s.a.request('POST', '/graphql', { query: `{ privateLocations { ${LOCATION} } }` });
      expect(listed.text).not.toContain(key.rawKey);
      expect(listed.text).not.toContain(created.key.rawKey);

      const revoked = await gql(s.a, 'mutation($id: ID!, $key: String!) { r: deletePrivateLocationKey(privateLocationId: $id, keyId: $key) { deletedKeyId privateLocation { keys { keyId } } userErrors { field } } }', { id, key: created.key.keyId });
      expect(revoked.data.r).toEqual({ deletedKeyId: created.key.keyId, privateLocation: { keys: [{ keyId: key.keyId }] }, userErrors: [] });
    });

    it('updates a location and deletes it once unused', async () => {
      const created = (await create({ name: 'Edge', slugName: 'edge' })).body.data.r;
      const id = created.privateLocation.id;
      const updated = await gql(s.a, `mutation($id: ID!) { r: updatePrivateLocation(id: $id, input: {name: "Edge 2", proxyUrl: "http://proxy.test:3128"}) { privateLocation { name slugName proxyUrl } userErrors { field } } }`, { id });
      expect(updated.data.r).toEqual({ privateLocation: { name: 'Edge 2', slugName: 'edge', proxyUrl: 'http://proxy.test:3128' }, userErrors: [] });

      const check = (await s.a.request('POST', '/v1/checks/api', { name: 'At edge', privateLocations: ['edge'], request: { url: 'https://example.test' } })).body;
      const refused = await gql(s.a, 'mutation($id: ID!) { r: deletePrivateLocation(id: $id) { deletedId } }', { id });
      expect(refused.errors?.[0]?.extensions?.code).toBe('CONFLICT');
      await s.a.request('DELETE', `/v1/checks/${check.id}`);
      const deleted = await gql(s.a, 'mutation($id: ID!) { r: deletePrivateLocation(id: $id) { deletedId userErrors { field } } }', { id });
      expect(deleted.data.r).toEqual({ deletedId: id, userErrors: [] });
      expect((await gql(s.a, 'query($id: ID!) { privateLocation(id: $id) { id } }', { id })).data.privateLocation).toBeNull();
    });

    it.each([
      ['slugName', 'createPrivateLocation', { name: 'X', slugName: 'Not A Slug' }],
      ['name', 'createPrivateLocation', { name: '   ', slugName: 'blank-name' }],
      ['proxyUrl', 'createPrivateLocation', { name: 'X', slugName: 'ftp-proxy', proxyUrl: 'ftp://proxy.test' }],
      ['slugName', 'createPrivateLocation', { name: 'No slug' }],
      ['slugName', 'updatePrivateLocation', { slugName: 'Bad Slug' }],
    ])('returns a userError on %s for a bad %s input and writes nothing', async (field, mutation, input) => {
      const target = (await create({ name: 'Target', slugName: `t-${Math.random().toString(36).slice(2, 8)}` })).body.data.r.privateLocation;
      const before = JSON.stringify((await s.a.request('GET', '/v1/private-locations')).body);
      const res = mutation === 'createPrivateLocation'
        ? (await create(input)).body
        : await gql(s.a, 'mutation($id: ID!, $input: PrivateLocationInput!) { r: updatePrivateLocation(id: $id, input: $input) { privateLocation { id } userErrors { field code message } } }', { id: target.id, input });
      expect(res.errors).toBeUndefined();
      expect(res.data.r.privateLocation).toBeNull();
      expect(res.data.r.userErrors).toContainEqual({ field, code: 'BAD_USER_INPUT', message: expect.any(String) });
      expect(JSON.stringify((await s.a.request('GET', '/v1/private-locations')).body)).toBe(before);
    });

    it("reads another account's location as null and answers writes to it, and to its keys, with NOT_FOUND", async () => {
      const theirs = (await create({ name: 'Theirs', slugName: 'theirs' }, s.b)).body.data.r;
      const id = theirs.privateLocation.id;
      const read = await gql(s.a, 'query($id: ID!) { privateLocation(id: $id) { id } node(id: $id) { id } privateLocations { id } }', { id });
      expect(read.data.privateLocation).toBeNull();
      expect(read.data.node).toBeNull();
      expect(read.data.privateLocations).not.toContainEqual({ id });
      for (const [mutation, variables] of [
        ['mutation($id: ID!) { r: updatePrivateLocation(id: $id, input: {name: "Mine"}) { privateLocation { id } } }', { id }],
        ['mutation($id: ID!) { r: deletePrivateLocation(id: $id) { deletedId } }', { id }],
        ['mutation($id: ID!) { r: createPrivateLocationKey(privateLocationId: $id) { key { rawKey } } }', { id }],
        ['mutation($id: ID!, $key: String!) { r: deletePrivateLocationKey(privateLocationId: $id, keyId: $key) { deletedKeyId } }', { id, key: theirs.key.keyId }],
      ] as const) {
        const res = await gql(s.a, mutation, variables);
        expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      }
      const after = (await s.b.request('GET', `/v1/private-locations/${theirs.privateLocation.privateLocationId}`)).body;
      expect(after).toMatchObject({ name: 'Theirs', keys: [{ id: theirs.key.keyId }] });
    });
  });
});
