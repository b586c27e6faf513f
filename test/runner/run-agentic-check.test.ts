import { once } from 'node:events';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type AgenticSettings } from '../../src/config.js';
import { createAgenticCheckExecutor } from '../../src/runner/executors/run-agentic-check.js';
import type { RunVariable } from '../../src/runner/executor.js';
import { createSandbox } from '../../src/runner/sandbox/create-sandbox.js';
import type { Sandbox } from '../../src/runner/sandbox/sandbox.js';
import { CHROMIUM, chromiumInstalled, NO_CHROMIUM } from '../support/chromium.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';
import { startPageTarget, type PageTarget } from '../support/page-target.js';
import { pricingAgentScript } from '../support/pricing-agent-script.js';
import { readPng } from '../support/png-pixels.js';
import { agentScript, startScriptedModel, type ModelTurn, type ModelRequest, type ScriptedModel } from '../support/scripted-model.js';

if (!chromiumInstalled) console.warn(`run-agentic-check.test.ts: skipping the browser runs, ${NO_CHROMIUM}`);

const KEY = 'sk-agentic-9f3c1e7d5b2a4806';
const UID_BASE = 340_000 + (process.pid % 10_000) * 10;

describe.skipIf(!chromiumInstalled)('agentic check runs: a scripted model drives a real Chromium', () => {
  let site: PageTarget;
  let shop: ColoredShop;
  let runTmp: string;
  let assetsDir: string;
  let sandbox: Sandbox;
  const models: ScriptedModel[] = [];

  beforeAll(async () => {
    site = await startPageTarget('Lookout Shop');
    shop = await startColoredShop();
    runTmp = await mkdtemp(path.join(tmpdir(), 'lookout-agentic-test-'));
    assetsDir = path.join(runTmp, 'assets');
    await chmod(runTmp, 0o711);
    sandbox = createSandbox({
      settings: { ...loadConfig().sandbox, uidBase: UID_BASE }, chromiumPath: CHROMIUM, protectedPaths: [], scratchDir: runTmp,
      logger: pino({ level: 'silent' }),
    });
  });

  afterAll(async () => {
    await Promise.all([site?.close(), shop?.close(), ...models.map((m) => m.close())]);
    sandbox?.close();
    if (runTmp) await rm(runTmp, { recursive: true, force: true });
  });

  async function model(script: (request: ModelRequest, turn: number) => ModelTurn) {
    const m = await startScriptedModel(script);
    models.push(m);
    return m;
  }

  function settings(m: ScriptedModel, over: Partial<AgenticSettings> = {}): AgenticSettings {
    return { modelUrl: m.url, modelKey: KEY, model: 'scripted-1', maxSteps: 10, timeoutMs: 60_000, requestTimeoutMs: 20_000, ...over };
  }

  /** Runs `prompt` with the model; the logs of the run are returned beside its result. */
  async function run(s: AgenticSettings | null, prompt = `Open ${site.url}/ and check the shop's heading.`, variables: RunVariable[] = []) {
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }));
    const executor = createAgenticCheckExecutor({ settings: s, chromiumPath: CHROMIUM, sandbox, assetsDir });
    const result = await executor(runnableCheck('AGENTIC', { prompt }), { ...runContext({ timeoutMs: 60_000, variables }), logger });
    return { result, logs: lines.join('') };
  }

  it('passes when the assertions the agent makes hold on the real page, recording steps, assertions and suggestions', async () => {
    const m = await model(agentScript(`${site.url}/`, [{ condition: 'The heading says Lookout Shop', kind: 'text_visible', expected: 'Lookout Shop' }]));
    const { result } = await run(settings(m));
    expect(result.errors).toEqual([]);
    expect(result.hasFailures).toBe(false);
    const agentic = result.agenticCheckResult as Record<string, any>;
    expect(agentic.assertions).toEqual([{ condition: 'The heading says Lookout Shop', kind: 'text_visible', passed: true, expected: 'Lookout Shop', actual: 'Lookout Shop' }]);
    expect(agentic.summary).toBe('Checked the page as asked.');
    expect(agentic.suggestions).toEqual([{ summary: 'Add a meta description', category: 'seo' }]);
    expect(agentic.prompt).toContain('check the shop');
    expect(agentic.steps.map((s: Record<string, any>) => `${s.type}:${s.name}`)).toEqual([
      'tool_call:navigate', 'tool_result:navigate', 'tool_call:assert', 'tool_result:assert', 'tool_call:finish', 'tool_result:finish',
    ]);
    // The browser really loaded the page: the model was told its title and status.
    const toolAnswers = m.requests[1]!.body.messages.filter((x: Record<string, any>) => x.role === 'tool');
    expect(toolAnswers[0].content).toMatch(/^status 200; url .*; title "Lookout Shop"$/);
    // The standard protocol: the model name, the tools and the bearer key.
    expect(m.requests[0]!.body.model).toBe('scripted-1');
    expect(m.requests[0]!.body.tools.map((t: Record<string, any>) => t.function.name)).toEqual(['navigate', 'click', 'type', 'read_page', 'assert', 'finish']);
    expect(m.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(result.assertions).toEqual([expect.objectContaining({ source: 'AGENT', comparison: 'text_visible', target: 'Lookout Shop', passed: true })]);
  });

  it('keeps a screenshot of the page after each step that changes it, referenced from the step and listed in jobAssets', async () => {
    const m = await model(pricingAgentScript);
    const { result } = await run(settings(m), 'Navigate to {{SHOP_URL}}/pricing and verify that at least three plan tiers are displayed on the page.', [
      { key: 'SHOP_URL', value: shop.url, secret: false },
    ]);
    expect(result.errors).toEqual([]);
    expect(result.hasFailures).toBe(false);
    const agentic = result.agenticCheckResult as Record<string, any>;
    // Only navigate changed the page here: its result names the one screenshot; assert and finish have none.
    const navigated = agentic.steps.find((s: Record<string, any>) => s.type === 'tool_result' && s.name === 'navigate');
    expect(agentic.steps.filter((s: Record<string, any>) => s.screenshot)).toEqual([navigated]);
    expect(agentic.jobAssets).toEqual([{ name: `step-${navigated.sequenceNumber}-navigate.png`, type: 'screenshot', contentType: 'image/png', size: expect.any(Number), file: navigated.screenshot }]);
    expect(navigated.screenshot).toMatch(/^[0-9a-f-]{36}\.png$/);
    const png = await readFile(path.join(assetsDir, navigated.screenshot));
    expect(png.length).toBe(agentic.jobAssets[0].size);
    // What the page showed: the pricing page's blue background, across the viewport.
    const image = readPng(png);
    expect(image.width).toBeGreaterThan(300);
    expect(image.rgb(5, 5)).toEqual(PRICING_BLUE);
    expect(image.rgb(image.width - 5, image.height - 5)).toEqual(PRICING_BLUE);
    // The prompt's {{SHOP_URL}} reached the model as its value (it is not secret), and the result shows the prompt the model got.
    expect(m.requests[0]!.body.messages[1].content).toBe(`Navigate to ${shop.url}/pricing and verify that at least three plan tiers are displayed on the page.`);
    expect(agentic.prompt).toBe(m.requests[0]!.body.messages[1].content);
    expect(shop.requested).toContain('/pricing');
  });

  it('types secret variables into the page without the model ever seeing them, and screenshots click and type', async () => {
    const SECRET = 'pw-7c41e9d2b8';
    const steps: ModelTurn[] = [
      { toolCalls: [{ name: 'navigate', arguments: { url: `${shop.url}/login` } }] },
      { toolCalls: [{ name: 'type', arguments: { selector: '#password', text: '{{SHOP_PASSWORD}}' } }] },
      { toolCalls: [{ name: 'click', arguments: { selector: 'button' } }] },
      { toolCalls: [{ name: 'read_page', arguments: {} }] },
      { toolCalls: [{ name: 'assert', arguments: { condition: 'Signed in', kind: 'text_visible', expected: 'Signed in' } }] },
      // As a page might talk it into: the placeholder is filled in only where the model types.
      { toolCalls: [{ name: 'navigate', arguments: { url: `${shop.url}/steal?k={{SHOP_PASSWORD}}` } }] },
      { toolCalls: [{ name: 'finish', arguments: { summary: 'Signed in.' } }] },
    ];
    const m = await model((_r, turn) => steps[turn] ?? { content: 'done' });
    const { result, logs } = await run(settings(m), `Open ${shop.url}/login, sign in with the password {{SHOP_PASSWORD}} and check that it says Signed in.`, [
      { key: 'SHOP_PASSWORD', value: 'not this one', secret: false },
      { key: 'SHOP_PASSWORD', value: SECRET, secret: true },
    ]);
    expect(result.errors).toEqual([]);
    expect(result.hasFailures).toBe(false);
    // The page got the secret (it says Signed in only for it), the model only its placeholder.
    expect((result.agenticCheckResult as Record<string, any>).assertions).toEqual([expect.objectContaining({ passed: true, actual: 'Signed in' })]);
    expect(JSON.stringify(m.requests)).not.toContain(SECRET);
    expect(m.requests[0]!.body.messages[1].content).toContain('password {{SHOP_PASSWORD}}');
    expect(m.requests[0]!.body.messages[0].content).toContain('{{SHOP_PASSWORD}}');
    // The login page echoes what was typed: read_page handed the model the masked text.
    const readBack = m.requests[4]!.body.messages.at(-1).content as string;
    expect(readBack).toContain('Typed: *****');
    expect(shop.requested.filter((u) => u.startsWith('/steal')).map(decodeURIComponent)).toEqual(['/steal?k={{SHOP_PASSWORD}}']);
    expect(shop.requested.join(' ')).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(logs).not.toContain(SECRET);
    // navigate, type, click, navigate: four screenshots, in order; after the click the page is green.
    const agentic = result.agenticCheckResult as Record<string, any>;
    const shots = agentic.steps.filter((s: Record<string, any>) => s.screenshot);
    expect(shots.map((s: Record<string, any>) => s.name)).toEqual(['navigate', 'type', 'click', 'navigate']);
    expect(agentic.jobAssets.map((a: Record<string, any>) => a.file)).toEqual(shots.map((s: Record<string, any>) => s.screenshot));
    const afterClick = readPng(await readFile(path.join(assetsDir, shots[2].screenshot)));
    // Below the form, where only the page's background shows.
    expect(afterClick.rgb(afterClick.width >> 1, afterClick.height - 5)).toEqual(SIGNED_IN_GREEN);
    const beforeClick = readPng(await readFile(path.join(assetsDir, shots[1].screenshot)));
    expect(beforeClick.rgb(beforeClick.width >> 1, beforeClick.height - 5)).toEqual([240, 240, 240]);
  });

  it('fails with the reason when an assertion does not hold on the page', async () => {
    const m = await model(agentScript(`${site.url}/`, [
      { condition: 'The heading says Lookout Shop', kind: 'title_contains', expected: 'Lookout Shop' },
      { condition: 'The shop shows Sold out', kind: 'text_visible', expected: 'Sold out' },
    ]));
    const { result } = await run(settings(m));
    expect(result.hasFailures).toBe(true);
    expect(result.hasErrors).toBe(false);
    const agentic = result.agenticCheckResult as Record<string, any>;
    expect(agentic.assertions[0]).toMatchObject({ passed: true, actual: 'Lookout Shop' });
    expect(agentic.assertions[1]).toMatchObject({ condition: 'The shop shows Sold out', passed: false, expected: 'Sold out' });
    expect(agentic.assertions[1].actual).toMatch(/^not on the page \(lookout shop\)$/);
    expect(result.assertions.filter((a) => !a.passed)).toHaveLength(1);
  });

  it('fails with AGENTIC_NO_ASSERTIONS when the agent verified nothing', async () => {
    const m = await model((_r, turn) => (turn === 0 ? { toolCalls: [{ name: 'navigate', arguments: { url: `${site.url}/` } }] } : { content: 'Looks fine to me.' }));
    const { result } = await run(settings(m));
    expect(result.hasFailures).toBe(true);
    expect(result.errors).toEqual([{ code: 'AGENTIC_NO_ASSERTIONS', message: expect.stringContaining('no assertions') }]);
    expect((result.agenticCheckResult as Record<string, any>).summary).toBe('Looks fine to me.');
  });

  it('fails with the model\'s own reason when it refuses the request', async () => {
    const m = await model(() => ({ status: 429, error: 'quota exceeded for this key' }));
    const { result } = await run(settings(m));
    expect(result.hasFailures).toBe(true);
    expect(result.errors).toEqual([{ code: 'AGENTIC_MODEL_ERROR', message: `the model at ${m.url}/chat/completions answered HTTP 429: quota exceeded for this key` }]);
    expect((result.agenticCheckResult as Record<string, any>).errors).toEqual([{ error: { code: 'AGENTIC_MODEL_ERROR', message: result.errors[0]!.message } }]);
  });

  it('fails when the model does not answer in time', async () => {
    const m = await model(() => ({ hang: true }));
    const { result } = await run(settings(m, { requestTimeoutMs: 300 }));
    expect(result.hasFailures).toBe(true);
    expect(result.errors).toEqual([{ code: 'AGENTIC_MODEL_ERROR', message: `the model at ${m.url}/chat/completions did not answer within 300 ms` }]);
  });

  it('stops at LOOKOUT_AGENTIC_MAX_STEPS turns', async () => {
    const m = await model((_r, turn) => ({ toolCalls: [turn === 0 ? { name: 'navigate', arguments: { url: `${site.url}/` } } : { name: 'read_page', arguments: {} }] }));
    const { result } = await run(settings(m, { maxSteps: 3 }));
    expect(result.errors).toEqual([{ code: 'AGENTIC_MAX_STEPS', message: expect.stringContaining('3 model turns') }]);
    expect(m.requests).toHaveLength(3);
    // read_page hands the model the page's text.
    expect(m.requests[2]!.body.messages.at(-1).content).toMatch(/^url http:.*\ntitle "Lookout Shop"\ntext:\nLookout Shop$/);
  });

  it('never puts the model key in the result or the logs, even when the model repeats it', async () => {
    const m = await model(agentScript(`${site.url}/`, [{ condition: `key ${KEY} is secret`, kind: 'text_visible', expected: KEY }], { content: `Using ${KEY}` }));
    const { result, logs } = await run(settings(m));
    expect(result.hasFailures).toBe(true);
    const text = JSON.stringify(result);
    expect(text).toContain('Using *****');
    expect(text).not.toContain(KEY);
    expect(logs).not.toContain(KEY);
  });

  it('ends with BROWSER_CRASHED when the page crashes the browser', async () => {
    const hog = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<title>hog</title><script>const keep = []; for (let i = 0; i < 64; i++) keep.push(new Uint8Array(32 * 1024 * 1024).fill(i + 1));</script>');
    });
    hog.listen(0, '127.0.0.1');
    await once(hog, 'listening');
    const small = createSandbox({
      settings: { ...loadConfig().sandbox, uidBase: UID_BASE + 5, memoryMb: 512 }, chromiumPath: CHROMIUM, protectedPaths: [], scratchDir: runTmp,
      logger: pino({ level: 'silent' }),
    });
    try {
      // The model opens the greedy page, then keeps reading it.
      const url = `http://127.0.0.1:${(hog.address() as AddressInfo).port}/`;
      const m = await model((_r, turn) => ({ toolCalls: [turn === 0 ? { name: 'navigate', arguments: { url } } : { name: 'read_page', arguments: {} }] }));
      const executor = createAgenticCheckExecutor({ settings: settings(m), chromiumPath: CHROMIUM, sandbox: small, assetsDir });
      const result = await executor(runnableCheck('AGENTIC', { prompt: 'Open the page.' }), runContext({ timeoutMs: 60_000 }));
      expect(result.hasFailures).toBe(true);
      expect(result.errors).toEqual([{ code: 'BROWSER_CRASHED', message: `the page crashed in the browser at ${url} (out of memory, or a renderer fault)` }]);
    } finally {
      small.close();
      hog.closeAllConnections();
      hog.close();
    }
  });

  it('fails stating the settings when the server has no model (a check stored before the model was removed)', async () => {
    const { result } = await run(null);
    expect(result.hasFailures).toBe(true);
    expect(result.errors).toEqual([{
      code: 'AGENTIC_MODEL_NOT_CONFIGURED',
      message: 'the AGENTIC check "AGENTIC probe" cannot run: this server has no model for agentic checks (the operator sets LOOKOUT_AGENTIC_MODEL_URL and LOOKOUT_AGENTIC_MODEL)',
    }]);
  });
});

