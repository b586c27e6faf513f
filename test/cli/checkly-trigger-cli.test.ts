import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecklyCli, type CliRun } from '../support/mqtt-cli.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/**
 * `checkly trigger` (the real CLI) against Lookout: deployed checks chosen by tags (inner lists
 * AND, outer OR) or ids run as a test session, their results streamed back over the server's MQTT
 * broker and stored like any session (checked through REST).
 */
describe.concurrent('checkly trigger against Lookout', () => {
  let server: TestServer;
  let target: HttpTarget;
  let home: string;
  let cwd: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    [server, target] = await Promise.all([startTestServer(), startHttpTarget()]);
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-trigger-home-'));
    cwd = mkdtempSync(path.join(os.tmpdir(), 'lookout-trigger-cwd-'));
    const ok = [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }];
    const checks = [
      { key: 'cart', name: 'Cart API', tags: ['shop', 'api'], url: `${target.http.url}/json` },
      { key: 'broken', name: 'Payments API', tags: ['shop', 'payments'], url: `${target.http.url}/status/503` },
      { key: 'blog', name: 'Blog API', tags: ['blog'], url: `${target.http.url}/json` },
    ];
    for (const c of checks) {
      const res = await server.a.request('POST', '/v1/checks/api', { name: c.name, tags: c.tags, locations: ['eu-central-1'], request: { url: c.url, assertions: ok } });
      expect(res.status, res.text).toBe(201);
      ids[c.key] = res.body.id;
    }
    // Passes only with the run-time variable: the account's own value is stale.
    expect((await server.a.request('POST', '/v1/variables', { key: 'RUN_TOKEN', value: 'stale-token' })).status).toBe(201);
    const token = await server.a.request('POST', '/v1/checks/api', {
      name: 'Token API', tags: ['env'], locations: ['eu-central-1'],
      request: {
        url: `${target.http.url}/echo`, headers: [{ key: 'X-Token', value: '{{RUN_TOKEN}}' }],
        assertions: [{ source: 'JSON_BODY', property: '$.headers.x-token', comparison: 'EQUALS', target: 'fresh-token-4711' }],
      },
    });
    expect(token.status, token.text).toBe(201);
    ids.token = token.body.id;
  });

  afterAll(async () => {
    await Promise.all([server?.close(), target?.close()]);
    for (const dir of [home, cwd]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const trigger = (args: string[], client: TestClient = server.a): Promise<CliRun> => runChecklyCli(['trigger', ...args], { server, client, home, cwd });

  /** The stored session the CLI ran under `name` (sessions are named by `--test-session-name`). */
  async function sessionNamed(name: string): Promise<Record<string, any>> {
    const res = await server.a.request('GET', '/v1/test-sessions?limit=100');
    const found = (res.body.entries as Record<string, any>[]).find((s) => s.name === name);
    if (!found) throw new Error(`no session named ${name}`);
    return (await server.a.request('GET', `/v1/test-sessions/${found.id}/completion?maxWaitSeconds=5`)).body;
  }

  it('runs the checks carrying all tags of a list, streams their passing results and exits 0', async () => {
    const r = await trigger(['--tags', 'shop,api', '--test-session-name', 'only-cart']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Cart API');
    expect(r.stdout).not.toContain('Payments API');
    expect(r.stdout).toMatch(/1 passed, 1 total/);
    const session = await sessionNamed('only-cart');
    expect(session).toMatchObject({ status: 'PASSED', checkIds: [ids.cart] });
    const [entry] = session.results;
    const result = await server.a.request('GET', `/v1/check-results/${ids.cart}/${entry.resultIds[0]}`);
    expect(result.body).toMatchObject({ hasFailures: false, checkId: ids.cart, runLocation: 'eu-central-1' });
  });

  it('takes the lists as alternatives and exits 1 when a check fails, naming it', async () => {
    const r = await trigger(['--tags', 'payments', '--tags', 'blog', '--test-session-name', 'payments-or-blog']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('Payments API');
    expect(r.stdout).toContain('Blog API');
    expect(r.stdout).toMatch(/1 failed, 1 passed, 2 total/);
    const session = await sessionNamed('payments-or-blog');
    expect(session.status).toBe('FAILED');
    expect([...session.checkIds].sort()).toEqual([ids.broken, ids.blog].sort());
    expect(session.results.find((e: Record<string, any>) => e.checkId === ids.broken).status).toBe('FAILED');
  });

  it('runs checks chosen by id', async () => {
    const r = await trigger(['--check-id', ids.blog!, '--test-session-name', 'by-id']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Blog API');
    expect((await sessionNamed('by-id')).checkIds).toEqual([ids.blog]);
  });

  it.each([
    ['tags no check carries all of', ['--tags', 'shop,blog']],
    ['an unknown tag', ['--tags', 'nowhere']],
  ])('says no check matched (and exits 1) for %s', async (_what, args) => {
    const r = await trigger(args);
    expect(r.stdout).toContain('No matching checks were found.');
    expect(r.code).toBe(1);
  });

  it('does not run another account\'s check by its id', async () => {
    const r = await trigger(['--check-id', ids.cart!], server.b);
    expect(r.stdout).toContain('No matching checks were found.');
    expect(r.code).toBe(1);
  });

  it('runs with run-time variables (--env) over the account\'s, and keeps their values out of the results', async () => {
    const stale = await trigger(['--tags', 'env', '--test-session-name', 'env-stale']);
    expect(stale.code, stale.stdout + stale.stderr).toBe(1);
    const r = await trigger(['--tags', 'env', '--env', 'RUN_TOKEN=fresh-token-4711', '--test-session-name', 'env-fresh']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const session = await sessionNamed('env-fresh');
    expect(session.status).toBe('PASSED');
    const result = await server.a.request('GET', `/v1/check-results/${ids.token}/${session.results[0].resultIds[0]}`);
    expect(result.body.hasFailures).toBe(false);
    expect(result.text).not.toContain('fresh-token-4711');
    // Nothing of the run sticks to the check or the account.
    expect((await server.a.request('GET', `/v1/checks/${ids.token}`)).body.environmentVariables).toEqual([]);
    expect((await server.a.request('GET', '/v1/variables/RUN_TOKEN')).body.value).toBe('stale-token');
  });

  it('retries a failing check as --retries says, and without --retries runs each check once', async () => {
    const r = await trigger(['--tags', 'payments', '--retries', '2', '--test-session-name', 'retried']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const retried = await sessionNamed('retried');
    const final = await server.a.request('GET', `/v1/check-results/${ids.broken}/${retried.results[0].resultIds[0]}`);
    expect(final.body).toMatchObject({ hasFailures: true, attempts: 3, resultType: 'FINAL' });
    const once = await trigger(['--tags', 'payments', '--test-session-name', 'not-retried']);
    expect(once.code).toBe(1);
    const single = (await sessionNamed('not-retried')).results[0];
    expect((await server.a.request('GET', `/v1/check-results/${ids.broken}/${single.resultIds[0]}`)).body.attempts).toBe(1);
  });

  it('answers 403 ERR_NO_MATCHING_CHECKS over REST when nothing matches', async () => {
    const res = await server.a.request('POST', '/next/test-sessions/trigger', { checkRunSuiteId: 'suite-1', targetTags: [['no-such-tag']] });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden', errorCode: 'ERR_NO_MATCHING_CHECKS' });
  });

  it.each([
    ['checkRunSuiteId', {}],
    ['checkRunSuiteId', { checkRunSuiteId: 'a/b' }],
    ['checkId.0', { checkRunSuiteId: 's', checkId: ['not-a-uuid'] }],
    ['targetTags', { checkRunSuiteId: 's', targetTags: 'shop' }],
    ['environmentVariables.0.key', { checkRunSuiteId: 's', environmentVariables: [{ key: 'NOT A KEY', value: 'x' }] }],
    ['testRetryStrategy.maxRetries', { checkRunSuiteId: 's', testRetryStrategy: { type: 'FIXED', maxRetries: 99 } }],
  ])('answers 400 naming %s for a bad trigger body', async (key, body) => {
    const res = await server.a.request('POST', '/next/test-sessions/trigger', body);
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toContain(key);
  });
});
