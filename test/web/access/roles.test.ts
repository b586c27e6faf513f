import { describe, expect, it } from 'vitest';
import { canGrant, grantableRoles, roleAllows, ROLES, type Permission } from '../../../web/src/access/roles.js';

describe('what each role may do in the console', () => {
  it.each<[string, Permission[]]>([
    ['OWNER', ['read', 'run', 'write', 'manage', 'own']],
    ['ADMIN', ['read', 'run', 'write', 'manage']],
    ['READ_WRITE', ['read', 'run', 'write']],
    ['READ_RUN', ['read', 'run']],
    ['READ_ONLY', ['read']],
  ])('%s may %j and nothing more', (role, allowed) => {
    const all: Permission[] = ['read', 'run', 'write', 'manage', 'own'];
    expect(all.filter((p) => roleAllows(role as (typeof ROLES)[number], p))).toEqual(allowed);
  });

  it('lets managers grant up to their own role, the owner role only by owners', () => {
    expect(grantableRoles('OWNER')).toEqual(ROLES);
    expect(grantableRoles('ADMIN')).toEqual(['ADMIN', 'READ_WRITE', 'READ_RUN', 'READ_ONLY']);
    expect(grantableRoles('READ_WRITE')).toEqual([]);
    expect(canGrant('ADMIN', 'OWNER')).toBe(false);
  });
});
