import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { connectGraphqlWs } from '../support/graphql-ws-client.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/until.js';

/**
 * `lookout serve` stopped with SIGTERM while clients hold long-lived connections open (an event
 * stream, a graphql-ws subscription, an MQTT client, idle keep-alive HTTP sockets, an agent's
 * long poll for runs): it ends them and exits 0, without the "took longer" fallback exit.
 */
const KEY = 'lo_shutdown_test_key_0123456789abcdef0';
const ACCOUNT = '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7';
const HEADERS = { authorization: `Bearer ${KEY}`, 'x-lookout-account': ACCOUNT };

/** A GET on a keep-alive agent, body read: the socket then idles in the agent's pool. */
function getKeptAlive(agent: http.Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent, headers: HEADERS }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

describe('stopping `lookout serve` with long-lived connections open', { timeout: 120_000 }, () => {
  let dir: string;
  let server: SpawnedServer | undefined;

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server?.exited;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('ends every connection and exits 0 on SIGTERM', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lookout-shutdown-'));
    server = await spawnServer({ LOOKOUT_DATA_DIR: dir, LOOKOUT_API_KEY: KEY, LOOKOUT_ACCOUNT_ID: ACCOUNT, LOOKOUT_RUNNER: 'off' });
    const s = server;

    const stream = await fetch(`${s.url}/v1/events/stream`, { headers: HEADERS });
    expect(stream.status).toBe(200);
    const streamEnded = (async () => {
      const reader = stream.body!.getReader();
      for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
    })();

    const ws = await connectGraphqlWs(s.url, { authorization: `Bearer ${KEY}`, accountId: ACCOUNT });
    const subscriptionEnded = new Promise<void>((resolve) => {
      ws.subscribe({ query: 'subscription { checkResultCreated { check { name } } }' }, { next: () => {}, error: () => resolve(), complete: () => resolve() });
    });

    const broker = await mqtt.connectAsync(`${s.url.replace(/^http/, 'ws')}/mqtt`, { username: ACCOUNT, password: KEY, reconnectPeriod: 0, protocolVersion: 4 });
    await broker.subscribeAsync(`account/${ACCOUNT}/#`);
    const brokerClosed = new Promise<void>((resolve) => broker.once('close', () => resolve()));

    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const statuses = await Promise.all([1, 2, 3, 4].map(() => getKeptAlive(agent, `${s.url}/v1/checks`)));
    expect(statuses).toEqual([200, 200, 200, 200]);

    // A private-location agent long-polling for runs (up to 20 s) when the signal comes.
    const location = await (await fetch(`${s.url}/v1/private-locations`, {
      method: 'POST', headers: { ...HEADERS, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Shutdown', slugName: 'shutdown' }),
    })).json() as { id: string; keys: { rawKey: string }[] };
    const leasing = fetch(`${s.url}/v1/agent/leases`, {
      method: 'POST', headers: { authorization: `Bearer ${location.keys[0]!.rawKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: randomUUID(), version: 'test', hostname: 'test-host', concurrency: 1, running: 0, max: 1, waitMs: 20_000 }),
    }).then((res) => res.status, () => 0);
    // The lease reports the agent in before it waits: once it is listed, the long poll is in flight.
    await until(async () => {
      const metrics = await (await fetch(`${s.url}/v1/private-locations/${location.id}/metrics`, { headers: HEADERS })).json() as { agents?: unknown[] };
      return (metrics.agents?.length ?? 0) > 0;
    }, 'the agent to be reported in');

    s.child.kill('SIGTERM');
    const code = await s.exited;
    await Promise.all([streamEnded, subscriptionEnded, brokerClosed, leasing]);
    void ws.dispose();
    agent.destroy();
    expect(s.output()).not.toMatch(/took longer/);
    expect(code).toBe(0);
  });
});
