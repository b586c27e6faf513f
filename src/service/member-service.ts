import { LookoutError, notFound } from '../domain/lookout-error.js';
import type { Principal } from '../domain/principal.js';
import { ROLE_NAMES, canGrant, type Role } from '../domain/roles.js';
import { hashToken, newToken } from '../domain/session-token.js';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import { runAsAuditActor } from '../store/audit-actor-scope.js';
import { listMembers, toInvitationView, toMemberView, type MemberQuery } from './list-members.js';
import { hashPassword } from './password-hash.js';
import type { SessionMeta, SessionService, StartedSession } from './session-service.js';

/** How long an invitation link stays good. */
export const INVITATION_DAYS = 7;
/** How long a password-reset link stays good. */
export const RESET_HOURS = 24;

/** A mail to a person (invitation, password reset); false when it could not be sent. */
export type SendPersonMail = (mail: { to: string; subject: string; text: string }) => Promise<boolean>;

/** Options of createMemberService. */
export interface MemberServiceOptions {
  store: Store;
  bus: EventBus;
  sessions: SessionService;
  /** The console's address: links in invitations and reset mails point there. */
  publicUrl: string;
  /** Sends mails when SMTP is configured; absent: links are only answered to the admin. */
  sendMail?: SendPersonMail;
}

const forbidden = (message: string) => new LookoutError('FORBIDDEN', message, { attributes: { code: 'ROLE_FORBIDS' } });

/**
 * An account's people: members and their roles, invitations, admin-issued password-reset links.
 * Granting follows canGrant: managers grant up to their own role and only owners touch owners; an
 * account always keeps an owner.
 */
