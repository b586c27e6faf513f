import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unstorableInputIssues, unstorableStringMessage } from '../../src/domain/unstorable-input-issues.js';
import { fuzzParameters } from '../support/fuzz-parameters.js';

const rules = { maxDepth: 4, maxIssues: 3 };

describe('unstorableInputIssues', () => {
  it.each([
    ['a plain object', { name: 'Homepage', tags: ['a', 'b'], n: 1.5, ok: true, none: null }],
    ['paired surrogates (an emoji)', { name: '\ud83d\ude00 up' }],
    ['nesting exactly at the limit', { a: { b: { c: { d: 1 } } } }],
    ['a scalar at the root', 'text'],
  ])('finds nothing in %s', (_name, value) => {
    expect(unstorableInputIssues(value, rules)).toEqual({ issues: [], omitted: 0 });
  });

  it.each([
    ['a NUL in a string', { name: 'a\u0000b' }, 'name', /NUL/],
    ['a lone high surrogate', { name: 'a\ud800' }, 'name', /surrogate/],
    ['a lone low surrogate', { list: ['ok', '\udc00x'] }, 'list.1', /surrogate/],
    ['surrogates in the wrong order', { name: '\ude00\ud83d' }, 'name', /surrogate/],
    ['Infinity', { frequency: Infinity }, 'frequency', /finite/],
    ['NaN', { deep: [{ n: NaN }] }, 'deep.0.n', /finite/],
    ['nesting one past the limit', { a: { b: { c: { d: {} } } } }, 'a.b.c.d', /deeper than 4 levels/],
    ['a NUL in a key', { 'bad\u0000key': 1 }, 'bad\uFFFDkey', /NUL/],
  ])('names the key of %s', (_name, value, key, message) => {
    const found = unstorableInputIssues(value, rules);
    expect(found.issues).toEqual([{ key, message: expect.stringMatching(message) }]);
    expect(found.omitted).toBe(0);
  });

  it('lists at most maxIssues issues and counts the rest', () => {
    const found = unstorableInputIssues({ list: Array.from({ length: 10 }, () => '\u0000') }, rules);
    expect(found.issues.map((i) => i.key)).toEqual(['list.0', 'list.1', 'list.2']);
    expect(found.omitted).toBe(7);
  });

  it('does not descend past the depth limit, so a value nested 100,000 levels deep is one issue', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(unstorableInputIssues(deep, rules)).toEqual({ issues: [{ key: '0.0.0.0', message: expect.stringContaining('deeper') }], omitted: 0 });
  });

  it('agrees with what survives a round trip through UTF-8 for every string', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      const survives = Buffer.from(text, 'utf8').toString('utf8') === text && !text.includes('\u0000');
      expect(unstorableStringMessage(text) === null).toBe(survives);
    }), fuzzParameters(2000, 20261124));
  });
});
