import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumInstalled, NO_CHROMIUM } from '../support/chromium.js';
import { gql } from '../support/graphql.js';
import { startPageTarget, type PageTarget } from '../support/page-target.js';
import { agentScript, startScriptedModel, type ScriptedModel } from '../support/scripted-model.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Agentic checks need a model the operator configures (LOOKOUT_AGENTIC_MODEL_URL and
 * LOOKOUT_AGENTIC_MODEL): without one every way in refuses them at the door, naming the check and
 * the settings; with one they are stored, run against a real page, and their report reads back.
 */

const SETTINGS = 'LOOKOUT_AGENTIC_MODEL_URL and LOOKOUT_AGENTIC_MODEL';
const agentic = (extra: Record<string, unknown> = {}) => ({ checkType: 'AGENTIC', name: 'Pricing agent', prompt: 'Verify that three plans are shown.', ...extra });
const deployBody = (payload: Record<string, unknown>) => ({
  project: { logicalId: 'agentic-project', name: 'Agents' }, sharedFiles: [],
  resources: [{ logicalId: 'pricing-agent', type: 'check', member: true, payload: { ...payload, agentRuntime: { skills: [] } } }],
});

describe('agentic checks on a server without a model', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('refuses a REST create with 400 naming the check and the settings, and stores nothing', async () => {
    const res = await s.a.request('POST', '/v1/checks', agentic());
    expect(res.status, res.text).toBe(400);
    expect(res.body.validation.keys).toEqual(['checkType']);
    expect(res.body.message).toContain('the AGENTIC check "Pricing agent" cannot run');
    expect(res.body.message).toContain(SETTINGS);
    expect((await s.a.request('GET', '/v1/checks')).body).toEqual([]);
  });

  it('refuses the GraphQL create with a userError on checkType', async () => {
    const res = await gql(s.a, 'mutation($input: AgenticCheckInput!) { r: createAgenticCheck(input: $input) { check { id } userErrors { field code message } } }',
      { input: { name: 'Pricing agent', prompt: 'Verify that three plans are shown.' } });
    expect(res.errors).toBeUndefined();
    expect(res.data.r.check).toBeNull();
    expect(res.data.r.userErrors).toEqual([{ field: 'checkType', code: 'BAD_USER_INPUT', message: expect.stringContaining(SETTINGS) }]);
  });

  it.each(['false', 'true'])('refuses a deploy (dryRun=%s) naming the resource, the check and the settings', async (dryRun) => {
    const res = await s.a.request('POST', `/v1/projects/deploy?dryRun=${dryRun}`, deployBody(agentic()));
    expect(res.status, res.text).toBe(400);
    expect(res.body.validation.keys).toEqual(['resources.pricing-agent.payload.checkType']);
    expect(res.body.message).toContain('"Pricing agent"');
    expect(res.body.message).toContain(SETTINGS);
    expect((await s.a.request('GET', '/v1/projects')).body).toEqual([]);
  });

  it('refuses a `checkly test` run of one with 400 naming the job and the settings', async () => {
    const res = await s.a.request('POST', '/v1/test-sessions/run', { checkRunJobs: [{ ...agentic(), logicalId: 'pricing-agent' }] });
    expect(res.status, res.text).toBe(400);
    expect(res.body.validation.keys).toEqual(['checkRunJobs.0.checkType']);
    expect(res.body.message).toContain('"Pricing agent"');
    expect(res.body.message).toContain(SETTINGS);
  });
});