export function createMemberService({ store, bus, sessions, publicUrl, sendMail }: MemberServiceOptions) {
  const base = publicUrl.replace(/\/$/, '');

  const memberOf = async (accountId: string, userId: string) => {
    const member = (await store.people.members(accountId)).find((m) => m.user_id === userId);
    if (!member) throw notFound('Member', userId);
    return member;
  };
  const mayChange = (principal: Principal, from: Role, to?: Role) => {
    if (!canGrant(principal.role, from) || (to && !canGrant(principal.role, to))) {
      throw forbidden(`Your role (${ROLE_NAMES[principal.role]}) may not change ${to ? `${ROLE_NAMES[from]} to ${ROLE_NAMES[to]}` : `a ${ROLE_NAMES[from]} member`}`);
    }
  };
  const changed = (accountId: string, userId: string) => bus.publish({ type: 'accessChanged', accountId, userId, sessionIds: [] });

  return {
    /** Members and open invitations, filtered like the hosted list (the checkly CLI's `members` flags). */
    list: (principal: Principal, query: MemberQuery) => listMembers(store, principal.accountId, query),

    /** Changes a member's role; the account's last owner stays an owner (409 LAST_OWNER). */
    async setRole(principal: Principal, userId: string, role: Role) {
      const member = await memberOf(principal.accountId, userId);
      mayChange(principal, member.role, role);
      await store.transaction(async (repos) => {
        if (member.role === 'OWNER' && role !== 'OWNER' && (await repos.people.countOwners(principal.accountId)) <= 1) {
          throw new LookoutError('CONFLICT', 'An account keeps at least one owner: make someone else owner first', { attributes: { code: 'LAST_OWNER' } });
        }
        await repos.people.upsertMembership(principal.accountId, userId, role);
      });
      await changed(principal.accountId, userId);
      return toMemberView({ ...(await memberOf(principal.accountId, userId)) });
    },

    /** Removes a member from the account: their sessions and personal keys stop reaching it at once. */
    async remove(principal: Principal, userId: string): Promise<void> {
      const member = await memberOf(principal.accountId, userId);
      mayChange(principal, member.role);
      await store.transaction(async (repos) => {
        if (member.role === 'OWNER' && (await repos.people.countOwners(principal.accountId)) <= 1) {
          throw new LookoutError('CONFLICT', 'The account\'s last owner cannot be removed', { attributes: { code: 'LAST_OWNER' } });
        }
        await repos.people.removeMembership(principal.accountId, userId);
      });
      await changed(principal.accountId, userId);
    },

    /** Invites an address with a role; the link is answered (and mailed when SMTP is configured). */
    async invite(principal: Principal, input: { email: string; role: Role }) {
      mayChange(principal, input.role);
      const email = input.email.trim();
      const existing = await store.people.findByEmail(email);
      if (existing && (await store.people.membership(principal.accountId, existing.id))) {
        throw new LookoutError('CONFLICT', `${email} is already a member`, { attributes: { code: 'ALREADY_MEMBER' } });
      }
      const token = newToken();
      const row = await store.invitations.createInvitation({
        accountId: principal.accountId, email, role: input.role, tokenHash: hashToken(token), invitedBy: principal.userId,
        expiresAt: new Date(Date.now() + INVITATION_DAYS * 86_400_000),
      });
      const link = `${base}/invitations/${token}`;
      const account = await store.accounts.get(principal.accountId);
      const emailed = sendMail
        ? await sendMail({
          to: email,
          subject: `You are invited to ${account?.name ?? 'a Lookout account'} on Lookout`,
          text: `${principal.label} invites you to the account "${account?.name}" as ${ROLE_NAMES[input.role]}.\n\nAccept: ${link}\n\nThe link is good for ${INVITATION_DAYS} days.`,
        })
        : false;
      return { ...toInvitationView(row), link, emailed };
    },

    async invitations(principal: Principal) {
      return (await store.invitations.invitations(principal.accountId)).map((row) => toInvitationView(row));
    },

    async revokeInvitation(principal: Principal, id: string): Promise<void> {
      const open = (await store.invitations.invitations(principal.accountId)).find((i) => i.id === id);
      if (!open) throw notFound('Invitation', id);
      mayChange(principal, open.role);
      await store.invitations.deleteInvitation(principal.accountId, id);
    },

    /** What an invitation link offers, for the page that accepts it. */
    async describeInvitation(token: string) {
      const row = await store.transaction((repos) => repos.invitations.findInvitation(hashToken(token)));
      if (!row) throw notFound('Invitation', 'of this link (it may have expired or been used)');
      const account = await store.accounts.get(row.account_id);
      return { accountName: account?.name ?? '', email: row.email, role: row.role, hasAccount: Boolean(await store.people.findByEmail(row.email)) };
    },

    /**
     * Accepts an invitation: as the signed-in person (`userId`), or as a new person with a name and
     * password. An address that already signs in must sign in first (409 SIGN_IN_FIRST), so a link
     * alone never takes over an existing person. Answers a new session, in the invited account.
     */
    async accept(token: string, input: { userId?: string; name?: string; password?: string }, meta: SessionMeta): Promise<StartedSession> {
      const offered = await store.invitations.findInvitation(hashToken(token));
      if (!offered) throw notFound('Invitation', 'of this link (it may have expired or been used)');
      // The link's route is open to everyone: the audit log names the person accepting, not "the system".
      const actor = { kind: 'user' as const, id: input.userId ?? null, label: offered.email, via: 'rest' as const, ip: meta.ip ?? null };
      const accepted = await runAsAuditActor(actor, () => store.transaction(async (repos) => {
        const invitation = await repos.invitations.findInvitation(hashToken(token));
        if (!invitation) throw notFound('Invitation', 'of this link (it may have expired or been used)');
        let person = input.userId ? await repos.people.get(input.userId) : await repos.people.findByEmail(invitation.email);
        if (!input.userId && person) {
          throw new LookoutError('CONFLICT', `${invitation.email} already has a Lookout sign-in: sign in, then open the link again`, { attributes: { code: 'SIGN_IN_FIRST' } });
        }
        if (!person) {
          if (!input.name || !input.password) {
            throw new LookoutError('VALIDATION', 'A new person needs a name and a password', {
              issues: [...(input.name ? [] : [{ key: 'name', message: 'is required' }]), ...(input.password ? [] : [{ key: 'password', message: 'is required' }])],
              source: 'payload',
            });
          }
          person = await repos.people.create({ email: invitation.email, name: input.name.trim(), passwordHash: await hashPassword(input.password) });
        }
        const current = await repos.people.membership(invitation.account_id, person.id);
        // Accepting never lowers a role the person already has.
        if (!current) await repos.people.upsertMembership(invitation.account_id, person.id, invitation.role);
        await repos.invitations.markInvitationAccepted(invitation.id);
        return { person, accountId: invitation.account_id };
      }));
      await changed(accepted.accountId, accepted.person.id);
      return sessions.start(accepted.person, 'invitation', meta, accepted.accountId);
    },

    /** A password-reset link for a member, for an admin to hand over when no mail can be sent. */
    async resetLink(principal: Principal, userId: string) {
      const member = await memberOf(principal.accountId, userId);
      mayChange(principal, member.role);
      const token = newToken();
      const expiresAt = new Date(Date.now() + RESET_HOURS * 3_600_000);
      await store.invitations.createPasswordReset({ tokenHash: hashToken(token), userId, expiresAt });
      return { link: `${base}/reset-password/${token}`, expiresAt: expiresAt.toISOString() };
    },
  };
}
export type MemberService = ReturnType<typeof createMemberService>;
