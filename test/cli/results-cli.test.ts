import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { httpProbe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The real `checkly` CLI reading results, statuses, error groups and analytics from Lookout: the
 * commands that show a check's runs must work unchanged. Read-only, so one backend is enough.
 */

const CLI_DIR = fileURLToPath(new URL('../../node_modules/checkly/', import.meta.url));
const CLI_BIN = path.join(CLI_DIR, (JSON.parse(readFileSync(path.join(CLI_DIR, 'package.json'), 'utf8')) as { bin: { checkly: string } }).bin.checkly);
const MINUTE = 60_000;

describe.concurrent('the checkly CLI reading runs from Lookout', () => {
  let server: TestServer;
  let home: string;
  let check: Record<string, any>;
  let results: Record<string, any>[];

  let retried: { attempt: Record<string, any>; final: Record<string, any> };

  beforeAll(async () => {
    server = await startTestServer();
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-cli-results-'));
    check = (await server.a.request('POST', '/v1/checks/api', { name: 'Checkout API', request: { url: 'https://shop.test/checkout' } })).body;
    const rec = testRecorder(server.lookout.store);
    const c = runnable(server.a, check);
    // A run that failed once and passed on its retry, then four runs of which the newest failed.
    const sequenceId = randomUUID();
    const attempt = await rec.record({
      check: c, sequenceId, resultType: 'ATTEMPT',
      probe: httpProbe({ at: new Date(Date.now() - 51 * MINUTE), status: 500, hasFailures: true }),
    });
    const final = await rec.record({ check: c, sequenceId, attempts: 2, probe: httpProbe({ at: new Date(Date.now() - 50 * MINUTE) }) });
    retried = { attempt, final };
    results = [];
    for (let i = 4; i >= 1; i--) {
      const failing = i === 1;
      results.unshift(await rec.record({
        check: c, location: i % 2 ? 'eu-west-1' : 'us-east-1', sequenceId: randomUUID(),
        probe: httpProbe({
          at: new Date(Date.now() - i * 10 * MINUTE), status: failing ? 502 : 200, hasFailures: failing, hasErrors: failing,
          errors: failing ? [{ code: 'HTTP_502', message: 'upstream connect error after 3021ms' }] : [],
        }),
      }));
    }
    results.push(final);
  });

  afterAll(async () => {
    await server?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '', CHECKLY_ENV: 'local', CHECKLY_API_URL: server.url, CHECKLY_API_KEY: server.a.apiKey,
      CHECKLY_ACCOUNT_ID: server.a.accountId, CHECKLY_SKIP_NEW_VERSION_CHECK: 'true', CHECKLY_NO_DOTENV: '1',
      HOME: home, XDG_CONFIG_HOME: home, NO_COLOR: '1',
    };
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI_BIN, ...args], { cwd: home, env, timeout: 60_000, maxBuffer: 10 * 1024 * 1024 }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) });
      });
    });
  }

  it('checks get shows the status, the stats of the last 24 hours, the error group and the recent results', async ({ expect }) => {
    const r = await cli(['checks', 'get', check.id]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Status:\s+failing/);
    // Five FINAL runs, one failed; the failed ATTEMPT before a passing retry does not count.
    expect(r.stdout).toMatch(/Availability:\s+80\.00%/);
    expect(r.stdout).toMatch(/Response Time \(p95\):\s+100ms/);
    expect(r.stdout).toContain('upstream connect error after <duration>');
    const recent = r.stdout.slice(r.stdout.indexOf('RECENT RESULTS'));
    for (const result of results) expect(recent).toContain(result.id);
    expect(recent).not.toContain(retried.attempt.id);
    expect(recent.split('\n').find((l) => l.includes(results[0]!.id))).toMatch(/eu-west-1\s+error\s+100ms/);
  });

  it('checks get -o json passes the status, results, error groups and analytics through', async ({ expect }) => {
    const r = await cli(['checks', 'get', check.id, '-o', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.status).toMatchObject({ checkId: check.id, hasFailures: true, hasErrors: true });
    expect(out.results.map((x: { id: string }) => x.id)).toEqual(results.map((x) => x.id));
    expect(out.nextId).toBeNull();
    expect(out.errorGroups).toHaveLength(1);
    expect(out.errorGroups[0]).toMatchObject({ cleanedErrorMessage: 'upstream connect error after <duration>', archivedUntilNextEvent: false });
    expect(out.analytics.series[0].data[0]).toMatchObject({ availability: 80, responseTime_avg: 100 });
  });

  it('checks get --result --include-attempts shows the result, its timings and the attempts of its run', async ({ expect }) => {
    const r = await cli(['checks', 'get', check.id, '--result', retried.final.id, '--include-attempts']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Attempts:\s+2/);
    expect(r.stdout).toMatch(/TTFB:\s+50ms/);
    const attempts = r.stdout.slice(r.stdout.indexOf('ATTEMPTS'));
    expect(attempts).toContain(retried.attempt.id);
    expect(attempts).toContain(retried.final.id);
    expect(attempts).toContain('(FINAL)');
  });

  it('checks stats shows availability and response times from the batch analytics', async ({ expect }) => {
    const r = await cli(['checks', 'stats']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.startsWith('Checkout API'));
    expect(row).toMatch(/failing\s+80\.00%\s+0\.100s\s+0\.100s/);
  });
});