describe('agentic checks on a server with a model', () => {
  let s: TestServer;
  let model: ScriptedModel;
  let site: PageTarget;
  beforeAll(async () => {
    site = await startPageTarget('Pricing');
    model = await startScriptedModel(agentScript(`${site.url}/`, [{ condition: 'The page is the pricing page', kind: 'title_contains', expected: 'Pricing' }]));
    s = await startTestServer({
      config: { chromiumPath: CHROMIUM, agentic: { modelUrl: model.url, modelKey: 'sk-test-key-0123456789', model: 'scripted-1', maxSteps: 5, timeoutMs: 60_000, requestTimeoutMs: 20_000 } },
    });
  });
  afterAll(async () => Promise.all([s?.close(), model?.close(), site?.close()]));

  it('stores one with its prompt, shown by REST and GraphQL', async () => {
    const res = await s.a.request('POST', '/v1/checks', agentic());
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ checkType: 'AGENTIC', name: 'Pricing agent', prompt: 'Verify that three plans are shown.' });
    const read = await gql(s.a, 'query($id: ID!) { check(id: $id) { __typename ... on AgenticCheck { prompt } } }', { id: res.body.id });
    expect(read.data.check).toEqual({ __typename: 'AgenticCheck', prompt: 'Verify that three plans are shown.' });
  });

  it('refuses skills it cannot load, naming them', async () => {
    const res = await s.a.request('POST', '/v1/checks', agentic({ agentRuntime: { skills: ['addyosmani/web-quality-skills'] } }));
    expect(res.status, res.text).toBe(400);
    expect(res.body.validation.keys).toEqual(['agentRuntime.skills']);
    expect(res.body.message).toContain('addyosmani/web-quality-skills');
  });

  it('accepts an empty skills list, as CLI 8 always sends one', async () => {
    const res = await s.a.request('POST', '/v1/projects/deploy?dryRun=true', deployBody(agentic()));
    expect(res.status, res.text).toBe(200);
  });

  it.skipIf(!chromiumInstalled)(`runs one now; REST and GraphQL show the agent's report (${chromiumInstalled ? 'Chromium present' : NO_CHROMIUM})`, async () => {
    const created = (await s.a.request('POST', '/v1/checks', agentic({ name: 'Run me', locations: ['eu-west-1'] }))).body;
    const ran = await gql(s.a, 'mutation($id: ID!) { r: runCheck(id: $id) { results { id resultId hasFailures agenticCheckResult } userErrors { message } } }', { id: created.id });
    expect(ran.errors).toBeUndefined();
    const [result] = ran.data.r.results;
    expect(result.hasFailures).toBe(false);
    expect(result.agenticCheckResult).toMatchObject({
      summary: 'Checked the page as asked.', prompt: 'Verify that three plans are shown.', errors: [],
      assertions: [{ condition: 'The page is the pricing page', kind: 'title_contains', passed: true, expected: 'Pricing', actual: 'Pricing' }],
      suggestions: [{ summary: 'Add a meta description', category: 'seo' }],
    });
    const rest = await s.a.request('GET', `/v1/check-results/${created.id}`);
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body).toHaveLength(1);
    // GraphQL adds the download path to each screenshot; otherwise the two give the same report.
    const shot = rest.body[0].agenticCheckResult.jobAssets[0];
    const path = `/v1/check-results/${created.id}/${result.resultId}/assets/${shot.file}`;
    expect(result.agenticCheckResult).toEqual({ ...rest.body[0].agenticCheckResult, jobAssets: [{ ...shot, path }] });
    expect(rest.text).not.toContain('sk-test-key-0123456789');
    // The navigate step's screenshot downloads as a PNG, for its account only, and `checkly assets list` sees it.
    const navigated = rest.body[0].agenticCheckResult.steps.find((x: Record<string, any>) => x.type === 'tool_result' && x.name === 'navigate');
    expect(navigated.screenshot).toBe(shot.file);
    const png = await s.a.request('GET', path);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Number(png.headers.get('content-length'))).toBe(shot.size);
    expect(Buffer.from(png.text, 'latin1').subarray(1, 4).toString('latin1')).toBe('PNG');
    expect((await s.b.request('GET', path)).status).toBe(404);
    const manifest = await s.a.request('GET', `/v1/check-results/${created.id}/${result.resultId}/assets?type=screenshot`);
    expect(manifest.body.assets).toEqual([{ type: 'screenshot', name: shot.name, url: path, contentType: 'image/png', source: 'lookout' }]);
  });
});
