import { Secret, TOTP } from 'otpauth';
import { LookoutError } from '../domain/lookout-error.js';
import { passwordIssues } from '../domain/password-issues.js';
import type { Principal } from '../domain/principal.js';
import { hashToken, newToken } from '../domain/session-token.js';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import type { Repositories } from '../store/repositories.js';
import { RESET_HOURS, type SendPersonMail } from './member-service.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { isTotpCode, type SessionMeta } from './session-service.js';

/** Options of createPersonService. */
export interface PersonServiceOptions {
  store: Store;
  bus: EventBus;
  publicUrl: string;
  sendMail?: SendPersonMail;
  logger?: { info(details: object, message: string): void };
}

const invalid = (key: string, message: string) => new LookoutError('VALIDATION', `"${key}" ${message}`, { issues: [{ key, message }], source: 'payload' });

/** The person making a request: a service key acts for no one. */
export function personOf(principal: Principal): string {
  if (!principal.userId) {
    throw new LookoutError('FORBIDDEN', 'A service key acts for no person: sign in, or use a personal key', { attributes: { code: 'NEEDS_PERSON' } });
  }
  return principal.userId;
}

/**
 * What a person does to their own sign-in: the password (changed, or reset by link), the TOTP
 * second factor. A new password ends the person's other sessions everywhere.
 */
export function createPersonService({ store, bus, publicUrl, sendMail, logger }: PersonServiceOptions) {
  const endSessions = async (userId: string, keep?: string | null) => {
    const ended = (await store.sessions.sessionsOf(userId)).map((s) => s.id).filter((id) => id !== keep);
    for (const id of ended) await store.sessions.deleteSession(id);
    await bus.publish({ type: 'accessChanged', accountId: null, userId, sessionIds: ended });
  };
  /** Changes the person's own sign-in and logs it in each of their accounts (users belong to none), in one transaction. */
  const changeOwn = (userId: string, field: 'password' | 'totp', write: (repos: Repositories) => Promise<unknown>) =>
    store.transaction(async (repos) => {
      await write(repos);
      await repos.auditLog.recordPersonChange(userId, { action: 'update', resourceType: 'person', resourceId: userId, fields: [field] });
    });
  const check = (password: string, key: string) => {
    const [issue] = passwordIssues(password, key);
    if (issue) throw invalid(key, issue.message);
  };

  return {
    async changePassword(principal: Principal, input: { currentPassword: string; newPassword: string }): Promise<void> {
      const person = await store.people.get(personOf(principal));
      if (!person?.password_hash || !(await verifyPassword(person.password_hash, input.currentPassword))) throw invalid('currentPassword', 'is not your password');
      check(input.newPassword, 'newPassword');
      const hash = await hashPassword(input.newPassword);
      await changeOwn(person.id, 'password', (repos) => repos.people.setPassword(person.id, hash));
      await endSessions(person.id, principal.sessionId);
    },

    /** Starts enrolling a second factor: a new secret, active once a code from it is confirmed. */
    async startTotp(principal: Principal): Promise<{ secret: string; uri: string }> {
      const person = await store.people.get(personOf(principal));
      if (!person) throw invalid('user', 'is unknown');
      if (person.totp_enabled) throw new LookoutError('CONFLICT', 'A second factor is already on: turn it off first', { attributes: { code: 'TOTP_ON' } });
      const secret = new Secret({ size: 20 });
      await store.people.setTotp(person.id, secret.base32, false);
      const totp = new TOTP({ issuer: 'Lookout', label: person.email, secret, algorithm: 'SHA1', digits: 6, period: 30 });
      return { secret: secret.base32, uri: totp.toString() };
    },

    async confirmTotp(principal: Principal, code: string): Promise<void> {
      const person = await store.people.get(personOf(principal));
      if (!person?.totp_secret || person.totp_enabled) throw new LookoutError('CONFLICT', 'Start enrolling first', { attributes: { code: 'TOTP_NOT_STARTED' } });
      if (!isTotpCode(person.totp_secret, code)) throw invalid('code', 'is not the current code of that secret');
      const secret = person.totp_secret;
      await changeOwn(person.id, 'totp', (repos) => repos.people.setTotp(person.id, secret, true));
    },

    async disableTotp(principal: Principal, code: string): Promise<void> {
      const person = await store.people.get(personOf(principal));
      if (!person?.totp_enabled || !person.totp_secret) throw new LookoutError('CONFLICT', 'No second factor is on', { attributes: { code: 'TOTP_OFF' } });
      if (!isTotpCode(person.totp_secret, code)) throw invalid('code', 'is not the current code');
      await changeOwn(person.id, 'totp', (repos) => repos.people.setTotp(person.id, null, false));
    },

    /**
     * Mails a reset link when the address signs in and SMTP is configured; answers the same either
     * way, so the answer does not tell which addresses exist. Without SMTP an admin issues the link.
     */
    async requestReset(email: string): Promise<void> {
      const person = await store.people.findByEmail(email.trim());
      if (!person) return;
      if (!sendMail) {
        logger?.info({ userId: person.id }, 'password reset asked, but no SMTP is configured: an admin can issue a reset link');
        return;
      }
      const token = newToken();
      await store.invitations.createPasswordReset({ tokenHash: hashToken(token), userId: person.id, expiresAt: new Date(Date.now() + RESET_HOURS * 3_600_000) });
      const link = `${publicUrl.replace(/\/$/, '')}/reset-password/${token}`;
      await sendMail({ to: person.email, subject: 'Reset your Lookout password', text: `Set a new password: ${link}\n\nThe link is good for ${RESET_HOURS} hours and works once. If you did not ask for it, ignore this mail.` });
    },

    /** Sets a new password from a reset link (once) and ends every session of the person. */
    async reset(token: string, password: string, from: SessionMeta = {}): Promise<void> {
      check(password, 'password');
      const hash = await hashPassword(password);
      // The link is spent only with the new password set and logged: all or nothing.
      const userId = await store.transaction(async (repos) => {
        const owner = await repos.invitations.consumePasswordReset(hashToken(token));
        if (!owner) throw new LookoutError('NOT_FOUND', 'This reset link is unknown, used or expired: ask for another', { attributes: { code: 'RESET_LINK_INVALID' } });
        await repos.people.setPassword(owner, hash);
        // Whoever holds the link acts as its person.
        const label = (await repos.people.get(owner))?.email ?? owner;
        await repos.auditLog.recordPersonChange(owner, { action: 'update', resourceType: 'person', resourceId: owner, fields: ['password'] },
          { kind: 'user', id: owner, label, via: from.via ?? 'console', ip: from.ip ?? null });
        return owner;
      });
      await endSessions(userId);
    },
  };
}
export type PersonService = ReturnType<typeof createPersonService>;
