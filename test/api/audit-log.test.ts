import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { auditScopesOpen } from '../../src/store/audit-actor-scope.js';
import { gql } from '../support/graphql.js';
import { until } from '../support/until.js';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../support/test-server.js';

const WEBHOOK_SECRET = 'whsec-audit-0123456789-topsecret';
const VARIABLE_SECRET = 'var-secret-value-abcdef-9876';
const VARIABLE_SECRET_2 = 'var-secret-value-ghijkl-5432';

/** Every entry of the account's log, newest first, over as many pages as it takes. */
async function wholeLog(client: TestClient, query = ''): Promise<any[]> {
  const entries: any[] = [];
  let nextId: string | null = null;
  do {
    const res: TestResponse = await client.request('GET', `/v1/accounts/me/audit-log?limit=100${query}${nextId ? `&nextId=${nextId}` : ''}`);
    expect(res.status).toBe(200);
    entries.push(...res.body.entries);
    nextId = res.body.nextId;
  } while (nextId);
  return entries;
}

describe.each(BACKENDS)('audit log on $name', (backend) => {
  let s: TestServer;
  let target: Server;
  let targetUrl: string;
  /** Who the first account's key acts as: the bootstrap key is a service key, so the key itself. */
  let actor: { kind: string; id: string };
  beforeAll(async () => {
    s = await startTestServer({ backend });
    target = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const keys = await s.a.request('GET', '/v1/accounts/me/api-keys');
    expect(keys.body[0].kind).toBe('service');
    actor = { kind: 'key', id: keys.body[0].id };
  });
  afterAll(async () => {
    await s?.close();
    target?.close();
  });

  it('lists each change of a scripted REST session exactly once, with who, how, what and which fields, and no secret value', async () => {
    const started = new Date().toISOString();
    const check = await s.a.request('POST', '/v1/checks/api', { name: 'Audited', frequency: 5, request: { url: 'https://example.test/health' } });
    expect(check.status).toBe(201);
    const checkId = check.body.id as string;
    expect((await s.a.request('PUT', `/v1/checks/${checkId}`, { name: 'Audited, renamed' })).status).toBe(200);
    expect((await s.a.request('PUT', `/v1/checks/${checkId}`, { frequency: 10 })).status).toBe(200);
    // Sent back as read: changes nothing, so no entry.
    expect((await s.a.request('PUT', `/v1/checks/${checkId}`, { frequency: 10 })).status).toBe(200);
    expect((await s.a.request('DELETE', `/v1/checks/${checkId}`)).status).toBe(204);

    const channel = await s.a.request('POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'Signed', url: 'https://example.com/s', webhookSecret: WEBHOOK_SECRET } });
    expect(channel.status).toBe(201);
    const channelId = String(channel.body.id);
    expect((await s.a.request('PUT', `/v1/alert-channels/${channelId}`, { config: { webhookSecret: `${WEBHOOK_SECRET}-2` } })).status).toBe(200);

    expect((await s.a.request('POST', '/v1/variables', { key: 'AUDITED_SECRET', value: VARIABLE_SECRET, secret: true })).status).toBe(201);
    expect((await s.a.request('PUT', '/v1/variables/AUDITED_SECRET', { value: VARIABLE_SECRET_2 })).status).toBe(200);

    const log = await wholeLog(s.a, `&from=${encodeURIComponent(started)}`);
    const summary = log.map((e) => [e.action, e.resourceType, e.resourceId]);
    expect(summary).toEqual([
      ['update', 'variable', 'AUDITED_SECRET'],
      ['create', 'variable', 'AUDITED_SECRET'],
      ['update', 'alert_channel', channelId],
      ['create', 'alert_channel', channelId],
      ['delete', 'check', checkId],
      ['update', 'check', checkId],
      ['update', 'check', checkId],
      ['create', 'check', checkId],
    ]);
    for (const entry of log) {
      expect(entry).toMatchObject({ actor: { ...actor, label: expect.stringMatching(/^key /) }, via: 'rest', ip: expect.stringMatching(/127\.0\.0\.1/) });
    }
    expect(log[0].fields).toEqual(['value']);
    expect(log[2].fields).toEqual(expect.arrayContaining(['secrets.webhookSecret']));
    expect(log[4].fields).toEqual([]);
    expect(log[5].fields).toContain('frequency');
    expect(log[6].fields).toContain('name');
    expect(log[6].fields).not.toContain('frequency');
    expect(log[7].fields).toEqual(expect.arrayContaining(['name', 'frequency', 'request']));

    // Nowhere in the log, neither in the answer nor in the stored rows.
    const rows = await s.lookout.store.db.query('SELECT * FROM audit_log');
    for (const text of [JSON.stringify(log), JSON.stringify(rows)]) {
      for (const secret of [WEBHOOK_SECRET, VARIABLE_SECRET, VARIABLE_SECRET_2]) expect(text).not.toContain(secret);
    }
  });

  it('says a change came through GraphQL, the console, the checkly CLI or a deploy', async () => {
    const started = new Date().toISOString();
    const created = await gql(s.a, 'mutation { r: createEnvironmentVariable(input: {key: "VIA_GRAPHQL", value: "x"}) { userErrors { field } } }');
    expect(created.data.r.userErrors).toEqual([]);
    const fromConsole = await gql(s.a, 'mutation { r: createEnvironmentVariable(input: {key: "VIA_CONSOLE", value: "x"}) { userErrors { field } } }', undefined, { 'x-lookout-via': 'console' });
    expect(fromConsole.data.r.userErrors).toEqual([]);
    expect((await s.a.request('POST', '/v1/variables', { key: 'VIA_CLI', value: 'x' }, { 'x-checkly-source': 'CLI' })).status).toBe(201);
    const log = await wholeLog(s.a, `&resourceType=variable&from=${encodeURIComponent(started)}`);
    expect(log.map((e) => [e.resourceId, e.via, e.actor.id])).toEqual([
      ['VIA_CLI', 'cli', actor.id], ['VIA_CONSOLE', 'console', actor.id], ['VIA_GRAPHQL', 'graphql', actor.id],
    ]);
  });

  it('records a check state change made by the runner as the system, even for a run somebody asked for', async () => {
    const check = await s.a.request('POST', '/v1/checks/api', { name: 'Run me', frequency: 60, request: { url: targetUrl } });
    expect(check.status).toBe(201);
    const run = await s.a.request('POST', `/v1/checks/${check.body.id}/run`);
    expect(run.status).toBeLessThan(300);
    const log = await wholeLog(s.a, `&resourceId=${check.body.id}`);
    expect(log.map((e) => [e.action, e.actor.kind, e.via, e.fields])).toEqual([
      ['update', 'system', 'runner', ['status']],
      ['create', actor.kind, 'rest', expect.any(Array)],
    ]);
    expect(log[0].actor).toEqual({ kind: 'system', id: null, label: 'Lookout' });
  });

  it('filters by actor and action and pages with nextId', async () => {
    const deletes = await wholeLog(s.a, '&action=delete');
    expect(deletes.length).toBeGreaterThan(0);
    expect(deletes.every((e) => e.action === 'delete')).toBe(true);
    const byActor = await wholeLog(s.a, `&actorId=${actor.id}`);
    const all = await wholeLog(s.a);
    expect(byActor.length).toBeGreaterThan(0);
    expect(byActor.length).toBe(all.filter((e) => e.actor.id === actor.id).length);
    const first = await s.a.request('GET', '/v1/accounts/me/audit-log?limit=2');
    expect(first.body).toMatchObject({ length: 2, nextId: first.body.entries[1].id });
    const second = await s.a.request('GET', `/v1/accounts/me/audit-log?limit=2&nextId=${first.body.nextId}`);
    expect([...first.body.entries, ...second.body.entries].map((e: any) => e.id)).toEqual(all.slice(0, 4).map((e) => e.id));
    // Another account sees none of it.
    const other = await wholeLog(s.b);
    expect(other.some((e) => all.some((x) => x.id === e.id))).toBe(false);
  });

  it('closes every request\'s actor scope once it is answered, so nothing pays for it between requests', async () => {
    await s.a.request('POST', '/v1/snippets', { name: 'scoped', script: '//' });
    await s.a.request('POST', '/v1/snippets', { name: '' }); // refused: still closed
    await gql(s.a, 'mutation { createSnippet(input: {name: "via graphql", script: "//"}) { snippet { id } } }');
    await until(async () => auditScopesOpen() === 0, 'every scope closed');
    expect(auditScopesOpen()).toBe(0);
  });

  it('answers a 400 naming the key of a bad filter', async () => {
    for (const [query, key] of [
      ['action=rename', 'action'], ['from=yesterday', 'from'], ['nextId=abc', 'nextId'], ['limit=0', 'limit'],
      ['from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'from'],
    ]) {
      const res = await s.a.request('GET', `/v1/accounts/me/audit-log?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.validation.keys, query).toContain(key);
    }
  });
});
