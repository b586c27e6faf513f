import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateLocationLane } from '../../src/domain/agent-lanes.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Sends a raw HTTP request over a socket and resolves with what came back once the socket closes. */
function rawRequest(url: string, head: string, body: Buffer, endEarly: boolean): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(head);
      socket.write(body);
      // A truncated upload: the client stops sending before the declared length and goes away.
      if (endEarly) socket.end();
    });
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
}

describe('asset uploads of agents', () => {
  let s: TestServer;
  let key: string;
  let jobId: string;
  const agentId = randomUUID();
  const assetsDir = path.join('/tmp', `agent-uploads-${randomUUID()}`);

  beforeAll(async () => {
    s = await startTestServer({ config: { assetsDir } });
    const location = await s.a.request('POST', '/v1/private-locations', { name: 'Uploads', slugName: 'uploads' });
    key = location.body.keys[0].rawKey;
    const check = await s.a.request('POST', '/v1/checks/api', {
      name: 'uploads', locations: [], privateLocations: ['uploads'], request: { method: 'GET', url: 'http://127.0.0.1:9/none' },
    });
    await s.lookout.store.runJobs.enqueue([{ checkId: check.body.id, slotAt: new Date(), locations: ['uploads'], lane: privateLocationLane(s.a.accountId, 'uploads') }]);
    const leased = await s.raw('POST', '/v1/agent/leases', {
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agentId, version: 't', hostname: 'h', concurrency: 1, running: 0, max: 1 }),
    });
    jobId = leased.body.jobs[0].jobId;
  });
  afterAll(async () => s?.close());

  const head = (file: string, length: number) =>
    `PUT /v1/agent/jobs/${jobId}/assets/${file} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Lookout-Agent: ${agentId}\r\n` +
    `Content-Type: application/octet-stream\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;

  it('keeps a whole upload under its name, and nothing of a truncated one', async () => {
    const whole = `${randomUUID()}.png`;
    const answer = await rawRequest(s.url, head(whole, 5), Buffer.from('12345'), false);
    expect(answer).toMatch(/^HTTP\/1.1 204/);
    const cut = `${randomUUID()}.png`;
    await rawRequest(s.url, head(cut, 1_000), Buffer.alloc(100, 1), true);
    // The part file of the cut upload is removed once the server has seen the body end early.
    for (const end = Date.now() + 10_000; (await readdir(path.join(assetsDir, '.uploads')).catch(() => [])).length > 0;) {
      if (Date.now() > end) throw new Error('the truncated upload\'s part file was left behind');
      await new Promise((r) => setTimeout(r, 20));
    }
    const files = await readdir(assetsDir);
    expect(files).toContain(whole);
    expect(files).not.toContain(cut);
  });
});
