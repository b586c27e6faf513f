import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditActor } from '../../src/domain/audit-actor.js';
import { runAsAuditActor, runAsSystem } from '../../src/store/audit-actor-scope.js';
import type { Store } from '../../src/store/create-store.js';
import { isWriteStatement } from '../../src/store/is-write-statement.js';
import { BACKENDS, openTestStore } from '../support/backends.js';

const actor: AuditActor = { kind: 'key', id: 'key-1', label: 'key CI', via: 'rest', ip: '192.0.2.7' };
const check = (name: string, extra: Record<string, unknown> = {}) => ({ name, activated: true, groupId: null, tags: [], frequency: 5, ...extra });

describe('isWriteStatement', () => {
  it('tells writes from reads', () => {
    expect(isWriteStatement('  insert into x values (1)')).toBe(true);
    expect(isWriteStatement('UPDATE x SET a = 1')).toBe(true);
    expect(isWriteStatement('DELETE FROM x')).toBe(true);
    expect(isWriteStatement('WITH d AS (SELECT 1) DELETE FROM x USING d')).toBe(true);
    expect(isWriteStatement('SELECT * FROM checks')).toBe(false);
    expect(isWriteStatement('WITH a AS (SELECT 1) SELECT * FROM a')).toBe(false);
  });
});

