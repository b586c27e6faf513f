import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlData } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const DEPLOY = `mutation($input: JSON!, $dryRun: Boolean) { r: deployProject(input: $input, dryRun: $dryRun) { result userErrors { field code message } } }`;
const DESTROY = `mutation($id: String!) { r: destroyProject(logicalId: $id) { result userErrors { field code message } } }`;
const bundle = (name: string) => ({
  project: { logicalId: 'gql-project', name: 'GQL', repoUrl: 'https://git.example.test/gql' }, sharedFiles: [],
  resources: [{ logicalId: 'home', type: 'check', member: true, payload: { checkType: 'API', name, locations: ['eu-west-1'], request: { url: 'https://example.test', method: 'GET' } } }],
});

describe('GraphQL deployProject and destroyProject', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer(); });
  afterAll(async () => s?.close());

  const checkNames = async () => ((await s.a.request('GET', '/v1/checks')).body as { name: string }[]).map((c) => c.name);

  it('previews, deploys and destroys a project through REST', async () => {
    const preview = (await gqlData(s.a, DEPLOY, { input: bundle('Home'), dryRun: true })).r;
    expect(preview.userErrors).toEqual([]);
    expect(await checkNames()).not.toContain('Home');

    const deployed = (await gqlData(s.a, DEPLOY, { input: bundle('Home') })).r;
    expect(deployed).toMatchObject({ result: { status: 'SUCCEEDED', kind: 'DEPLOY', projectLogicalId: 'gql-project' }, userErrors: [] });
    expect(await checkNames()).toContain('Home');

    const destroyed = (await gqlData(s.a, DESTROY, { id: 'gql-project' })).r;
    expect(destroyed).toMatchObject({ result: { status: 'SUCCEEDED' }, userErrors: [] });
    expect(await checkNames()).not.toContain('Home');
  });

  it('answers a bundle REST refuses as userErrors naming its keys, writing nothing', async () => {
    const r = (await gqlData(s.a, DEPLOY, { input: { project: { logicalId: '', name: 'X' }, resources: [] } })).r;
    expect(r.result).toBeNull();
    expect(r.userErrors.length).toBeGreaterThan(0);
    expect(r.userErrors[0]).toMatchObject({ code: 'BAD_USER_INPUT', field: expect.stringContaining('project') });
  });
});
