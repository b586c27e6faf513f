import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumInstalled, NO_CHROMIUM } from '../support/chromium.js';
import { runChecklyCli } from '../support/mqtt-cli.js';
import { startPageTarget, type PageTarget } from '../support/page-target.js';
import { agentScript, startScriptedModel, type ScriptedModel } from '../support/scripted-model.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The real `checkly` CLI with the boilerplate project's AgenticCheck (its pricing page pointed at a
 * loopback page): refused by `test`, `deploy --preview` and `deploy` on a server without a model,
 * naming the setting; run by `checkly test`, its agent report printed, on a server with one.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));
if (!chromiumInstalled) console.warn(`checkly-agentic-cli.test.ts: skipping the agentic run, ${NO_CHROMIUM}`);

const CONFIG = `import { defineConfig } from 'checkly'
export default defineConfig({
  projectName: 'Agents',
  logicalId: 'agents-project',
  checks: { checkMatch: '**/*.check.mjs', locations: ['eu-central-1'] },
  cli: { runLocation: 'eu-central-1' },
})
`;

describe('checkly CLI with an AgenticCheck', () => {
  let site: PageTarget;
  let model: ScriptedModel;
  let bare: TestServer;
  let equipped: TestServer;
  let home: string;
  let project: string;

  beforeAll(async () => {
    site = await startPageTarget('Pricing');
    model = await startScriptedModel(agentScript(`${site.url}/`, [{ condition: 'The pricing page is shown', kind: 'title_contains', expected: 'Pricing' }]));
    [bare, equipped] = await Promise.all([
      startTestServer(),
      startTestServer({ config: { chromiumPath: CHROMIUM, agentic: { modelUrl: model.url, modelKey: 'sk-cli-test-4e8a', model: 'scripted-1', maxSteps: 5, timeoutMs: 60_000, requestTimeoutMs: 20_000 } } }),
    ]);
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-agentic-home-'));
    project = mkdtempSync(path.join(os.tmpdir(), 'lookout-agentic-project-'));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'agents-project', version: '1.0.0', type: 'module' }));
    writeFileSync(path.join(project, 'checkly.config.mjs'), CONFIG);
    // The CLI's boilerplate example, its site pointed at the loopback page.
    writeFileSync(path.join(project, 'agentic.check.mjs'), `
import { AgenticCheck } from 'checkly/constructs'
new AgenticCheck('checkly-pricing-page', {
  name: 'Checkly pricing page',
  prompt: 'Navigate to ${site.url}/ and verify that the pricing page is displayed.',
  frequency: 5,
  locations: ['us-east-1', 'eu-west-1', 'ap-southeast-1'],
})
`);
    symlinkSync(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  });

  afterAll(async () => {
    await Promise.all([bare?.close(), equipped?.close(), model?.close(), site?.close()]);
    for (const dir of [home, project]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['test'],
    ['deploy', '--preview'],
    ['deploy', '--force'],
  ])('`checkly %s` is refused without a model, naming the check and the setting', async (...args) => {
    const r = await runChecklyCli(args, { server: bare, client: bare.a, home, cwd: project });
    expect(r.code, r.stdout + r.stderr).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('LOOKOUT_AGENTIC_MODEL_URL');
    expect(r.stdout + r.stderr).toContain('Checkly pricing page');
    expect((await bare.a.request('GET', '/v1/checks')).body).toEqual([]);
  });

  it.skipIf(!chromiumInstalled)('`checkly test` runs it with the model and prints the agent\'s assertions; `deploy` stores it', async () => {
    const r = await runChecklyCli(['test', '--verbose'], { server: equipped, client: equipped.a, home, cwd: project });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Checkly pricing page');
    expect(r.stdout).toMatch(/1 passed, 1 total/);
    // The agent's report, as the CLI prints agenticCheckResult.
    expect(r.stdout).toContain('Checked the page as asked.');
    expect(r.stdout).toContain('✓ The pricing page is shown');
    expect(r.stdout).toMatch(/1 → navigate/);
    expect(r.stdout + r.stderr).not.toContain('sk-cli-test-4e8a');
    const deployed = await runChecklyCli(['deploy', '--force'], { server: equipped, client: equipped.a, home, cwd: project });
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    const checks = (await equipped.a.request('GET', '/v1/checks')).body as Record<string, any>[];
    expect(checks).toEqual([expect.objectContaining({ checkType: 'AGENTIC', name: 'Checkly pricing page', prompt: expect.stringContaining(site.url) })]);
  });
});
