import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunnableCheck } from '../src/runner/executor.js';
import { createResultRetention } from '../src/service/result-retention.js';
import type { Store } from '../src/store/create-store.js';
import { BACKENDS, openTestStore } from './support/backends.js';
import { probe, testRecorder } from './support/run-results.js';

const DAY = 86_400_000;
const logger = pino({ level: 'silent' });

describe.each(BACKENDS)('result retention on $name', (backend) => {
  let store: Store;
  let rec: ReturnType<typeof testRecorder>;
  const now = new Date('2024-06-30T12:00:00.000Z');

  beforeAll(async () => {
    store = await openTestStore(backend);
    rec = testRecorder(store);
  });
  afterAll(async () => store?.close());

  /** A new account with one check, and results that started `ages` days before `now`. */
  const seed = async (ages: number[]) => {
    const accountId = (await store.accounts.create({ name: `Retention ${randomUUID()}` })).id;
    const data = { name: 'Kept or not', activated: true, groupId: null, tags: [], locations: ['eu-west-1'] };
    const check: RunnableCheck = { id: randomUUID(), accountId, checkType: 'API', name: data.name, data, groupId: null };
    await store.checks.insert(accountId, { id: check.id, checkType: 'API', data });
    const ids: Record<number, string> = {};
    for (const age of ages) ids[age] = (await rec.record({ check, probe: probe({ at: new Date(now.getTime() - age * DAY) }) })).id;
    return { accountId, check, ids };
  };
  const idsOf = async (accountId: string) =>
    (await store.db.query<{ id: string }>('SELECT id FROM check_results WHERE account_id = $1', [accountId])).map((r) => r.id).sort();

  it('deletes the results older than the window in bounded batches, in every account, and keeps the rest', async () => {
    const first = await seed([40, 35, 31, 30.5, 29, 1]);
    const second = await seed([90, 2]);
    const retention = createResultRetention({ store, days: 30, logger, batchSize: 2, now: () => now });
    try {
      expect(await retention.pruneNow()).toBeGreaterThanOrEqual(5);
      expect(await idsOf(first.accountId)).toEqual([first.ids[29]!, first.ids[1]!].sort());
      expect(await idsOf(second.accountId)).toEqual([second.ids[2]!]);
      expect(await retention.pruneNow()).toBe(0);
    } finally {
      await retention.close();
    }
  });

  it('keeps results for ever when the retention is 0 days', async () => {
    const { accountId, ids } = await seed([400]);
    const retention = createResultRetention({ store, days: 0, logger, now: () => now });
    try {
      expect(await retention.pruneNow()).toBe(0);
      expect(await idsOf(accountId)).toEqual([ids[400]!]);
    } finally {
      await retention.close();
    }
  });

  it('joins a prune in progress instead of starting a second one, and does nothing once closed', async () => {
    const { accountId } = await seed([60, 61]);
    const retention = createResultRetention({ store, days: 30, logger, now: () => now });
    const [one, two] = [retention.pruneNow(), retention.pruneNow()];
    expect(one).toBe(two);
    await one;
    expect(await idsOf(accountId)).toEqual([]);
    await retention.close();
    await seed([70]);
    expect(await retention.pruneNow()).toBe(0);
  });

  it('starts pruning on its own, without being asked, as soon as it is created', async () => {
    const { accountId } = await seed([50]);
    let announced!: (line: Record<string, unknown>) => void;
    const pruned = new Promise<Record<string, unknown>>((resolve) => (announced = resolve));
    const listening = pino({ level: 'info' }, { write: (line: string) => announced(JSON.parse(line)) });
    const retention = createResultRetention({ store, days: 30, logger: listening, now: () => now });
    try {
      expect(await pruned).toMatchObject({ msg: 'pruned old check results', deleted: expect.any(Number) });
      expect(await idsOf(accountId)).toEqual([]);
    } finally {
      await retention.close();
    }
  });
});
