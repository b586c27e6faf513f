import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryEventBus } from '../../src/events/create-memory-event-bus.js';
import { createPublicVersions } from '../../src/service/create-public-versions.js';
import type { Store } from '../../src/store/create-store.js';
import { BACKENDS, openTestStore } from '../support/backends.js';

/** The versions public pages check on every request: heard from the bus, read from the store only when stale. */
describe.each(BACKENDS)('public content versions ($name)', (backend) => {
  let store: Store;
  let accountId: string;
  beforeAll(async () => {
    store = await openTestStore(backend);
    accountId = (await store.accounts.create({ name: 'Versions' })).id;
  });
  afterAll(async () => store?.close());
  afterEach(() => vi.restoreAllMocks());

  it('reads a version once, then knows each new one from the write that announces it, and reads again only once it is older than the bound', async () => {
    const bus = createMemoryEventBus();
    let clock = 1_000_000;
    const versions = createPublicVersions({ store, bus, maxAgeMs: 1_000, now: () => clock });
    const reads = vi.spyOn(store.publicContentVersions, 'get');
    const first = await versions.get(accountId);
    expect(await versions.get(accountId)).toBe(first);
    expect(reads).toHaveBeenCalledTimes(1);

    const bumped = await store.publicContentVersions.bump(accountId);
    await bus.publish({ type: 'publicContentChanged', accountId, version: bumped, subject: 'statusPage', subjectId: 'p' });
    expect(await versions.get(accountId)).toBe(bumped);
    // An event that comes late, with an older version, never takes a page back.
    await bus.publish({ type: 'publicContentChanged', accountId, version: bumped - 1, subject: 'statusPage', subjectId: 'p' });
    expect(await versions.get(accountId)).toBe(bumped);
    expect(reads).toHaveBeenCalledTimes(1);

    // A write whose event was lost (another process, Redis away) shows once the version is a second old.
    const unheard = await store.publicContentVersions.bump(accountId);
    expect(await versions.get(accountId)).toBe(bumped);
    clock += 1_000;
    expect(await versions.get(accountId)).toBe(unheard);
    expect(reads).toHaveBeenCalledTimes(2);
    versions.close();
    await bus.close();
  });

  it('reads the store on every request when no bus announces versions', async () => {
    const versions = createPublicVersions({ store });
    const reads = vi.spyOn(store.publicContentVersions, 'get');
    const before = await versions.get(accountId);
    const bumped = await store.publicContentVersions.bump(accountId);
    expect(bumped).toBeGreaterThan(before);
    expect(await versions.get(accountId)).toBe(bumped);
    expect(reads).toHaveBeenCalledTimes(2);
    versions.close();
  });
});
