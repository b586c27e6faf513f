import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { batchedRunReads } from '../../src/runner/run-reads.js';
import type { Store } from '../../src/store/create-store.js';
import { BACKENDS, openTestStore } from '../support/backends.js';

/** What a batch of claimed runs reads before it starts: one statement of each kind per turn of the event loop. */
describe.each(BACKENDS)('batched run reads ($name)', (backend) => {
  let store: Store;
  const accounts: string[] = [];
  beforeAll(async () => {
    store = await openTestStore(backend);
    for (const name of ['Reads A', 'Reads B']) accounts.push((await store.accounts.create({ name })).id);
  });
  afterAll(async () => store?.close());
  afterEach(() => vi.restoreAllMocks());

  it('reads the checks, variables and certificates of runs started together in one statement each, every answer its own', async () => {
    const [a, b] = accounts as [string, string];
    const ids = [randomUUID(), randomUUID()];
    for (const [i, id] of ids.entries()) {
      await store.checks.insert(i === 0 ? a : b, { id, checkType: 'API', data: { name: `reads ${i}`, activated: true, groupId: null, tags: [] } });
    }
    await store.db.query('INSERT INTO environment_variables (account_id, key, value) VALUES ($1, $2, $3), ($4, $5, $6)', [a, 'ONLY_A', '1', b, 'ONLY_B', '2']);
    const checks = vi.spyOn(store.runner, 'checksById');
    const variables = vi.spyOn(store.runner, 'accountVariablesOf');
    const certificates = vi.spyOn(store.clientCertificates, 'forRuns');
    const reads = batchedRunReads(store);
    const missing = randomUUID();
    const rows = await Promise.all([...ids, missing].map((id) => reads.check(id)));
    expect(rows.map((r) => r?.id)).toEqual([...ids, undefined]);
    const [va, vb, vNone] = await Promise.all([reads.accountVariables(a), reads.accountVariables(b), reads.accountVariables(randomUUID())]);
    expect(va!.map((v) => v.key)).toEqual(['ONLY_A']);
    expect(vb!.map((v) => v.key)).toEqual(['ONLY_B']);
    expect(vNone).toEqual([]);
    expect(await Promise.all([reads.clientCertificates(a), reads.clientCertificates(b)])).toEqual([[], []]);
    expect([checks.mock.calls.length, variables.mock.calls.length, certificates.mock.calls.length]).toEqual([1, 1, 1]);
    // Nothing is kept past the batch: a variable changed now is read by the next run.
    await store.db.query('UPDATE environment_variables SET value = $2 WHERE account_id = $1', [a, 'changed']);
    expect((await reads.accountVariables(a)).map((v) => v.value)).toEqual(['changed']);
    expect(variables.mock.calls.length).toBe(2);
  });
});
