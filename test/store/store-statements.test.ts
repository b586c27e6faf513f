import { createServer, connect, type AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDb } from '../../src/store/create-pglite-db.js';
import type { Db } from '../../src/store/db.js';
import { BACKENDS, openTestStore } from '../support/backends.js';
import { until } from '../support/until.js';

/** Opening a PGlite takes seconds on a loaded machine: tests that open one of their own get longer. */
const OPENS_A_DATABASE = 120_000;

const prepared = (db: Db, text: string) =>
  db.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement = $1', [text]);

describe('named statements on PGlite', () => {
  let db: Db;
  beforeAll(async () => {
    db = await createPgliteDb();
    await db.exec('CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)');
  }, OPENS_A_DATABASE);
  afterAll(async () => db?.close());
  afterEach(async () => {
    await db.query('DELETE FROM items');
  });

  it('parses a statement once and reuses it for every later call, inside transactions too', async () => {
    const sql = 'SELECT count(*)::int AS n FROM items WHERE id > $1';
    for (let i = 0; i < 3; i++) expect(await db.query(sql, [i])).toEqual([{ n: 0 }]);
    await db.transaction(async (tx) => {
      await tx.query(sql, [0]);
    });
    const names = await prepared(db, sql);
    expect(names).toHaveLength(1);
    expect(names[0]!.name).toMatch(/^lookout_/);
  });

  it('keeps at most the configured number of statements, closing the least recently used', async () => {
    const small = await createPgliteDb({ preparedStatements: 3 });
    try {
      const texts = [1, 2, 3, 4, 5, 6].map((n) => `SELECT ${n} AS n`);
      for (const text of texts) expect(await small.query(text)).toEqual([{ n: Number(text.split(' ')[1]) }]);
      const kept = await small.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'lookout\\_%'`);
      expect(kept.length).toBeLessThanOrEqual(3);
      expect(kept.map((r) => r.statement)).not.toContain(texts[0]);
      // An evicted statement is parsed again when it comes back.
      expect(await small.query(texts[0]!)).toEqual([{ n: 1 }]);
    } finally {
      await small.close();
    }
  }, OPENS_A_DATABASE);

  it('returns every type as PGlite query() does', async () => {
    const raw = await PGlite.create('memory://', { parsers: { 1700: (v: string) => Number(v) } });
    try {
      const sql = `SELECT 1::int2 AS a, 2::int4 AS b, 3::int8 AS c, 1.5::numeric AS d, 2.5::float8 AS e, true AS f, 'x'::text AS g,
        '2026-01-02T03:04:05.678Z'::timestamptz AS h, '2026-01-02'::date AS i, '{"k":[1,2]}'::jsonb AS j, '{"k":1}'::json AS k,
        ARRAY['a','b c']::text[] AS l, ARRAY[1,2]::int[] AS m, NULL::text AS n, '\\x0102'::bytea AS o,
        '6f1c1a5e-7d55-4c55-9a39-8f3f0f2b9a01'::uuid AS p, $1::jsonb AS q, $2::timestamptz AS r, $3::text[] AS s`;
      const params = [{ nested: { x: 1 } }, new Date('2026-03-04T05:06:07.000Z'), ['p', 'q']];
      const expected = (await raw.query(sql, params)).rows;
      expect(await db.query(sql, params)).toEqual(expected);
      expect(await db.transaction((tx) => tx.query(sql, params))).toEqual(expected);
    } finally {
      await raw.close();
    }
  }, OPENS_A_DATABASE);

  it('leaves the database usable after a statement fails outside a transaction', async () => {
    const sql = 'SELECT 10 / $1::int AS q';
    await expect(db.query(sql, [0])).rejects.toMatchObject({ code: '22012' });
    expect(await db.query(sql, [2])).toEqual([{ q: 5 }]);
    await expect(db.query('SELEC nonsense')).rejects.toMatchObject({ code: '42601' });
    await expect(db.query('INSERT INTO items (id, label) VALUES ($1, $2)', [1, null])).rejects.toMatchObject({ code: '23502' });
    await db.query('INSERT INTO items (id, label) VALUES ($1, $2)', [1, 'one']);
    expect(await db.query('SELECT label FROM items')).toEqual([{ label: 'one' }]);
  });

  it('rolls back a transaction whose statement fails, keeping the statements it parsed usable', async () => {
    const insert = 'INSERT INTO items (id, label) VALUES ($1, $2)';
    const fresh = 'SELECT label FROM items WHERE id = $1 AND label <> $2';
    await expect(
      db.transaction(async (tx) => {
        await tx.query(insert, [1, 'one']);
        expect(await tx.query(fresh, [1, 'x'])).toEqual([{ label: 'one' }]);
        await tx.query(insert, [1, 'duplicate']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('SELECT count(*)::int AS n FROM items')).toEqual([{ n: 0 }]);
    expect(await prepared(db, fresh)).toHaveLength(1);
    await db.query(insert, [2, 'two']);
    expect(await db.query(fresh, [2, 'x'])).toEqual([{ label: 'two' }]);
  });

  it('refuses to commit a transaction in which a failure was swallowed, and writes nothing', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO items (id, label) VALUES (1, $1)', ['one']);
        await tx.query('SELECT 1 / 0').catch(() => {});
      }),
    ).rejects.toMatchObject({ code: '25P02' });
    expect(await db.query('SELECT count(*)::int AS n FROM items')).toEqual([{ n: 0 }]);
  });

  it('parses a statement again when a schema change makes its cached plan invalid', async () => {
    await db.exec('CREATE TABLE shapes (id int)');
    expect(await db.query('SELECT * FROM shapes')).toEqual([]);
    await db.exec('ALTER TABLE shapes ADD COLUMN name text; INSERT INTO shapes VALUES (1, $$a$$)');
    expect(await db.query('SELECT * FROM shapes')).toEqual([{ id: 1, name: 'a' }]);
  });

  it('runs queries issued inside a transaction after it, not interleaved with it', async () => {
    const order: string[] = [];
    const tx = db.transaction(async (t) => {
      await t.query('INSERT INTO items (id, label) VALUES (1, $1)', ['in']);
      order.push('tx write');
      await t.query('SELECT 1');
      order.push('tx end');
    });
    const outside = db.query('SELECT count(*)::int AS n FROM items').then((rows) => {
      order.push('outside');
      return rows;
    });
    await tx;
    expect(await outside).toEqual([{ n: 1 }]);
    expect(order).toEqual(['tx write', 'tx end', 'outside']);
  });
});

describe('PGlite fairness under a burst of queries', () => {
  let db: Db;
  beforeAll(async () => {
    db = await createPgliteDb();
  }, OPENS_A_DATABASE);
  afterAll(async () => db?.close());

  it('lets a setImmediate callback run between two queries of the burst', async () => {
    let done = 0;
    const burst = Array.from({ length: 100 }, () => db.query('SELECT 1').then(() => done++));
    const seen = new Promise<number>((resolve) => setImmediate(() => resolve(done)));
    await Promise.all(burst);
    const atImmediate = await seen;
    expect(atImmediate).toBeGreaterThan(0);
    expect(atImmediate).toBeLessThan(100);
  });

  it('accepts a socket connection while a long burst is still running', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let done = 0;
    const total = 2_000;
    try {
      const accepted = new Promise<number>((resolve) => server.once('connection', (socket) => {
        resolve(done);
        socket.destroy();
      }));
      const burst = Array.from({ length: total }, () => db.query('SELECT 1').then(() => done++));
      const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
      client.on('error', () => {});
      await Promise.all(burst);
      expect(await accepted).toBeLessThan(total);
      client.destroy();
    } finally {
      server.close();
    }
  });

  it('lets transactions and single queries all finish when issued together', async () => {
    await db.exec('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)');
    await db.query('INSERT INTO counters VALUES (1, 0)');
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2
      ? db.transaction(async (tx) => {
        const [row] = await tx.query<{ n: number }>('SELECT n FROM counters WHERE id = 1');
        await tx.query('UPDATE counters SET n = $1 WHERE id = 1', [row!.n + 1]);
      })
      : db.query('SELECT n FROM counters'))));
    expect(await db.query('SELECT n FROM counters')).toEqual([{ n: 10 }]);
  });
});

describe('PGlite statistics after bulk writes', () => {
  it('analyses the tables once the rows written pass the threshold', async () => {
    const db = await createPgliteDb({ analyzeAfterRows: 50 });
    try {
      await db.exec('CREATE TABLE bulk (id int PRIMARY KEY)');
      const lastAnalyze = async () => (await db.query<{ at: Date | null }>(`SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relname = 'bulk'`))[0]?.at;
      await db.query('INSERT INTO bulk SELECT generate_series(1, 10)');
      expect(await lastAnalyze()).toBeNull();
      await db.query('INSERT INTO bulk SELECT generate_series(11, 200)');
      await until(lastAnalyze, 'the bulk table to be analysed');
      const [table] = await db.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE relname = 'bulk'`);
      expect(table!.reltuples).toBe(200);
    } finally {
      await db.close();
    }
  }, OPENS_A_DATABASE);
});

