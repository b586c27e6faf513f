import { isRole, type Role } from '../access/roles.js';

/** A person of the account as the members list shows them (`GET /v1/accounts/me/members`). */
export interface Member {
  type: 'member' | 'invite';
  userId: string;
  name: string;
  email: string;
  role: Role;
  status: 'ACTIVE' | 'PENDING' | 'EXPIRED';
  mfaEnabled: boolean;
  ssoEnabled: boolean;
  createdAt: string;
}

/** A pending invitation (`GET /v1/accounts/me/invitations`). */
export interface Invitation {
  id: string;
  email: string;
  role: Role;
  expiresAt: string;
}

/** The list of an answer that is an array, or an object holding one under `key` (pages of the REST API). */
function listIn(body: unknown, key: string): Record<string, unknown>[] {
  const list = Array.isArray(body) ? body : (body as Record<string, unknown> | null)?.[key];
  return Array.isArray(list) ? list.filter((item): item is Record<string, unknown> => Boolean(item) && typeof item === 'object') : [];
}

/** The members of a members answer (people, not their invitations, which have their own list). */
export function readMembers(body: unknown): Member[] {
  return listIn(body, 'members').filter((m) => m.type !== 'invite' && isRole(m.role)).map((m) => ({
    type: 'member',
    userId: String(m.userId ?? m.id ?? ''),
    name: String(m.name ?? ''),
    email: String(m.email ?? ''),
    role: m.role as Role,
    status: (['ACTIVE', 'PENDING', 'EXPIRED'].includes(String(m.status)) ? m.status : 'ACTIVE') as Member['status'],
    mfaEnabled: Boolean(m.mfaEnabled),
    ssoEnabled: Boolean(m.ssoEnabled),
    createdAt: String(m.createdAt ?? ''),
  }));
}

/** The pending invitations of an invitations answer. */
export function readInvitations(body: unknown): Invitation[] {
  return listIn(body, 'invitations').filter((i) => isRole(i.role) && typeof i.id === 'string').map((i) => ({
    id: i.id as string,
    email: String(i.email ?? ''),
    role: i.role as Role,
    expiresAt: String(i.expiresAt ?? ''),
  }));
}
