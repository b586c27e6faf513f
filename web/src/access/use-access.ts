import { useCallback, useContext } from 'react';
import { AccessContext } from './access-context.js';
import type { Access } from './access.js';
import { roleAllows, type Permission } from './roles.js';

/** The caller's rights and `can(permission)`, the one test every write control of the console asks. */
export interface UseAccess {
  access: Access | null;
  can(permission: Permission): boolean;
}

/**
 * Whether the signed-in caller may use a control: a control the role cannot use is hidden rather
 * than refused on click (the server refuses it regardless, 403 ROLE_FORBIDS). Without known access
 * only reading is allowed.
 */
export function useAccess(): UseAccess {
  const access = useContext(AccessContext);
  const can = useCallback((permission: Permission) => (access ? roleAllows(access.role, permission) : permission === 'read'), [access]);
  return { access, can };
}
