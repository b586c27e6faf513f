import { describe, expect, it } from 'vitest';
import { claimValues, mappedRoles, parseOidcRoleMap } from '../../src/domain/oidc-role-map.js';

const A = '25db92e8-f382-41ff-8c92-0a7bb182fbd5';
const B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('the single sign-on role map', () => {
  it('reads value=account:ROLE entries, in order, separated by commas or white space', () => {
    const map = parseOidcRoleMap(`group-a=${A}:ADMIN, group-b=${A}:read_only\n/lookout/ops=${B}:READ_RUN`);
    expect(map.grants).toEqual([
      { value: 'group-a', accountId: A, role: 'ADMIN' },
      { value: 'group-b', accountId: A, role: 'READ_ONLY' },
      { value: '/lookout/ops', accountId: B, role: 'READ_RUN' },
    ]);
    expect(map.accounts).toEqual([A, B]);
  });

  it('takes the value up to the last =, so values may hold one', () => {
    expect(parseOidcRoleMap(`team=ops=${A}:OWNER`).grants).toEqual([{ value: 'team=ops', accountId: A, role: 'OWNER' }]);
  });

  it.each([
    ['', 'maps nothing'],
    ['group-a', 'takes entries of the form'],
    [`=${A}:ADMIN`, 'takes entries of the form'],
    [`group-a=${A}`, 'names the role ""'],
    [`group-a=${A}:ADMIN:x`, 'takes entries of the form'],
    ['group-a=acct-1:ADMIN', 'not an account id'],
    [`group-a=${A}:SUPERUSER`, 'names the role "SUPERUSER"'],
    [`group-a=${A}:ADMIN,group-a=${A}:READ_ONLY`, 'maps "group-a" to account'],
  ])('refuses %j with a message naming the setting and the entry', (text, message) => {
    expect(() => parseOidcRoleMap(text)).toThrow(message);
    if (text) expect(() => parseOidcRoleMap(text)).toThrow('LOOKOUT_OIDC_ROLE_MAP');
  });

  it('gives the strongest role per account the values name, and nothing for accounts none names', () => {
    const map = parseOidcRoleMap(`viewers=${A}:READ_ONLY,admins=${A}:ADMIN,ops=${B}:READ_RUN`);
    expect(Object.fromEntries(mappedRoles(map, ['viewers', 'admins']))).toEqual({ [A]: 'ADMIN' });
    expect(Object.fromEntries(mappedRoles(map, ['viewers', 'ops', 'unrelated']))).toEqual({ [A]: 'READ_ONLY', [B]: 'READ_RUN' });
    expect(mappedRoles(map, ['unrelated']).size).toBe(0);
  });
});

describe('the values of the roles claim', () => {
  it('reads an array, a single string, a namespaced name and a dotted path', () => {
    expect(claimValues({ lookout_roles: ['a', 'b', 3] }, 'lookout_roles')).toEqual(['a', 'b']);
    expect(claimValues({ groups: 'admins' }, 'groups')).toEqual(['admins']);
    expect(claimValues({ 'https://example.com/roles': ['x'] }, 'https://example.com/roles')).toEqual(['x']);
    expect(claimValues({ realm_access: { roles: ['ops'] } }, 'realm_access.roles')).toEqual(['ops']);
  });

  it('counts a missing or odd claim as no values', () => {
    expect(claimValues({}, 'groups')).toEqual([]);
    expect(claimValues({ groups: { admins: true } }, 'groups')).toEqual([]);
    expect(claimValues({ realm_access: null }, 'realm_access.roles')).toEqual([]);
  });
});
