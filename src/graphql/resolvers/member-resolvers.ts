import type { MemberResolvers, MemberStatus, MemberType, MutationResolvers, QueryResolvers, Resolvers, Role } from '../__generated__/resolvers-types.js';
import type { components } from '../../contract/__generated__/openapi.js';
import { cursorConnection } from '../connection.js';
import { requireRestId, toGlobalId, uuidRestId } from '../global-id.js';
import type { RestAccess, RestAccountMember as RestMember } from '../rest-types.js';
import { withUserErrors } from '../user-errors.js';

type RestMemberPage = components['schemas']['AccountMemberPage'];
type RestCreatedInvitation = components['schemas']['CreatedInvitation'];
type RestResetLink = components['schemas']['ResetLink'];

const ACCOUNT = '/v1/accounts/me';
const MEMBERS = `${ACCOUNT}/members`;
const INVITATIONS = `${ACCOUNT}/invitations`;

/** Global id types of a Member: a person's and an invitation's ids are both UUIDs, so the type keeps them apart. */
const MEMBER = 'Member';
const INVITATION = 'Invitation';

/** REST's `type` of a member and an invitation, by the GraphQL enum value (REST writes them in lower case). */
const REST_TYPE: Record<MemberType, RestMember['type']> = { MEMBER: 'member', INVITATION: 'invite' };

/**
 * The REST UUID a member mutation acts on: a REST UUID or a Member's global id. An id that can be
 * neither names no one of the account: NOT_FOUND, like an unknown person.
 */
const userIdOf = (id: string) => requireRestId(uuidRestId(id, MEMBER), MEMBER, id);
const invitationIdOf = (id: string) => requireRestId(uuidRestId(id, INVITATION), 'Invitation', id);

/** A Member's fields where REST's row differs: global id, enum case and the person as an object. */
const member: MemberResolvers = {
  id: (m) => (m.type === 'member' ? toGlobalId(MEMBER, m.userId ?? '') : toGlobalId(INVITATION, m.id ?? '')),
  type: (m) => (m.type === 'member' ? 'MEMBER' : 'INVITATION'),
  user: (m) => (m.type === 'member' && m.userId ? { id: m.userId, name: m.name, email: m.email } : null),
  invitationId: (m) => (m.type === 'invite' ? m.id ?? null : null),
  role: (m) => m.role as Role,
  status: (m) => m.status as MemberStatus,
  expiresAt: (m) => m.expiresAt ?? null,
};

/** The caller's access and the member list; REST decides what the caller may see. */
const query: QueryResolvers = {
  access: async (_root, _args, ctx) => (await ctx.rest.get<RestAccess>(`${ACCOUNT}/access`)).body,
  members: (_root, { first, after, filter }, ctx) =>
    cursorConnection(first, after, async (cursor, limit) => {
      const restQuery = {
        limit, nextId: cursor ?? undefined, search: filter?.search ?? undefined,
        type: filter?.type ? REST_TYPE[filter.type] : undefined, role: filter?.role ?? undefined, status: filter?.status ?? undefined,
      };
      const page = (await ctx.rest.get<RestMemberPage>(MEMBERS, restQuery)).body;
      return { items: page.members, next: page.nextId };
    }),
};

/**
 * Managers' writes on the account's people, each one REST call. Roles, the last owner and existing
 * members are REST's to refuse: 403, 404 and 409 stay coded errors (FORBIDDEN, NOT_FOUND, CONFLICT
 * with REST's code in `extensions.reason`), since none is a field the caller could correct; only a
 * 400 becomes userErrors.
 */
const mutation: MutationResolvers = {
  updateMemberRole: async (_root, { userId, role }, ctx) => {
    const path = `${MEMBERS}/${userIdOf(userId)}`;
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestMember>('PUT', path, { role })).body);
    return { member: value, userErrors };
  },
  removeMember: async (_root, { userId }, ctx) => {
    const restId = userIdOf(userId);
    const { userErrors } = await withUserErrors(() => ctx.rest.send('DELETE', `${MEMBERS}/${restId}`));
    return { removedUserId: userErrors.length ? null : restId, userErrors };
  },
  createMemberResetLink: async (_root, { userId }, ctx) => {
    const path = `${MEMBERS}/${userIdOf(userId)}/password-reset`;
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestResetLink>('POST', path)).body);
    return { link: value?.link ?? null, expiresAt: value?.expiresAt ?? null, userErrors };
  },
  inviteMember: async (_root, { input }, ctx) => {
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestCreatedInvitation>('POST', INVITATIONS, input)).body);
    if (!value) return { invitation: null, link: null, emailed: null, userErrors };
    // The link is the invitation's secret: it leaves in this payload only, never as a field of Member.
    const { link, emailed, ...invitation } = value;
    return { invitation: invitation as RestMember, link, emailed, userErrors };
  },
  revokeInvitation: async (_root, { id }, ctx) => {
    const restId = invitationIdOf(id);
    const { userErrors } = await withUserErrors(() => ctx.rest.send('DELETE', `${INVITATIONS}/${restId}`));
    return { revokedId: userErrors.length ? null : restId, userErrors };
  },
};

/** The account's people over /v1/accounts/me/access, /members and /invitations. */
export const memberResolvers: Resolvers = { Query: query, Mutation: mutation, Member: member };
