import { describe, expect, it } from 'vitest';
import {
  formatCheckFilter, isFilterEmpty, matchesCheckFilter, parseCheckFilter, toGraphqlCheckFilter, type CheckListFilter, type FilterableCheck,
} from '../../../web/src/checks/check-filter.js';

const storefront: FilterableCheck = { name: 'Storefront home', tags: ['web', 'prod'], checkType: 'API', health: 'PASSING' };
const never: FilterableCheck = { name: 'Nightly export', tags: [], checkType: 'HEARTBEAT', health: null };

describe('the checks list filter', () => {
  it.each<[string, string, CheckListFilter]>([
    ['an empty query string', '', {}],
    ['every part', '?q=shop&tag=web&type=API&state=FAILING', { text: 'shop', tag: 'web', type: 'API', state: 'FAILING' }],
    ['lower-case type and state', 'type=browser&state=degraded', { type: 'BROWSER', state: 'DEGRADED' }],
    ['unknown type and state, which are dropped', 'type=FTP&state=ON_FIRE', {}],
    ['blank values, which are dropped', 'q=%20%20&tag=', {}],
    ['text with surrounding spaces, which are trimmed', 'q=%20check%20out%20', { text: 'check out' }],
  ])('reads %s from the address', (_name, search, expected) => {
    expect(parseCheckFilter(search)).toEqual(expected);
  });

  it.each<CheckListFilter>([
    {},
    { text: 'a & b = c' },
    { text: 'shop', tag: 'web', type: 'API', state: 'FAILING' },
    { state: 'DEGRADED' },
  ])('writes %j to a query string it reads back unchanged', (filter) => {
    expect(parseCheckFilter(formatCheckFilter(filter))).toEqual(filter);
  });

  it('says whether a filter narrows anything', () => {
    expect(isFilterEmpty({})).toBe(true);
    expect(isFilterEmpty({ text: '   ' })).toBe(true);
    expect(isFilterEmpty({ tag: 'web' })).toBe(false);
  });

  it('turns the filter into the GraphQL CheckFilter the server narrows with', () => {
    expect(toGraphqlCheckFilter({ text: ' shop ', tag: 'web', type: 'API', state: 'FAILING' })).toEqual({ search: 'shop', tags: ['web'], checkType: 'API', state: 'FAILING' });
    expect(toGraphqlCheckFilter({})).toEqual({});
  });

  it.each<[string, FilterableCheck, CheckListFilter, boolean]>([
    ['no filter matches anything', never, {}, true],
    ['text matches part of the name, case-insensitively', storefront, { text: 'FRONT' }, true],
    ['text not in the name does not match', storefront, { text: 'checkout' }, false],
    ['a tag the check carries matches', storefront, { tag: 'prod' }, true],
    ['a tag it does not carry does not match', storefront, { tag: 'staging' }, false],
    ['a tag is matched whole, not as a prefix', storefront, { tag: 'we' }, false],
    ['the type matches exactly', never, { type: 'HEARTBEAT' }, true],
    ['another type does not match', never, { type: 'API' }, false],
    ['the state matches the health', storefront, { state: 'PASSING' }, true],
    ['a check without results matches no state', never, { state: 'PASSING' }, false],
    ['every part must hold', storefront, { text: 'store', tag: 'web', type: 'API', state: 'FAILING' }, false],
  ])('on a listed check: %s', (_name, check, filter, expected) => {
    expect(matchesCheckFilter(check, filter)).toBe(expected);
  });
});
