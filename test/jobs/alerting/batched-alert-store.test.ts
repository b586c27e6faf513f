import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { batchedAlertStore } from '../../../src/jobs/alerting/batched-alert-store.js';
import type { RunnableCheck } from '../../../src/runner/executor.js';
import type { Store } from '../../../src/store/create-store.js';
import { BACKENDS, openTestStore } from '../../support/backends.js';
import { probe, testRecorder } from '../../support/run-results.js';

/** Alerting judges a page of runs together: what each run reads costs one statement of each kind per page. */
describe.each(BACKENDS)('the store alerting judges with ($name)', (backend) => {
  let store: Store;
  let accountId: string;
  beforeAll(async () => {
    store = await openTestStore(backend);
    accountId = (await store.accounts.create({ name: 'Judged together' })).id;
  });
  afterAll(async () => store?.close());
  afterEach(() => vi.restoreAllMocks());

  async function checkWithResult(name: string): Promise<{ check: RunnableCheck; resultId: string }> {
    const id = randomUUID();
    const data = { name, activated: true, groupId: null, tags: [], locations: ['eu-west-1'] };
    await store.checks.insert(accountId, { id, checkType: 'API', data });
    const check: RunnableCheck = { id, accountId, checkType: 'API', name, data, groupId: null };
    const result = await testRecorder(store).record({ check, probe: probe() });
    return { check, resultId: String(result.id) };
  }

  it('reads the checks, account, results and alert states of runs judged together in one statement each, every answer its own', async () => {
    const runs = [await checkWithResult('first'), await checkWithResult('second')];
    const spies = [
      vi.spyOn(store.checks, 'getByKeys'), vi.spyOn(store.accounts, 'getMany'),
      vi.spyOn(store.results, 'getByKeys'), vi.spyOn(store.alertStates, 'getMany'),
    ];
    const judging = batchedAlertStore(store);
    const checks = await Promise.all([...runs.map((r) => judging.checks.get(accountId, r.check.id)), judging.checks.get(accountId, randomUUID())]);
    expect(checks.map((c) => c?.name)).toEqual(['first', 'second', undefined]);
    // Another account's id is not found, whatever the check.
    expect(await judging.checks.get(randomUUID(), runs[0]!.check.id)).toBeUndefined();
    const [account] = await Promise.all([judging.accounts.get(accountId), judging.accounts.get(accountId)]);
    expect(account?.id).toBe(accountId);
    const results = await Promise.all(runs.map((r) => judging.results.get(accountId, r.check.id, r.resultId)));
    expect(results.map((r) => r?.id)).toEqual(runs.map((r) => r.resultId));
    expect(await Promise.all(runs.map((r) => judging.alertStates.get(accountId, r.check.id)))).toEqual([undefined, undefined]);
    expect(spies.map((s) => s.mock.calls.length)).toEqual([2, 1, 1, 1]);
  });

  it('removes the outbox rows of runs judged together in one statement, each caller told of its own', async () => {
    const runs = [await checkWithResult('third'), await checkWithResult('fourth')];
    const rows = (await store.alertOutbox.waiting(1_000)).filter((row) => runs.some((r) => r.resultId === row.result_id));
    expect(rows).toHaveLength(2);
    const removeEach = vi.spyOn(store.alertOutbox, 'removeEach');
    const judging = batchedAlertStore(store);
    expect(await Promise.all([judging.alertOutbox.remove([rows[0]!.id]), judging.alertOutbox.remove([rows[1]!.id])])).toEqual([1, 1]);
    expect(removeEach).toHaveBeenCalledTimes(1);
    expect(await judging.alertOutbox.remove([rows[1]!.id])).toBe(0);
  });
});
