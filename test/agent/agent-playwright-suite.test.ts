import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type LookoutAgent } from '../../src/agent/create-agent.js';
import { privateLocationLane } from '../../src/domain/agent-lanes.js';
import { loadConfig } from '../../src/config.js';
import { createExecutors } from '../../src/runner/create-executors.js';
import { defaultSandbox } from '../../src/runner/sandbox/default-sandbox.js';
import { CHROMIUM, chromiumInstalled } from '../support/chromium.js';
import { startPageTarget, type PageTarget } from '../support/page-target.js';
import { playwrightSuiteBundle } from '../support/playwright-suite-fixture.js';
import { SANDBOX_SKIP_REASON, sandboxWorks } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const skip = !chromiumInstalled ? `no Chromium at ${CHROMIUM}` : !sandboxWorks ? SANDBOX_SKIP_REASON : '';

/**
 * A Playwright check suite of a private location runs on its agent: the agent fetches the run's
 * code bundle from the service (only while it holds the run) and uploads the files the tests attached.
 */
describe.skipIf(skip !== '')(`Playwright check suites on private-location agents${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let s: TestServer;
  let shop: PageTarget;
  let agent: LookoutAgent;
  let storage: string;
  let agentAssets: string;
  let slugName: string;

  beforeAll(async () => {
    storage = mkdtempSync(path.join(os.tmpdir(), 'lookout-pw-agent-storage-'));
    agentAssets = mkdtempSync(path.join(os.tmpdir(), 'lookout-pw-agent-assets-'));
    [s, shop] = await Promise.all([startTestServer({ config: { runnerEnabled: false, assetsDir: storage } }), startPageTarget('Lookout Shop')]);
    slugName = `lab-${randomUUID().slice(0, 6)}`;
    const loc = await s.a.request('POST', '/v1/private-locations', { name: slugName, slugName });
    agent = await createAgent({
      serviceUrl: s.url, key: loc.body.keys[0].rawKey, concurrency: 1, healthPort: 0, healthHost: '127.0.0.1', assetsDir: agentAssets, logger, version: 'test',
      executors: createExecutors({ ...loadConfig({}), chromiumPath: CHROMIUM, assetsDir: agentAssets }, defaultSandbox()), waitMs: 2_000, backoff: { minMs: 50, maxMs: 500 },
    });
    await until(async () => agent.stats().connected, 'the agent to connect');
  });
  afterAll(async () => {
    await agent?.close();
    await Promise.all([s?.close(), shop?.close()]);
    for (const dir of [storage, agentAssets]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fetches the bundle, runs the suite and records it per project, with its files uploaded', async () => {
    const uploaded = await s.raw('POST', '/next/checkly-storage/upload-code-bundle', {
      body: playwrightSuiteBundle() as unknown as string,
      headers: { authorization: `Bearer ${s.a.apiKey}`, 'content-type': 'application/octet-stream' },
    });
    expect(uploaded.status, uploaded.text).toBe(200);
    const check = await s.a.request('POST', '/v1/checks', {
      checkType: 'PLAYWRIGHT', name: 'Suite on the agent', locations: [], privateLocations: [slugName], activated: true,
      codeBundlePath: uploaded.body.key, testCommand: 'npx playwright test --config playwright.config.ts',
      environmentVariables: [{ key: 'SHOP_URL', value: shop.url }],
    });
    expect(check.status, check.text).toBe(201);
    await s.lookout.store.runJobs.enqueue([{ checkId: check.body.id, slotAt: new Date(), locations: [slugName], lane: privateLocationLane(s.a.accountId, slugName) }]);
    const [final] = await until(async () => {
      const res = await s.a.request('GET', `/v1/check-results/${check.body.id}?resultType=FINAL&limit=1`);
      return (res.body as Record<string, any>[]).length > 0 && (res.body as Record<string, any>[]);
    }, 'the FINAL result', 120_000, 250);
    const result = (await s.a.request('GET', `/v1/check-results/${check.body.id}/${final!.id}`)).body;
    expect(result).toMatchObject({ runLocation: slugName, hasFailures: true, ranOn: { kind: 'agent', agentId: agent.id } });
    const projects = Object.fromEntries((result.browserCheckResult.playwrightTestResults.projects as Record<string, any>[]).map((p) => [p.name, p.status]));
    expect(projects).toEqual({ 'login-setup': 'passed', chromium: 'failed', firefox: 'notRun' });
    // The agent kept a copy of the bundle under the account, and the trace reached the service.
    expect(readdirSync(path.join(agentAssets, 'checkly-storage', s.a.accountId))).toEqual([String(uploaded.body.key).replace('/', '-')]);
    const trace = (result.browserCheckResult.jobAssets as Record<string, any>[]).find((a) => a.type === 'trace')!;
    expect(existsSync(path.join(storage, trace.file))).toBe(true);
    const res = await s.a.request('GET', `/v1/check-results/${check.body.id}/${final!.id}/assets/${trace.file}`);
    expect(res.status).toBe(200);
  });

  it('refuses the bundle of a run the agent does not hold', async () => {
    const res = await s.raw('GET', '/v1/agent/jobs/999999/code-bundle', { headers: { authorization: 'Bearer pl_not-a-key', 'x-lookout-agent': randomUUID() } });
    expect([401, 403]).toContain(res.status);
  });
});
