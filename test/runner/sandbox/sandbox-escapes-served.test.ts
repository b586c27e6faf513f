import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../support/backends.js';
import { CHROMIUM } from '../../support/chromium.js';
import { sandboxWorks, SANDBOX_SKIP_REASON } from '../../support/sandbox.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/**
 * The same escapes through the whole service, on each store: one account's checks (a multi-step
 * script, an API check's setup script, code submitted by `checkly test`) go after the server's environment, its data and the other
 * account's uploaded code bundle and variables; every result is recorded, nothing leaks, and the
 * server goes on serving.
 */

const SERVER_SECRET = `served-secret-${process.pid}-${Date.now()}`;
const BUNDLE_MARKER = `bundle-of-b-${process.pid}`;
const B_VARIABLE = `variable-of-b-${process.pid}`;

/** Reads everything reachable and logs it: whatever comes back must hold none of the markers. */
function snoop(assetsDir: string): string {
  return `
    const fs = require('fs');
    const path = require('path');
    const seen = [];
    const walk = (dir, depth) => {
      let names = [];
      try { names = fs.readdirSync(dir); } catch (e) { seen.push(dir + ': ' + e.code); return; }
      for (const name of names) {
        const file = path.join(dir, name);
        try {
          const info = fs.statSync(file);
          if (info.isDirectory() && depth < 4) walk(file, depth + 1);
          else if (info.isFile() && info.size < 100000) seen.push(file + '=' + fs.readFileSync(file, 'utf8'));
        } catch (e) { seen.push(file + ': ' + e.code); }
      }
    };
    walk(${JSON.stringify(assetsDir)}, 0);
    walk(${JSON.stringify(path.dirname(assetsDir))}, 0);
    for (const f of ['/proc/1/environ', '/proc/${process.pid}/environ', '/proc/self/environ']) {
      try { seen.push(f + '=' + fs.readFileSync(f, 'utf8')); } catch (e) { seen.push(f + ': ' + e.code); }
    }
    console.log('SEEN ' + JSON.stringify({ env: process.env, seen }));
  `;
}

describe.skipIf(!sandboxWorks)(`check code on a running server${sandboxWorks ? '' : ` (skipped: ${SANDBOX_SKIP_REASON})`}`, () => {
  describe.each(BACKENDS)('on $name', (backend) => {
    let s: TestServer;
    let dir: string;
    let assetsDir: string;
    let target: http.Server;
    let targetUrl: string;

    beforeAll(async () => {
      // In the server's own environment from its start, as DATABASE_URL or LOOKOUT_API_KEY would be.
      process.env.LOOKOUT_SERVED_ESCAPE_SECRET = SERVER_SECRET;
      dir = await mkdtemp(path.join(tmpdir(), 'lookout-served-escapes-'));
      assetsDir = path.join(dir, 'data', 'assets');
      target = http.createServer((_req, res) => res.end('ok'));
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
      s = await startTestServer({ backend, config: { assetsDir, dataDir: path.join(dir, 'data'), chromiumPath: CHROMIUM } });
      // A stored file in account b's storage folder, in plain text (code bundles must be archives, compressed).
      const upload = await fetch(`${s.url}/next/checkly-storage/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.b.apiKey}`, 'x-lookout-account': s.b.accountId, 'content-type': 'application/octet-stream' },
        body: Buffer.from(BUNDLE_MARKER),
      });
      expect(upload.status).toBe(200);
      expect((await s.b.request('POST', '/v1/variables', { key: 'B_TOKEN', value: B_VARIABLE, secret: true })).status).toBe(201);
    });

    afterAll(async () => {
      delete process.env.LOOKOUT_SERVED_ESCAPE_SECRET;
      await s?.close();
      await new Promise<void>((resolve) => target?.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    });

    const runNow = async (checkId: string) => {
      const run = await s.a.request('POST', `/v1/checks/${checkId}/run`);
      expect(run.status, run.text).toBe(200);
      return run.body.results[0];
    };
    const expectNothingLeaked = (text: string) => {
      for (const marker of [SERVER_SECRET, BUNDLE_MARKER, B_VARIABLE, s.a.apiKey, s.b.apiKey]) expect(text).not.toContain(marker);
      if (process.env.TEST_DATABASE_URL) expect(text).not.toContain(process.env.TEST_DATABASE_URL);
    };

    it('records a multi-step script that snoops, and it saw nothing of the server or the other account', async () => {
      const check = await s.a.request('POST', '/v1/checks/multistep', {
        name: 'snoop', locations: ['eu-west-1'], runtimeId: '2024.02', script: snoop(assetsDir),
      });
      expect(check.status, check.text).toBe(201);
      const result = await runNow(check.body.id);
      expect(JSON.stringify(result)).toContain('SEEN ');
      expect(result.hasErrors).toBe(false);
      expectNothingLeaked(JSON.stringify(result));
      const stored = await s.a.request('GET', `/v2/check-results/${check.body.id}`);
      expect(stored.body.entries.map((r: { id: string }) => r.id)).toContain(result.id);
    });

    it('records an API check whose setup script snoops, and it saw nothing of the server or the other account', async () => {
      const check = await s.a.request('POST', '/v1/checks/api', {
        name: 'snooping setup', locations: ['eu-west-1'], localSetupScript: snoop(assetsDir),
        request: { url: targetUrl, method: 'GET', assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
      });
      expect(check.status, check.text).toBe(201);
      const result = await runNow(check.body.id);
      expect(JSON.stringify(result)).toContain('SEEN ');
      expect(result.hasFailures).toBe(false);
      expectNothingLeaked(JSON.stringify(result));
    });

    it('runs the code `checkly test` submits (a project file beside the script) in the sandbox, and it saw nothing either', async () => {
      const started = await s.a.request('POST', '/v1/test-sessions/run', {
        name: 'snooping project',
        checkRunJobs: [{
          checkType: 'MULTI_STEP', logicalId: 'snoop', name: 'Snoop', scriptPath: 'checks/snoop.spec.js', dependencies: [0],
          script: "require('./snoop.js')",
        }],
        sharedFiles: [{ path: 'checks/snoop.js', content: snoop(assetsDir) }],
      });
      expect(started.status, started.text).toBe(202);
      const done = await s.a.request('GET', `/v1/test-sessions/${started.body.testSessionId}/completion?maxWaitSeconds=30`);
      expect(done.body.status).toBe('PASSED');
      const result = await s.a.request('GET', `/v1/test-sessions/${started.body.testSessionId}/results/${done.body.results[0].resultIds[0]}`);
      expect(result.text).toContain('SEEN ');
      expectNothingLeaked(result.text);
    });

    it('records a script stopped by the memory limit as a failed run with SANDBOX_MEMORY, and goes on serving', async () => {
      const check = await s.a.request('POST', '/v1/checks/api', {
        name: 'hungry setup', locations: ['eu-west-1'],
        localSetupScript: 'const kept = []; for (;;) { kept.push(Buffer.alloc(64 * 1024 * 1024, 1)); await new Promise((r) => setImmediate(r)); }',
        request: { url: targetUrl, method: 'GET', assertions: [] },
      });
      const result = await runNow(check.body.id);
      expect(result.hasFailures).toBe(true);
      expect(JSON.stringify(result)).toContain('SANDBOX_MEMORY');
      expect((await s.raw('GET', '/health')).status).toBe(200);
      const stored = await s.a.request('GET', `/v2/check-results/${check.body.id}`);
      expect(stored.body.entries[0]).toMatchObject({ id: result.id, hasFailures: true });
    });
  });
});
