/**
 * The five roles of a person or key in an account, strongest first, and what each may do: the
 * server's rules (src/domain/roles.ts) repeated here because the console is built apart from the
 * server and only ever hides what the server would refuse anyway.
 */
export const ROLES = ['OWNER', 'ADMIN', 'READ_WRITE', 'READ_RUN', 'READ_ONLY'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a control needs: `read` < `run` (run now, test sessions) < `write` (create, change, delete
 * monitoring resources) < `manage` (members, invitations, service keys, the audit log) < `own`.
 */
export type Permission = 'read' | 'run' | 'write' | 'manage' | 'own';

const LEAST_ROLE: Record<Permission, Role> = { read: 'READ_ONLY', run: 'READ_RUN', write: 'READ_WRITE', manage: 'ADMIN', own: 'OWNER' };

/** The words people read for each role. */
export const ROLE_NAMES: Record<Role, string> = {
  OWNER: 'Owner',
  ADMIN: 'Admin',
  READ_WRITE: 'Read & Write',
  READ_RUN: 'Read & Run',
  READ_ONLY: 'Read Only',
};

/** What each role may do, in a sentence for the role pickers. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  OWNER: 'everything, including making and removing owners',
  ADMIN: 'everything but the owner role: members, invitations, service keys, the audit log',
  READ_WRITE: 'create, change, delete and run checks and the rest of the monitoring',
  READ_RUN: 'read everything and run checks, change nothing',
  READ_ONLY: 'read everything, change and run nothing',
};

/** Whether `value` is one of the five roles. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do what `permission` names. */
export function roleAllows(role: Role, permission: Permission): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(LEAST_ROLE[permission]);
}

/** Whether someone of role `granter` may give or take away `role`: up to their own, owners only by owners. */
export function canGrant(granter: Role, role: Role): boolean {
  if (!roleAllows(granter, 'manage')) return false;
  if (role === 'OWNER') return granter === 'OWNER';
  return ROLES.indexOf(granter) <= ROLES.indexOf(role);
}

/** The roles `granter` may hand out, strongest first (the choices of a role picker). */
export function grantableRoles(granter: Role): Role[] {
  return ROLES.filter((role) => canGrant(granter, role));
}
