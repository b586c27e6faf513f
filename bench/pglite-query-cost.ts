/**
 * CPU per query on PGlite (in memory): PGlite's own `query()` against the store's `createPgliteDb`
 * (named statements, one call per execution). CPU time, so the figures hold on a loaded machine.
 * `npx tsx bench/pglite-query-cost.ts [--queries 3000]`
 */
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { createPgliteDb } from '../src/store/create-pglite-db.js';

const { values } = parseArgs({ options: { queries: { type: 'string', default: '3000' } } });
const n = Number(values.queries);
const SETUP = `CREATE TABLE checks (id int PRIMARY KEY, account text NOT NULL, data jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE subs (check_id int NOT NULL REFERENCES checks, channel int NOT NULL, PRIMARY KEY (check_id, channel));
INSERT INTO checks SELECT g, 'a', jsonb_build_object('name', 'check ' || g, 'tags', jsonb_build_array('x', 'y')) FROM generate_series(1, 1000) g;
INSERT INTO subs SELECT g, c FROM generate_series(1, 1000) g, generate_series(1, 2) c; ANALYZE;`;
const BY_ID = `SELECT c.*, COALESCE((SELECT json_agg(json_build_object('channel', s.channel) ORDER BY s.channel) FROM subs s WHERE s.check_id = c.id), '[]') AS subs
  FROM checks c WHERE c.account = $1 AND c.id = $2`;

async function cpuPerQuery(run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 200; i++) await run(i);
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await run(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / n;
}

const raw = await PGlite.create('memory://');
await raw.exec(SETUP);
const before = await cpuPerQuery((i) => raw.query(BY_ID, ['a', (i % 1000) + 1]));
await raw.close();
const db = await createPgliteDb();
await db.exec(SETUP);
const after = await cpuPerQuery((i) => db.query(BY_ID, ['a', (i % 1000) + 1]));
await db.close();
console.log(`check by id with subscriptions, ${n} queries: PGlite query() ${before.toFixed(3)} ms CPU/query, createPgliteDb ${after.toFixed(3)} ms CPU/query (${(before / after).toFixed(1)}x)`);
