/**
 * The roles of a person or key in an account, Checkly's five, strongest first. What each may do:
 * - `OWNER`: everything, including making and removing other owners.
 * - `ADMIN`: everything else: members, invitations, service keys, account settings, the audit log.
 * - `READ_WRITE`: create, change and delete monitoring resources (checks, groups, alert channels,
 *   status pages, incidents, maintenance, dashboards, variables, deploys), and run them.
 * - `READ_RUN`: read everything and run checks (on demand, triggers, `checkly test`), change nothing.
 * - `READ_ONLY`: read everything; secret values are never readable by any role.
 */
export const ROLES = ['OWNER', 'ADMIN', 'READ_WRITE', 'READ_RUN', 'READ_ONLY'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a request needs. `read` < `run` < `write` < `manage` < `own`; `self` is what any person may
 * do to themselves (their password, second factor, personal keys, sessions).
 */
export type Permission = 'read' | 'run' | 'write' | 'manage' | 'own' | 'self';

const LEAST_ROLE: Record<Exclude<Permission, 'self'>, Role> = {
  read: 'READ_ONLY',
  run: 'READ_RUN',
  write: 'READ_WRITE',
  manage: 'ADMIN',
  own: 'OWNER',
};

/** Whether `value` is one of the five roles. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** 0 for OWNER up to 4 for READ_ONLY: a lower rank may do more. */
export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** Whether `role` may do what `permission` names. */
export function roleAllows(role: Role, permission: Permission): boolean {
  if (permission === 'self') return true;
  return roleRank(role) <= roleRank(LEAST_ROLE[permission]);
}

/**
 * Whether someone of role `granter` may give (or take away) role `role`: managers may grant up to
 * their own role, except that only owners touch the owner role.
 */
export function canGrant(granter: Role, role: Role): boolean {
  if (!roleAllows(granter, 'manage')) return false;
  if (role === 'OWNER') return granter === 'OWNER';
  return roleRank(granter) <= roleRank(role);
}

/** The words people read for each role (console, emails). */
export const ROLE_NAMES: Record<Role, string> = {
  OWNER: 'Owner',
  ADMIN: 'Admin',
  READ_WRITE: 'Read & Write',
  READ_RUN: 'Read & Run',
  READ_ONLY: 'Read Only',
};
