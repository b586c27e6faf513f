/**
 * The five roles and what each may do are the server's own rules (src/domain/roles.ts, pure code
 * the console bundles as it is): the console only ever hides what the server would refuse anyway.
 */
import { ROLES, canGrant, type Role } from '../../../src/domain/roles.js';

export { ROLES, ROLE_NAMES, canGrant, isRole, roleAllows, type Role } from '../../../src/domain/roles.js';

/** What a control needs (`self`, what anyone does to themselves, needs no control of its own). */
export type Permission = 'read' | 'run' | 'write' | 'manage' | 'own';

/** What each role may do, in a sentence for the role pickers. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  OWNER: 'everything, including making and removing owners',
  ADMIN: 'everything but the owner role: members, invitations, service keys, the audit log',
  READ_WRITE: 'create, change, delete and run checks and the rest of the monitoring',
  READ_RUN: 'read everything and run checks, change nothing',
  READ_ONLY: 'read everything, change and run nothing',
};

/** The roles `granter` may hand out, strongest first (the choices of a role picker). */
export function grantableRoles(granter: Role): Role[] {
  return ROLES.filter((role) => canGrant(granter, role));
}
