import { describe, expect, it } from 'vitest';
import { runBulk } from '../../../web/src/checks/run-bulk.js';

describe('bulk actions', () => {
  it('report the ids done and, in the order given, the ones that failed with their problems (a thrown error too)', async () => {
    const outcome = await runBulk(['a', 'b', 'c', 'd'], async (id) => {
      if (id === 'b') return ['Check not found.'];
      if (id === 'd') throw new Error('network down');
      return [];
    });
    expect(outcome).toEqual({ succeeded: ['a', 'c'], failed: [{ id: 'b', problems: ['Check not found.'] }, { id: 'd', problems: ['network down'] }] });
  });

  it('never run more than the concurrency at once, and run every id once', async () => {
    let running = 0;
    let most = 0;
    const done: string[] = [];
    const ids = Array.from({ length: 11 }, (_, i) => `id${i}`);
    await runBulk(ids, async (id) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      done.push(id);
      return [];
    }, 3);
    expect(most).toBe(3);
    expect(done.sort()).toEqual([...ids].sort());
  });

  it('do nothing for no ids', async () => {
    expect(await runBulk([], async () => { throw new Error('not called'); })).toEqual({ succeeded: [], failed: [] });
  });
});