describe.each(BACKENDS)('audit log trigger on $name', (backend) => {
  let store: Store;
  let accountId: string;
  beforeAll(async () => {
    store = await openTestStore(backend);
    accountId = (await store.accounts.create({ name: 'Audited' })).id;
  });
  afterAll(async () => store?.close());

  const entriesOf = (resourceId: string) => store.auditLog.list(accountId, { resourceId }, 100);

  it('records a single write outside a transaction with the actor of the code running it', async () => {
    const id = randomUUID();
    await runAsAuditActor(actor, () => store.checks.insert(accountId, { id, checkType: 'API', data: check('one') }));
    const [entry, ...rest] = await entriesOf(id);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      actor_kind: 'key', actor_id: 'key-1', actor_label: 'key CI', via: 'rest', ip: '192.0.2.7',
      action: 'create', resource_type: 'check', resource_id: id,
    });
    expect(entry!.fields).toEqual(expect.arrayContaining(['name', 'activated', 'frequency', 'checkType', 'tags']));
    expect(entry!.fields).not.toContain('changeXid');
    expect(entry!.fields).not.toContain('createdAt');
  });

  it('merges the row changes of one resource in one transaction into one entry, and names changed fields only', async () => {
    const id = randomUUID();
    await store.checks.insert(accountId, { id, checkType: 'API', data: check('two') });
    await runAsAuditActor(actor, () => store.transaction(async (repos) => {
      await repos.checks.update(accountId, id, check('two renamed'));
      await repos.checks.update(accountId, id, check('two renamed', { frequency: 10 }));
    }));
    const [update, create] = await entriesOf(id);
    expect(create).toMatchObject({ action: 'create', actor_kind: 'system', actor_id: null, via: 'runner' });
    expect(update).toMatchObject({ action: 'update', actor_kind: 'key' });
    expect(update!.fields).toEqual(['frequency', 'name']);
  });

  it('writes nothing for an update that changes nothing', async () => {
    const id = randomUUID();
    await store.checks.insert(accountId, { id, checkType: 'API', data: check('same') });
    await runAsAuditActor(actor, () => store.checks.update(accountId, id, check('same')));
    expect((await entriesOf(id)).map((e) => e.action)).toEqual(['create']);
  });

  it('records a delete once, without the rows its cascade removed', async () => {
    const id = randomUUID();
    await store.checks.insert(accountId, { id, checkType: 'API', data: check('gone') });
    await store.checkStatuses.insertIfAbsent(accountId, id, 'gone', {
      hasFailures: false, hasErrors: false, isDegraded: false, longestRun: null, shortestRun: null, lastRunLocation: null,
      lastCheckRunId: null, sslDaysRemaining: null, locationRunTimes: {}, lastResultAt: null,
    } as never);
    await runAsAuditActor(actor, () => store.checks.delete(accountId, id));
    const entries = await entriesOf(id);
    expect(entries.map((e) => [e.action, e.actor_kind, e.fields])).toEqual([
      ['delete', 'key', []], ['update', 'system', ['status']], ['create', 'system', expect.any(Array)],
    ]);
  });

  it('records a state change of a check status row, not every result', async () => {
    const id = randomUUID();
    await store.checks.insert(accountId, { id, checkType: 'API', data: check('state') });
    const state = (hasFailures: boolean, longestRun: number) => ({
      hasFailures, hasErrors: false, isDegraded: false, longestRun, shortestRun: 1, lastRunLocation: 'eu-west-1',
      lastCheckRunId: randomUUID(), sslDaysRemaining: null, locationRunTimes: {}, lastResultAt: new Date(),
    }) as never;
    await store.checkStatuses.insertIfAbsent(accountId, id, 'state', state(false, 5));
    await store.checkStatuses.update(accountId, id, 'state', state(false, 6));
    await store.checkStatuses.update(accountId, id, 'state', state(false, 7));
    await store.checkStatuses.update(accountId, id, 'state', state(true, 8));
    const entries = await entriesOf(id);
    expect(entries.map((e) => [e.action, e.actor_kind, e.via, e.fields])).toEqual([
      ['update', 'system', 'runner', ['status']], ['update', 'system', 'runner', ['status']], ['create', 'system', 'runner', expect.any(Array)],
    ]);
  });

  it('names a variable and its changed fields, never its value', async () => {
    await runAsAuditActor(actor, () => store.variables.insert(accountId, 'API_TOKEN', { value: 'hunter2-secret', locked: true, secret: true }));
    await runAsAuditActor(actor, () => store.variables.update(accountId, 'API_TOKEN', { value: 'hunter3-secret', locked: true, secret: true }));
    const entries = await entriesOf('API_TOKEN');
    expect(entries.map((e) => [e.action, e.resource_type, e.fields])).toEqual([
      ['update', 'variable', ['value']], ['create', 'variable', ['key', 'locked', 'secret', 'value']],
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/hunter/);
  });

  it('keeps nothing of a transaction that rolled back, and reads outside a request need no actor', async () => {
    const id = randomUUID();
    await expect(runAsAuditActor(actor, () => store.transaction(async (repos) => {
      await repos.checks.insert(accountId, { id, checkType: 'API', data: check('rolled back') });
      throw new Error('changed my mind');
    }))).rejects.toThrow('changed my mind');
    expect(await entriesOf(id)).toEqual([]);
    // A write inside runAsSystem within a request is the system's.
    const other = randomUUID();
    await runAsAuditActor(actor, () => runAsSystem(() => store.checks.insert(accountId, { id: other, checkType: 'API', data: check('system') })));
    expect((await entriesOf(other))[0]).toMatchObject({ actor_kind: 'system', via: 'runner' });
  });

  it('does not leak the actor of one transaction into the next on the same connection', async () => {
    await runAsAuditActor(actor, () => store.checks.insert(accountId, { id: randomUUID(), checkType: 'API', data: check('leak a') }));
    const ids = Array.from({ length: 6 }, () => randomUUID());
    // More inserts than the pool has connections, so each connection that had the actor is reused.
    for (const id of ids) await store.checks.insert(accountId, { id, checkType: 'API', data: check('leak b') });
    for (const id of ids) expect((await entriesOf(id))[0]).toMatchObject({ actor_kind: 'system' });
  });

  it('filters by resource type, actor, action and time, and pages by id', async () => {
    const all = await store.auditLog.list(accountId, {}, 1000);
    expect(all.length).toBeGreaterThan(5);
    const byKey = await store.auditLog.list(accountId, { actorId: 'key-1' }, 1000);
    expect(byKey.length).toBeGreaterThan(0);
    expect(byKey.every((e) => e.actor_id === 'key-1')).toBe(true);
    const deletes = await store.auditLog.list(accountId, { action: 'delete', resourceType: 'check' }, 1000);
    expect(deletes.map((e) => e.action)).toEqual(['delete']);
    expect(await store.auditLog.list(accountId, { from: new Date(Date.now() + 60_000) }, 1000)).toEqual([]);
    expect(await store.auditLog.list(accountId, { to: new Date(Date.now() + 60_000) }, 1000)).toHaveLength(all.length);
    const first = await store.auditLog.list(accountId, {}, 2);
    const second = await store.auditLog.list(accountId, {}, 2, first[1]!.id);
    expect([...first, ...second].map((e) => e.id)).toEqual(all.slice(0, 4).map((e) => e.id));
  });

  it('prunes entries older than a date in batches', async () => {
    await store.db.query(`UPDATE audit_log SET at = now() - interval '400 days' WHERE account_id = $1 AND resource_id = 'API_TOKEN'`, [accountId]);
    expect(await store.auditLog.deleteOlderThan(new Date(Date.now() - 365 * 86_400_000), 1)).toBe(1);
    expect(await store.auditLog.deleteOlderThan(new Date(Date.now() - 365 * 86_400_000), 10)).toBe(1);
    expect(await entriesOf('API_TOKEN')).toEqual([]);
  });
});
