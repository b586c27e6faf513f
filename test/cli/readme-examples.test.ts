import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const run = promisify(execFile);

interface Block {
  lang: string;
  code: string;
  /** `example: name` (run below) or `not run: why`. */
  marker: string | undefined;
  line: number;
}

/** Fenced code blocks of the README with the HTML comment on the line before each, if any. */
function codeBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    const comment = /^<!-- (.+) -->$/.exec(lines[i - 1] ?? '');
    blocks.push({ lang: open[1]!, code: lines.slice(i + 1, end).join('\n'), marker: comment?.[1], line: i + 1 });
    i = end;
  }
  return blocks;
}

function example(name: string): string {
  const block = codeBlocks(README).find((b) => b.marker === `example: ${name}`);
  if (!block) throw new Error(`README has no example "${name}"`);
  return block.code;
}

describe('README examples', () => {
  let s: TestServer;
  let target: HttpTarget;
  /** What the reader fills in or where the server is: nothing else of an example is changed. */
  let asRun: (code: string) => string;

  beforeAll(async () => {
    s = await startTestServer();
    target = await startHttpTarget();
    const host = s.url.replace(/^http:\/\//, '');
    asRun = (code) => code
      .replace(/^export LOOKOUT_KEY=.*$/m, `export LOOKOUT_KEY=${s.a.apiKey}`)
      .replaceAll('http://localhost:4000', s.url)
      .replaceAll('ws://localhost:4000', `ws://${host}`)
      .replaceAll('https://example.com', `${target.http.url}/json`);
  });
  afterAll(async () => {
    await s?.close();
    await target?.close();
  });

  it('marks every shell and JavaScript block as run by this test or says why it is not', () => {
    const unmarked = codeBlocks(README)
      .filter((b) => ['sh', 'js', 'bash', 'ts'].includes(b.lang))
      .filter((b) => !b.marker || !/^(example: [\w-]+|not run: .+)$/.test(b.marker))
      .map((b) => `README.md:${b.line}`);
    expect(unmarked).toEqual([]);
  });

  it('runs the Quickstart as written: creates a check, runs it now and reads its status', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', asRun(example('quickstart'))], { cwd: ROOT });
    const [runAnswer, status] = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(runAnswer.results).toEqual([expect.objectContaining({ resultType: 'FINAL', hasFailures: false, hasErrors: false })]);
    expect(status).toEqual(expect.objectContaining({ checkId: runAnswer.checkId, hasFailures: false, hasErrors: false }));
  });

  it('makes a Read Only key that reads and is refused a write, as the API keys example says', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', asRun(example('read-only-key'))], { cwd: ROOT });
    const [read, refusal] = stdout.trim().split('\n');
    expect(read).toBe('200');
    expect(JSON.parse(refusal!)).toMatchObject({ statusCode: 403, attributes: { code: 'ROLE_FORBIDS', role: 'READ_ONLY', permission: 'write' } });
  });

  it('answers the GraphQL example over HTTP with data and no errors', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', `export LOOKOUT_KEY=${s.a.apiKey}\n${asRun(example('graphql-http'))}`], { cwd: ROOT });
    const answer = JSON.parse(stdout);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.accountOverview).toEqual(expect.objectContaining({ failingChecks: expect.any(Number) }));
  });

  it('follows a live result with the graphql-ws example on this Node version', async () => {
    const created = await s.a.request('POST', '/v1/checks/api', {
      name: 'Followed', frequency: 5, locations: ['eu-west-1'], request: { method: 'GET', url: `${target.http.url}/json` },
    });
    expect(created.status).toBe(201);
    // Inside the repository, so the example's bare imports resolve as in a reader's project.
    const dir = mkdtempSync(path.join(ROOT, '.readme-example-'));
    try {
      const file = path.join(dir, 'follow-results.mjs');
      writeFileSync(file, asRun(example('graphql-ws')));
      const child = spawn(process.execPath, [file], { env: { ...process.env, LOOKOUT_KEY: s.a.apiKey }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c));
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      let ended = false;
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => {
        ended = true;
        resolve(code);
      }));
      // An example that fails to connect ends at once: stop waiting and show why.
      await until(async () => ended || (s.lookout.graphqlSubscriptions?.stats().subscribers ?? 0) > 0, 'the example subscribed');
      expect(stderr).toBe('');
      const ran = await s.a.request('POST', `/v1/checks/${created.body.id}/run`);
      expect(ran.status).toBe(200);
      expect(await exited).toBe(0);
      expect(stderr).toBe('');
      const event = JSON.parse(stdout.trim());
      expect(event.checkResultCreated).toEqual(expect.objectContaining({ checkId: created.body.id, result: expect.objectContaining({ hasFailures: false }) }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends the graphql-ws example at the first refusal of a bad key, saying so', async () => {
    // Every connection attempt of the example: graphql-ws retries a 4403 five times by default (39 s).
    let attempts = 0;
    const count = (req: { url?: string }) => {
      if (req.url?.startsWith('/graphql')) attempts++;
    };
    s.lookout.app.server.on('upgrade', count);
    const dir = mkdtempSync(path.join(ROOT, '.readme-example-'));
    try {
      const file = path.join(dir, 'follow-results.mjs');
      writeFileSync(file, asRun(example('graphql-ws')));
      const child = spawn(process.execPath, [file], { env: { ...process.env, LOOKOUT_KEY: 'lo_not-a-key' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr.trim()).toBe('Lookout refused the key (4403): check LOOKOUT_KEY');
      expect(attempts).toBe(1);
    } finally {
      s.lookout.app.server.off('upgrade', count);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
