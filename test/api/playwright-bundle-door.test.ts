import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyTarGz } from '../support/playwright-suite-fixture.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/**
 * A Playwright check suite runs from the code bundle the checkly CLI uploaded just before it
 * deploys or tests: `checkly deploy` (and `deploy --preview`) and `checkly test` naming a bundle
 * that was never uploaded to the account are refused at the door with 400 naming the check's
 * logical id and the bundle, and nothing is stored or run.
 */

const NEVER_UPLOADED = 'code-bundle/0f1e2d3c-4b5a-4968-8776-655443322110';

const suite = (codeBundlePath: string, logicalId = 'shop-suite') => ({
  logicalId, type: 'check', member: true,
  payload: { checkType: 'PLAYWRIGHT', name: 'Shop suite', locations: ['eu-west-1'], frequency: 10, groupId: null, codeBundlePath, testCommand: 'npx playwright test' },
});
const deployBody = (resources: unknown[]) => ({ project: { logicalId: 'suites', name: 'Suites' }, sharedFiles: [], resources });
const job = (codeBundlePath: string, logicalId: string) => ({
  checkType: 'PLAYWRIGHT', logicalId, name: logicalId, locations: ['eu-west-1'], codeBundlePath, testCommand: 'npx playwright test',
});

describe('Playwright check suites whose code bundle was never uploaded', () => {
  let s: TestServer;
  let assetsDir: string;
  /** A bundle account b uploaded: unknown to account a. */
  let theirs: string;

  const upload = async (client: TestClient) => {
    const res = await s.raw('POST', '/next/checkly-storage/upload-code-bundle', {
      body: tinyTarGz() as unknown as string,
      headers: { authorization: `Bearer ${client.apiKey}`, 'x-checkly-account': client.accountId, 'content-type': 'application/octet-stream' },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.key as string;
  };

  beforeAll(async () => {
    assetsDir = mkdtempSync(path.join(os.tmpdir(), 'lookout-bundle-door-'));
    s = await startTestServer({ config: { assetsDir } });
    theirs = await upload(s.b);
  });
  afterAll(async () => {
    await s?.close();
    if (assetsDir) rmSync(assetsDir, { recursive: true, force: true });
  });

  it.each([
    ['never uploaded', () => NEVER_UPLOADED],
    ['uploaded by another account', () => theirs],
  ])('deploy and deploy --preview refuse a suite whose bundle was %s, naming the check and the bundle; nothing is stored', async (_name, key) => {
    for (const dryRun of [true, false]) {
      const res = await s.a.request('POST', `/v1/projects/deploy?dryRun=${dryRun}`, deployBody([suite(key())]));
      expect(res.status, res.text).toBe(400);
      expect(res.body.validation.keys).toEqual(['resources.shop-suite.payload.codeBundlePath']);
      expect(res.body.message).toContain('"shop-suite"');
      expect(res.body.message).toContain(`no code bundle "${key()}" was uploaded to this account`);
    }
    expect((await s.a.request('GET', '/v1/checks')).body).toEqual([]);
    expect((await s.a.request('GET', '/next/projects')).body).toEqual([]);
  });

  it('deploys the same suite once its bundle is uploaded', async () => {
    const key = await upload(s.a);
    const res = await s.a.request('POST', '/v1/projects/deploy?dryRun=false', deployBody([suite(key)]));
    expect(res.status, res.text).toBe(202);
    const checks = (await s.a.request('GET', '/v1/checks')).body as { checkType: string; codeBundlePath: string }[];
    expect(checks).toEqual([expect.objectContaining({ checkType: 'PLAYWRIGHT', codeBundlePath: key })]);
    expect((await s.a.request('DELETE', '/v1/projects/suites')).status).toBe(202);
  });

  it('checkly test refuses the whole run when one suite\'s bundle was never uploaded, naming the job\'s check and the bundle; no session starts', async () => {
    const uploaded = await upload(s.a);
    const before = (await s.a.request('GET', '/v1/test-sessions')).body.entries as unknown[];
    const res = await s.a.request('POST', '/v1/test-sessions/run', {
      name: 'bundles', checkRunJobs: [job(uploaded, 'uploaded-suite'), job(NEVER_UPLOADED, 'forgotten-suite'), job(theirs, 'borrowed-suite')],
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.validation.keys).toEqual(['checkRunJobs.1.codeBundlePath', 'checkRunJobs.2.codeBundlePath']);
    expect(res.body.message).toContain(`check "forgotten-suite": no code bundle "${NEVER_UPLOADED}" was uploaded to this account`);
    expect(res.body.message).toContain(`check "borrowed-suite": no code bundle "${theirs}" was uploaded to this account`);
    expect(res.body.message).not.toContain('uploaded-suite');
    expect((await s.a.request('GET', '/v1/test-sessions')).body.entries).toEqual(before);
  });
});
