import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecklyCli } from '../support/mqtt-cli.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The rest of the real `checkly` CLI's surface against Lookout: a failure's reason printed by
 * `checkly test`, `test-sessions list|get`, `account plan`, `members`, `checks run` and `assets list`.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('the checkly CLI surface against Lookout', () => {
  let server: TestServer;
  let target: HttpTarget;
  let home: string;
  let project: string;
  let session: Record<string, any>;

  beforeAll(async () => {
    [server, target] = await Promise.all([startTestServer(), startHttpTarget()]);
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-surface-home-'));
    project = mkdtempSync(path.join(os.tmpdir(), 'lookout-surface-project-'));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'surface', version: '1.0.0', type: 'module' }));
    writeFileSync(path.join(project, 'checkly.config.mjs'), `import { defineConfig } from 'checkly'
export default defineConfig({
  projectName: 'Surface', logicalId: 'surface',
  checks: { checkMatch: '**/*.check.mjs', frequency: 10, locations: ['eu-central-1'] },
  cli: { runLocation: 'eu-central-1' },
})
`);
    writeFileSync(path.join(project, 'pay.check.mjs'), `
import { ApiCheck } from 'checkly/constructs'
new ApiCheck('payments-api', { name: 'Payments API', request: { url: '${target.http.url}/status/503', method: 'GET',
  assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] } })
`);
    symlinkSync(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  });

  afterAll(async () => {
    await Promise.all([server?.close(), target?.close()]);
    for (const dir of [home, project]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const cli = (args: string[]) => runChecklyCli(args, { server, client: server.a, home, cwd: project });

  /** The stored session `checkly test` made, finished. */
  const lastSession = async () => {
    const { entries } = (await server.a.request('GET', '/v1/test-sessions?limit=1')).body;
    return (await server.a.request('GET', `/v1/test-sessions/${entries[0].id}/completion?maxWaitSeconds=10`)).body;
  };

  it('checkly test --verbose prints why a check failed: the response and the failed assertion', async () => {
    const r = await cli(['test', '--verbose', '--test-session-name', 'why-it-failed']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('Payments API');
    expect(r.stdout).toContain('Status Code: 503');
    expect(r.stdout).toMatch(/status code.*equals.*200/i);
    session = await lastSession();
    expect(session.name).toBe('why-it-failed');
  });

  it('test-sessions list and get show the session, its outcome and how long it took', async () => {
    const list = await cli(['test-sessions', 'list']);
    expect(list.code, list.stdout + list.stderr).toBe(0);
    expect(list.stdout).toContain('why-it-failed');
    const json = JSON.parse((await cli(['test-sessions', 'list', '-o', 'json'])).stdout);
    expect(json.data[0]).toMatchObject({ id: session.id, provider: 'API', failed: [expect.any(String)], passed: [], running: [] });
    const get = await cli(['test-sessions', 'get', session.id]);
    expect(get.code, get.stdout + get.stderr).toBe(0);
    expect(get.stdout).not.toContain('NaN');
    expect(get.stdout).toMatch(/Time elapsed:\s+\d+m?s/);
    expect(get.stdout).toMatch(/Payments .*API\s+failed\s+FINAL/);
    expect(get.stdout).toContain(session.results[0].resultIds[0]);
  });

  it('assets list shows the result\'s log and check-run data, and their URLs answer', async () => {
    const resultId = session.results[0].resultIds[0];
    const r = await cli(['assets', 'list', '--test-session-id', session.id, '--result-id', resultId, '-o', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const assets = JSON.parse(r.stdout).data as Record<string, any>[];
    expect(assets.map((a) => a.name)).toEqual(['logs.json', 'check-run-data.json']);
    const data = await server.a.request('GET', assets[1]!.url);
    expect(data.status).toBe(200);
    expect(data.body).toMatchObject({ response: { status: 503 }, assertions: [{ source: 'STATUS_CODE', passed: false }] });
    // Another account cannot read them.
    expect((await server.b.request('GET', assets[1]!.url)).status).toBe(404);
  });

  it('account plan shows the plan, every check type enabled, and members the account\'s people with their roles', async () => {
    const plan = await cli(['account', 'plan', '-o', 'json']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const body = JSON.parse(plan.stdout);
    expect(body.entitlements).toContainEqual(expect.objectContaining({ key: 'API_CHECKS', enabled: true, type: 'flag' }));
    expect(body.locations.all.length).toBeGreaterThan(0);
    expect((await cli(['account', 'plan'])).code).toBe(0);
    const invited = await server.a.request('POST', '/v1/accounts/me/invitations', { email: 'viewer@example.com', role: 'READ_ONLY' });
    const accepted = await server.raw('POST', `/v1/invitations/${invited.body.link.split('/').at(-1)}/accept`, {
      body: JSON.stringify({ name: 'Viewer', password: 'a long enough password' }), headers: { 'content-type': 'application/json' },
    });
    expect(accepted.status).toBe(200);
    const members = await cli(['members']);
    expect(members.code, members.stdout + members.stderr).toBe(0);
    expect(members.stdout).toContain('owner@localhost');
    expect(members.stdout).toMatch(/owner/i);
    expect(members.stdout).toContain('viewer@example.com');
    expect(members.stdout).toMatch(/read.?only/i);
  });

  it('checks run runs a deployed check now and waits for its result; none matching exits 1', async () => {
    const check = (await server.a.request('POST', '/v1/checks/api', {
      name: 'Cart API', locations: ['eu-central-1'], request: { url: `${target.http.url}/json`, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    })).body;
    const r = await cli(['checks', 'run', '--check-id', check.id, '-o', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const { sessions } = JSON.parse(r.stdout);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ checkId: check.id, status: 'PASSED', results: [{ checkId: check.id, hasFailures: false, runLocation: 'eu-central-1' }] });
    const none = await cli(['checks', 'run', '--tags', 'no-such-tag']);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('No matching checks');
  });
});
