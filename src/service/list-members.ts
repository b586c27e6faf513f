import { LookoutError } from '../domain/lookout-error.js';
import type { InvitationRow } from '../store/invitations-repository.js';
import type { MemberRow } from '../store/people-repository.js';
import type { Store } from '../store/create-store.js';

/** A member as `GET /v1/accounts/me/members` shows it (the checkly CLI's `members` command reads this). */
export function toMemberView(row: MemberRow) {
  return {
    type: 'member' as const, accountId: row.account_id, userId: row.user_id, name: row.name, email: row.email, role: row.role,
    status: 'ACTIVE' as const, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString(),
    isSupportMembership: false, ssoEnabled: row.oidc_subject !== null, mfaEnabled: row.totp_enabled,
  };
}

/** An open invitation as member lists and invitation lists show it (never its token). */
export function toInvitationView(row: InvitationRow, now = new Date()) {
  return {
    type: 'invite' as const, id: row.id, accountId: row.account_id, userId: null, name: null, email: row.email, role: row.role,
    status: row.expires_at > now ? 'PENDING' as const : 'EXPIRED' as const,
    createdAt: row.created_at.toISOString(), updatedAt: row.created_at.toISOString(), expiresAt: row.expires_at.toISOString(),
    isSupportMembership: false, ssoEnabled: false, mfaEnabled: false,
  };
}

/** The filters of `GET /v1/accounts/me/members` (the checkly CLI's `members` flags). */
export interface MemberQuery {
  search?: string;
  type?: string;
  role?: string;
  status?: string;
  limit?: number;
  /** The last id of the previous page (a member's user id, an invitation's id). */
  nextId?: string;
}

/** An account's members and open invitations, filtered and paged like the hosted list. */
export async function listMembers(store: Store, accountId: string, query: MemberQuery) {
  const term = query.search?.toLowerCase();
  const rows = [
    ...(await store.people.members(accountId)).map(toMemberView),
    ...(await store.invitations.invitations(accountId)).map((row) => toInvitationView(row)),
  ];
  const all = rows.filter((m) =>
    (!term || m.email.toLowerCase().includes(term) || (m.name ?? '').toLowerCase().includes(term))
    && (!query.type || query.type === m.type) && (!query.role || query.role === m.role) && (!query.status || query.status === m.status));
  const idOf = (m: (typeof all)[number]) => (m.type === 'member' ? m.userId : m.id);
  const start = query.nextId ? all.findIndex((m) => idOf(m) === query.nextId) + 1 : 0;
  if (query.nextId && start === 0) {
    throw new LookoutError('VALIDATION', '"nextId" is not a cursor of this list', { issues: [{ key: 'nextId', message: 'is unknown' }], source: 'query' });
  }
  const limit = query.limit ?? 50;
  const page = all.slice(start, start + limit);
  return { members: page, length: page.length, nextId: start + limit < all.length ? idOf(page.at(-1)!) : null };
}
