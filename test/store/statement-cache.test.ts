import { describe, expect, it } from 'vitest';
import { createStatementCache } from '../../src/store/create-statement-cache.js';

const statement = (name: string) => ({ name, paramTypes: [], fields: [] });

describe('statement cache', () => {
  it('evicts the least recently used statement to make room, and hands its name over for closing once', () => {
    const cache = createStatementCache(2);
    cache.add('a', statement('s1'));
    cache.add('b', statement('s2'));
    expect(cache.get('a')?.name).toBe('s1');
    cache.makeRoom();
    cache.add('c', statement('s3'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.takeClosable()).toEqual(['s2']);
    expect(cache.takeClosable()).toEqual([]);
    expect(cache.size).toBe(2);
  });

  it('forgets a dropped statement and closes it', () => {
    const cache = createStatementCache(5);
    cache.add('a', statement('s1'));
    cache.drop('a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.takeClosable()).toEqual(['s1']);
  });

  it('gives every statement a name of its own', () => {
    const cache = createStatementCache(5);
    expect(new Set([cache.nextName(), cache.nextName(), cache.nextName()]).size).toBe(3);
  });
});
