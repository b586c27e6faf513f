import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockDataDir } from '../../src/store/create-pglite-db.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate, splitStatements } from '../../src/store/migrate.js';
import type { Store } from '../../src/store/create-store.js';
import { BACKENDS, openTestStore } from '../support/backends.js';

describe.each(BACKENDS)('store contract on $name', (backend) => {
  let store: Store;
  let accountA: string;
  let accountB: string;
  beforeAll(async () => {
    store = await openTestStore(backend);
    accountA = (await store.accounts.create({ name: 'A' })).id;
    accountB = (await store.accounts.create({ name: 'B' })).id;
  });
  afterAll(async () => store?.close());

  it('applies every migration once and nothing on a second run', async () => {
    const applied = await store.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(applied.map((r) => r.name)).toEqual(listMigrations().map((m) => m.name));
    expect(await migrate(store.db)).toEqual([]);
  });

  it('applies concurrent migration runs only once', async () => {
    const results = await Promise.all([migrate(store.db), migrate(store.db)]);
    expect(results.flat()).toEqual([]);
  });

  it('rolls a transaction back entirely when it fails part-way', async () => {
    const id = randomUUID();
    await expect(
      store.transaction(async (repos) => {
        await repos.checks.insert(accountA, { id, checkType: 'API', data: { name: 'half', activated: true, groupId: null, tags: [] } });
        await repos.groups.insert(accountA, { name: null as unknown as string, activated: true });
      }),
    ).rejects.toThrow();
    expect(await store.checks.get(accountA, id)).toBeUndefined();
  });

  it('round-trips JSON documents, arrays and timestamps', async () => {
    const id = randomUUID();
    const data = { name: 'doc', activated: true, groupId: null, tags: ['a', 'b'], nested: { list: [1, 'two', null], flag: false } };
    await store.checks.insert(accountA, { id, checkType: 'API', data });
    const row = await store.checks.get(accountA, id);
    expect(row?.data).toEqual(data);
    expect(row?.tags).toEqual(['a', 'b']);
    expect(row?.created_at).toBeInstanceOf(Date);
    expect(row?.subs).toEqual([]);
  });

  it('returns counts and decimals as JavaScript numbers', async () => {
    const [row] = await store.db.query<{ n: number; d: number }>('SELECT count(*) AS n, 1.25::numeric AS d');
    expect(row).toEqual({ n: 1, d: 1.25 });
  });

  it('scopes every read, update and delete to the account', async () => {
    const id = randomUUID();
    await store.checks.insert(accountA, { id, checkType: 'TCP', data: { name: 'mine', activated: true, groupId: null, tags: [] } });
    expect(await store.checks.get(accountB, id)).toBeUndefined();
    expect((await store.checks.list(accountB, {}, 1, 100)).rows.map((r) => r.id)).not.toContain(id);
    await store.checks.update(accountB, id, { name: 'stolen', activated: false, groupId: null, tags: [] });
    expect(await store.checks.delete(accountB, id)).toBe(false);
    expect((await store.checks.get(accountA, id))?.name).toBe('mine');
  });

  it('pages a list and reports the total', async () => {
    const account = (await store.accounts.create({ name: 'Paging' })).id;
    for (let i = 0; i < 5; i++) {
      await store.checks.insert(account, { id: randomUUID(), checkType: 'API', data: { name: `c${i}`, activated: true, groupId: null, tags: [] } });
    }
    const all = await store.checks.list(account, {}, 1, 5);
    const page = await store.checks.list(account, {}, 2, 2);
    expect(page.total).toBe(5);
    // Pages are windows of one stable order (creation time, then id).
    expect(page.rows.map((r) => r.name)).toEqual(all.rows.slice(2, 4).map((r) => r.name));
    expect(new Set(all.rows.map((r) => r.name))).toEqual(new Set(['c0', 'c1', 'c2', 'c3', 'c4']));
    expect(await store.checks.list(account, {}, 9, 2)).toEqual({ rows: [], total: 5 });
  });

  it('treats LIKE wildcards in a search literally', async () => {
    const account = (await store.accounts.create({ name: 'Search' })).id;
    for (const name of ['100% up', '100 up', 'a_b', 'ab']) {
      await store.checks.insert(account, { id: randomUUID(), checkType: 'API', data: { name, activated: true, groupId: null, tags: [] } });
    }
    expect((await store.checks.list(account, { search: '%' }, 1, 10)).rows.map((r) => r.name)).toEqual(['100% up']);
    expect((await store.checks.list(account, { search: '_' }, 1, 10)).rows.map((r) => r.name)).toEqual(['a_b']);
  });
});

describe('migration scripts', () => {
  it('split into statements on terminating semicolons, skipping comment lines', () => {
    expect(splitStatements('-- c;\nCREATE TABLE a (x int);\nCREATE INDEX i ON a (x);\n')).toEqual(['CREATE TABLE a (x int)', 'CREATE INDEX i ON a (x)']);
    const fn = 'CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  NEW.x := 1;\n  RETURN NEW;\nEND\n$$';
    expect(splitStatements(`CREATE TABLE a (x int);\n${fn};\nCREATE TRIGGER t BEFORE UPDATE ON a FOR EACH ROW EXECUTE FUNCTION f();\n`)).toEqual([
      'CREATE TABLE a (x int)', fn, 'CREATE TRIGGER t BEFORE UPDATE ON a FOR EACH ROW EXECUTE FUNCTION f()',
    ]);
  });
});

describe('the embedded data directory', () => {
  it('refuses a second process while one holds it, and takes over a stale lock', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookout-lock-'));
    try {
      // pid 1 is always alive: another process holds the folder.
      writeFileSync(join(dir, 'lookout.lock'), '1');
      expect(() => lockDataDir(dir)).toThrow(/in use by process 1/);
      // A pid that cannot exist: the holder is gone.
      writeFileSync(join(dir, 'lookout.lock'), '2147483646');
      const release = lockDataDir(dir);
      release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