describe.each(BACKENDS)('statistics after migrations on $name', (backend) => {
  it('analyses every table of the schema once the migrations are applied', async () => {
    // From an empty cluster, not the suites' migrated template: the migrations must run here.
    const store = await openTestStore(backend, { pgliteTemplate: undefined });
    try {
      const never = await store.db.query<{ relname: string }>(
        `SELECT c.relname FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
         WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND (c.reltuples < 0 OR s.last_analyze IS NULL)`,
      );
      expect(never).toEqual([]);
    } finally {
      await store.close();
    }
  }, OPENS_A_DATABASE);
});

describe.each(BACKENDS)('statistics after bulk writes on $name', (backend) => {
  it('analyses the schema in the background once 500 rows were written, without waiting for autovacuum', async () => {
    const store = await openTestStore(backend);
    try {
      await store.db.exec('CREATE TABLE bulk_writes (id int PRIMARY KEY)');
      const lastAnalyze = async () =>
        (await store.db.query<{ at: Date | null }>(`SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relid = 'bulk_writes'::regclass`))[0]?.at;
      await store.db.query('INSERT INTO bulk_writes SELECT generate_series(1, 100)');
      expect(await lastAnalyze()).toBeNull();
      await store.db.query('INSERT INTO bulk_writes SELECT generate_series(101, 600)');
      await until(lastAnalyze, 'the bulk_writes table to be analysed');
    } finally {
      await store.close();
    }
  }, OPENS_A_DATABASE);
});
