import { TOTP } from 'otpauth';
import type { AuditVia } from '../domain/audit-actor.js';
import { LookoutError } from '../domain/lookout-error.js';
import type { Role } from '../domain/roles.js';
import { checkCsrf, hashToken, newToken } from '../domain/session-token.js';
import type { EventBus } from '../events/event-bus.js';
import type { PersonRow } from '../store/people-repository.js';
import type { SessionRow } from '../store/sessions-repository.js';
import type { Store } from '../store/create-store.js';
import { dummyHash, verifyPassword } from './password-hash.js';

/** How long a console session lives without a new sign-in. */
export const SESSION_DAYS = 14;

/** Where a sign-in came from, kept with the session (and shown in lists of sessions). */
export interface SessionMeta {
  ip?: string;
  userAgent?: string;
  /** How the sign-in came, for the audit log; default `console`. */
  via?: AuditVia;
}

/** A session as the console reads it: the person, their accounts and the token writes must echo. */
export interface SessionView {
  user: { id: string; name: string; email: string; totpEnabled: boolean };
  accounts: Array<{ id: string; name: string; role: Role }>;
  /** The account requests act in unless they name another; null when the person belongs to none. */
  accountId: string | null;
  role: Role | null;
  csrfToken: string;
}

/** A new session: the cookie's token (shown this once) and the view. */
export interface StartedSession {
  token: string;
  expiresAt: Date;
  view: SessionView;
}

const refused = (code: string, message: string) => new LookoutError('UNAUTHENTICATED', message, { attributes: { code } });

const TOTP_PERIOD_S = 30;

/** The 30-second step `code` belongs to when it is the person's current code (one step of clock drift either way); null otherwise. */
export function totpStepOf(secret: string, code: string, now = Date.now()): number | null {
  const totp = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S });
  const delta = totp.validate({ token: code.replace(/\s/g, ''), window: 1, timestamp: now });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
}

/** Whether `code` is the person's current TOTP code. */
export function isTotpCode(secret: string, code: string): boolean {
  return totpStepOf(secret, code) !== null;
}

/**
 * Console sessions: signing in with a password (and a second factor when the person has one),
 * the session's view, switching accounts, signing out here or everywhere. Sessions are rows; the
 * cookie holds a random token stored only as its hash.
 */
export function createSessionService({ store, bus }: { store: Store; bus: EventBus }) {
  async function viewOf(session: SessionRow, person: PersonRow): Promise<SessionView> {
    const memberships = await store.people.membershipsOf(person.id);
    const accounts = memberships.map((m) => ({ id: m.account_id, name: m.account_name, role: m.role }));
    const current = accounts.find((a) => a.id === session.account_id) ?? accounts[0] ?? null;
    return {
      user: { id: person.id, name: person.name, email: person.email, totpEnabled: person.totp_enabled },
      accounts,
      accountId: current?.id ?? null,
      role: current?.role ?? null,
      csrfToken: session.csrf_token,
    };
  }

  /** Opens a session for a person already proven (password, single sign-on, an accepted invitation). */
  async function start(person: PersonRow, method: string, meta: SessionMeta, accountId?: string): Promise<StartedSession> {
    const token = newToken();
    const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000);
    const first = accountId ?? (await store.people.membershipsOf(person.id))[0]?.account_id ?? null;
    const session = await store.transaction(async (repos) => {
      const made = await repos.sessions.createSession({
        tokenHash: hashToken(token), userId: person.id, accountId: first, csrfToken: newToken(), method, ip: meta.ip, userAgent: meta.userAgent, expiresAt,
      });
      // Signing in is the person's own doing, though no request has named them yet.
      await repos.auditLog.recordPersonChange(person.id, { action: 'create', resourceType: 'session', resourceId: made.id },
        { kind: 'user', id: person.id, label: person.email, via: meta.via ?? 'console', ip: meta.ip ?? null });
      return made;
    });
    return { token, expiresAt, view: await viewOf(session, person) };
  }

  return {
    start,

    /**
     * Checks an email and password (and TOTP code, when the person enrolled one). Every failure
     * but a missing second factor answers the same INVALID_CREDENTIALS, so answers do not tell
     * which addresses exist; an unknown address costs as much time as a wrong password.
     */
    async signIn(input: { email: string; password: string; totp?: string }, meta: SessionMeta): Promise<StartedSession> {
      const person = await store.people.findByEmail(input.email.trim());
      if (!person?.password_hash) {
        await verifyPassword(await dummyHash(), input.password);
        throw refused('INVALID_CREDENTIALS', 'Wrong email or password');
      }
      if (!(await verifyPassword(person.password_hash, input.password))) throw refused('INVALID_CREDENTIALS', 'Wrong email or password');
      if (person.totp_enabled && person.totp_secret) {
        if (!input.totp) throw refused('TOTP_REQUIRED', 'Enter the 6-digit code of your authenticator app');
        const step = totpStepOf(person.totp_secret, input.totp);
        if (step === null) throw refused('TOTP_INVALID', 'That code is not the current one: try the next');
        if (!(await store.people.spendTotpStep(person.id, step))) throw refused('TOTP_INVALID', 'That code was used already: wait for the next one');
      }
      return start(person, 'password', meta);
    },

    /** The view of the cookie's session. */
    async current(sessionId: string): Promise<SessionView> {
      const session = await store.sessions.getSession(sessionId);
      if (!session) throw refused('SESSION_ENDED', 'Your session has ended: sign in again');
      const person = await store.people.get(session.user_id);
      if (!person) throw refused('SESSION_ENDED', 'Your session has ended: sign in again');
      return viewOf(session, person);
    },

    /**
     * The person of a session cookie on a route open to everyone (accepting an invitation), with
     * the same CSRF rule as authenticated writes; undefined for an ended session.
     */
    async personOfToken(token: string, csrf: string | string[] | undefined): Promise<string | undefined> {
      const session = await store.sessions.findSession(hashToken(token));
      if (!session) return undefined;
      checkCsrf(csrf, session.csrf_token);
      return session.user_id;
    },

    /** Makes `accountId` the session's account; the person must be a member of it. */
    async switchAccount(sessionId: string, userId: string, accountId: string): Promise<SessionView> {
      if (!(await store.people.membership(accountId, userId))) {
        throw new LookoutError('FORBIDDEN', `You are not a member of account "${accountId}"`, { attributes: { code: 'NOT_A_MEMBER' } });
      }
      await store.sessions.setSessionAccount(sessionId, accountId);
      return this.current(sessionId);
    },

    async signOut(sessionId: string): Promise<void> {
      await store.transaction(async (repos) => {
        const userId = await repos.sessions.deleteSession(sessionId);
        if (userId) await repos.auditLog.recordPersonChange(userId, { action: 'delete', resourceType: 'session', resourceId: sessionId });
      });
      await bus.publish({ type: 'accessChanged', accountId: null, userId: null, sessionIds: [sessionId] });
    },

    /** Ends every session of the person (their keys are not touched: they are revoked one by one). */
    async signOutEverywhere(userId: string): Promise<void> {
      const sessionIds = await store.transaction(async (repos) => {
        const ended = await repos.sessions.deleteSessionsOf(userId);
        for (const id of ended) await repos.auditLog.recordPersonChange(userId, { action: 'delete', resourceType: 'session', resourceId: id });
        return ended;
      });
      await bus.publish({ type: 'accessChanged', accountId: null, userId, sessionIds });
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
