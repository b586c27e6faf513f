import { PGlite, protocol } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDb } from '../../src/store/create-pglite-db.js';
import { decodePgliteAnswer } from '../../src/store/decode-pglite-answer.js';
import type { Db } from '../../src/store/db.js';

/** A backend message: type byte, length, body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function dataRow(values: Array<string | null>): Buffer {
  const parts: Buffer[] = [Buffer.alloc(2)];
  parts[0]!.writeInt16BE(values.length);
  for (const v of values) {
    const size = Buffer.alloc(4);
    if (v === null) {
      size.writeInt32BE(-1);
      parts.push(size);
    } else {
      const bytes = Buffer.from(v, 'utf8');
      size.writeInt32BE(bytes.length);
      parts.push(size, bytes);
    }
  }
  return message('D', Buffer.concat(parts));
}

const complete = (tag: string) => message('C', Buffer.from(`${tag}\0`, 'utf8'));
const FIELDS = [{ name: 'a', dataTypeID: 25 }, { name: 'b', dataTypeID: 25 }];

describe('decodePgliteAnswer', () => {
  it('decodes every row of any text, NULLs included, and the command tag, whatever the messages around them', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.option(fc.string({ unit: 'grapheme' }), { nil: null }), fc.option(fc.string(), { nil: null })), { maxLength: 20 }),
      (rows) => {
        const raw = Buffer.concat([message('2', Buffer.alloc(0)), ...rows.map((r) => dataRow(r)), complete(`SELECT ${rows.length}`), message('Z', Buffer.from('I'))]);
        const answer = decodePgliteAnswer<{ a: string | null; b: string | null }>(raw, FIELDS, []);
        expect(answer.rows).toEqual(rows.map(([a, b]) => ({ a, b })));
        expect(answer.tag).toBe(`SELECT ${rows.length}`);
      },
    ));
  });

  it('applies the column parsers to values and not to NULLs', () => {
    const raw = Buffer.concat([dataRow(['41', null]), complete('SELECT 1')]);
    const parse = (v: string) => Number(v) + 1;
    expect(decodePgliteAnswer(raw, FIELDS, [parse, parse]).rows).toEqual([{ a: 42, b: null }]);
  });

  it('stops at the end of what it was given, so a cut answer never reads past it', () => {
    const raw = Buffer.concat([dataRow(['x', 'y']), complete('SELECT 1')]);
    expect(decodePgliteAnswer(raw.subarray(0, 3), FIELDS, []).rows).toEqual([]);
  });
});

describe('PGlite answers decoded by the store', () => {
  let db: Db;
  let raw: PGlite;
  beforeAll(async () => {
    db = await createPgliteDb();
    raw = await PGlite.create();
  }, 120_000);
  afterAll(async () => {
    await db.close();
    await raw.close();
  });

  it.each([
    ['text with multi-byte characters', `SELECT 'zürich ✓ 𝄞'::text AS v`],
    ['an int4 and an int8', 'SELECT 7::int4 AS v, 9007199254740::int8 AS w'],
    ['a jsonb document', `SELECT '{"a":[1,2,{"b":null}]}'::jsonb AS v`],
    ['a timestamptz', `SELECT '2026-11-24 18:15:08.123+00'::timestamptz AS v`],
    ['a boolean and a NULL', 'SELECT true AS v, NULL::text AS w'],
    ['a uuid array', `SELECT ARRAY['00000000-0000-4000-8000-000000000000'::uuid] AS v`],
    ['no rows', 'SELECT 1 AS v WHERE false'],
  ])('answers %s as PGlite query() does', async (_label, sql) => {
    const expected = (await raw.query(sql)).rows;
    expect(await db.query(sql)).toEqual(expected);
  });

  it('throws the DatabaseError PGlite makes, with its code and constraint', async () => {
    await db.exec('CREATE TABLE decoded_unique (id int PRIMARY KEY)');
    await db.query('INSERT INTO decoded_unique VALUES (1)');
    const err = await db.query('INSERT INTO decoded_unique VALUES ($1)', [1]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(protocol.messages.DatabaseError);
    expect(err).toMatchObject({ code: '23505', constraint: 'decoded_unique_pkey' });
    expect(await db.query('SELECT count(*)::int AS n FROM decoded_unique')).toEqual([{ n: 1 }]);
  });
});