const PRICING_BLUE: [number, number, number] = [20, 110, 220];
const SIGNED_IN_GREEN: [number, number, number] = [30, 170, 60];

/** A shop with a colored pricing page (three plan tiers) and a login page that echoes what is typed and turns green for the right password. */
interface ColoredShop {
  url: string;
  requested: string[];
  close(): Promise<void>;
}

async function startColoredShop(): Promise<ColoredShop> {
  const requested: string[] = [];
  const page = (title: string, body: string, color: [number, number, number]) =>
    `<!doctype html><html><head><title>${title}</title><style>html,body{margin:0;min-height:100vh;background:rgb(${color.join(',')})}</style></head><body>${body}</body></html>`;
  const server = http.createServer((req, res) => {
    requested.push(req.url ?? '/');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (req.url === '/pricing') {
      res.end(page('Pricing', '<section class="plan">Hobby</section><section class="plan">Team</section><section class="plan">Enterprise</section>', PRICING_BLUE));
    } else if (req.url === '/login') {
      res.end(page('Sign in', `<input id="password" type="text"><button>Sign in</button><p id="echo"></p>
<script>
const input = document.getElementById('password');
input.addEventListener('input', () => { document.getElementById('echo').textContent = 'Typed: ' + input.value; });
document.querySelector('button').addEventListener('click', () => {
  if (input.value !== ${JSON.stringify('pw-7c41e9d2b8')}) return;
  document.body.style.background = 'rgb(${SIGNED_IN_GREEN.join(',')})';
  document.getElementById('echo').textContent += ' - Signed in';
});
</script>`, [240, 240, 240]));
    } else {
      res.end(page('Elsewhere', 'nothing here', [255, 255, 255]));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
