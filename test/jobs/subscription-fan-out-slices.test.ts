import { describe, expect, it } from 'vitest';
import { createPushIterator } from '../../src/graphql/subscriptions/push-iterator.js';
import { createSubscriptionFanOut, type SharedResult, type SubscriberQueue } from '../../src/graphql/subscriptions/subscription-fan-out.js';

const admitAll: SubscriberQueue = { admit: () => true, release: () => {} };

/** Joins `count` subscribers to one shared source; each logs what it receives, as `<name>:<json>`. */
async function sharedSource(count: number, deliveriesPerTurn: number, queues: (i: number) => SubscriberQueue = () => admitAll) {
  const source = createPushIterator<any>();
  const fanOut = createSubscriptionFanOut({ deliveriesPerTurn });
  const log: string[] = [];
  const subscribers: AsyncIterableIterator<SharedResult>[] = [];
  for (let i = 0; i < count; i++) {
    subscribers.push((await fanOut.join('k', async () => source, queues(i))) as AsyncIterableIterator<SharedResult>);
  }
  const reading = subscribers.map(async (it, i) => {
    for await (const result of it) log.push(`s${i}:${result.json}`);
  });
  return {
    source, log, fanOut,
    /** Ends the source and waits until every subscriber has read to the end. */
    async drain() {
      source.end();
      await Promise.all(reading);
    },
  };
}

describe('a broadcast burst in slices', () => {
  it('yields to the event loop between slices: a callback queued when the event is published runs before the last subscriber receives it', async () => {
    const s = await sharedSource(6, 2);
    s.source.push({ data: { n: 1 } });
    setImmediate(() => s.log.push('turn'));
    await s.drain();
    const turn = s.log.indexOf('turn');
    expect(turn).toBeGreaterThan(0);
    expect(turn).toBeLessThan(s.log.length - 1);
    expect(s.log.filter((l) => l !== 'turn')).toHaveLength(6);
  });

  it('delivers a whole burst within the turn when it is smaller than a slice', async () => {
    const s = await sharedSource(3, 256);
    s.source.push({ data: { n: 1 } });
    setImmediate(() => s.log.push('turn'));
    await new Promise((resolve) => setImmediate(resolve));
    await s.drain();
    expect(s.log).toEqual(['s0:{"data":{"n":1}}', 's1:{"data":{"n":1}}', 's2:{"data":{"n":1}}', 'turn']);
  });

  it('keeps the order of events for every subscriber, however the bursts are sliced', async () => {
    const s = await sharedSource(5, 1);
    for (let n = 1; n <= 4; n++) s.source.push({ data: { n } });
    await s.drain();
    for (let i = 0; i < 5; i++) {
      expect(s.log.filter((l) => l.startsWith(`s${i}:`))).toEqual([1, 2, 3, 4].map((n) => `s${i}:{"data":{"n":${n}}}`));
    }
  });

  it('shares one slice budget among all shared subscriptions, so many small bursts in one turn are sliced too', async () => {
    const fanOut = createSubscriptionFanOut({ deliveriesPerTurn: 2 });
    const log: string[] = [];
    const sources = [createPushIterator<any>(), createPushIterator<any>(), createPushIterator<any>()];
    const subscribers = await Promise.all(sources.map((source, i) => fanOut.join(`k${i}`, async () => source, admitAll)));
    const reading = subscribers.map(async (it, i) => {
      for await (const result of it as AsyncIterableIterator<SharedResult>) log.push(`k${i}:${result.json}`);
    });
    for (const source of sources) source.push({ data: { one: true } });
    setImmediate(() => log.push('turn'));
    for (const source of sources) source.end();
    await Promise.all(reading);
    expect(log.indexOf('turn')).toBe(2);
  });

  it('skips a subscriber whose queue refuses the message (it is being closed as a slow consumer) and delivers to the others', async () => {
    const refused: number[] = [];
    const s = await sharedSource(4, 2, (i) => (i === 1 ? { admit: () => (refused.push(i), false), release: () => {} } : admitAll));
    s.source.push({ data: { n: 1 } });
    await s.drain();
    expect(refused).toEqual([1]);
    expect(s.log.sort()).toEqual(['s0:{"data":{"n":1}}', 's2:{"data":{"n":1}}', 's3:{"data":{"n":1}}']);
  });

  it('does not deliver the rest of a burst to a subscriber that left while the burst waited for the next turn', async () => {
    const source = createPushIterator<any>();
    const fanOut = createSubscriptionFanOut({ deliveriesPerTurn: 1 });
    const first = (await fanOut.join('k', async () => source, admitAll)) as AsyncIterableIterator<SharedResult>;
    const second = (await fanOut.join('k', async () => source, admitAll)) as AsyncIterableIterator<SharedResult>;
    source.push({ data: { n: 1 } });
    // `first` got its message in this turn; `second` waits for the next one and leaves before it.
    expect((await first.next()).value.json).toBe('{"data":{"n":1}}');
    await second.return!();
    expect(await second.next()).toEqual({ value: undefined, done: true });
    expect(fanOut.stats()).toMatchObject({ subscribers: 1 });
    await first.return!();
  });
});
