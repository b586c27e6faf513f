import type { FastifyReply, FastifyRequest } from 'fastify';
import { LookoutError } from '../domain/lookout-error.js';
import { clearedSessionCookie, sessionCookie } from '../domain/session-token.js';
import type { StartedSession } from '../service/session-service.js';
import type { Api, ApiContext } from './api-context.js';
import { createTryLimiter } from './create-try-limiter.js';
import { SignIn, SwitchAccount } from '../contract/account-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';
import { sessionMetaOf } from './session-meta-of.js';

const tags = ['Sessions'];
const open = { public: true } as never;
/** Failed sign-ins an address (or a client) may make per window before it waits. */
const TRIES_PER_EMAIL = 10;
const TRIES_PER_CLIENT = 50;
const TRY_WINDOW_MS = 15 * 60_000;

/** Sets the cookie of a new session and answers its view. */
export function answerSession(reply: FastifyReply, started: StartedSession, secure: boolean) {
  reply.header('set-cookie', sessionCookie(started.token, started.expiresAt, secure));
  reply.header('cache-control', 'no-store');
  return started.view;
}

/** The session a request was authenticated with: these routes are for console sessions only. */
function sessionOf(req: FastifyRequest): string {
  if (!req.principal.sessionId) throw new LookoutError('FORBIDDEN', 'This route is for console sessions, not API keys', { attributes: { code: 'NEEDS_SESSION' } });
  return req.principal.sessionId;
}

/**
 * `/v1/session`: signing in to the console with an email and password (and TOTP code), the
 * session's view, switching accounts, signing out here or everywhere. Failed sign-ins are counted
 * per address and per client, so guessing passwords waits.
 */
export function sessionRoutes(app: Api, context: ApiContext): void {
  const { sessions } = context;
  const secure = context.config.publicUrl.startsWith('https:');
  const byEmail = createTryLimiter({ max: TRIES_PER_EMAIL, windowMs: TRY_WINDOW_MS });
  const byClient = createTryLimiter({ max: TRIES_PER_CLIENT, windowMs: TRY_WINDOW_MS });

  app.post('/v1/session', {
    config: open,
    schema: {
      operationId: 'signIn', tags, summary: 'Sign in to the console with an email and password; sets the session cookie',
      description: '401 with attributes.code INVALID_CREDENTIALS, TOTP_REQUIRED (send again with `totp`) or TOTP_INVALID. '
        + `After ${TRIES_PER_EMAIL} failures an address waits (429).`,
      body: SignIn, response: responses({ 200: ref('Session') }, 401),
    },
  }, async (req, reply) => {
    const emailKey = req.body.email.trim().toLowerCase();
    const wait = Math.max(byEmail.retryAfter(emailKey), byClient.retryAfter(req.ip));
    if (wait > 0) throw new LookoutError('RATE_LIMITED', `Too many failed sign-ins: try again in ${wait} s`, { retryAfter: wait });
    try {
      const started = await sessions.signIn(req.body, sessionMetaOf(req));
      app.log.info({ userId: started.view.user.id }, 'signed in');
      return answerSession(reply, started, secure);
    } catch (err) {
      const code = (err as LookoutError).attributes?.code;
      if (code !== 'TOTP_REQUIRED') {
        byEmail.count(emailKey);
        byClient.count(req.ip);
      }
      throw err;
    }
  });
  app.get('/v1/session', {
    config: { permission: 'self' },
    schema: { operationId: 'getSession', tags, summary: "The console session's person, accounts and CSRF token", response: responses({ 200: ref('Session') }) },
  }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return sessions.current(sessionOf(req));
  });
  app.put('/v1/session/account', {
    config: { permission: 'self' },
    schema: { operationId: 'switchAccount', tags, summary: 'Act in another account of the person', body: SwitchAccount, response: responses({ 200: ref('Session') }) },
  }, async (req) => sessions.switchAccount(sessionOf(req), req.principal.userId!, req.body.accountId));
  app.delete('/v1/session', {
    config: { permission: 'self' },
    schema: { operationId: 'signOut', tags, summary: 'Sign out: the session ends and its cookie is cleared', response: responses({ 204: NO_CONTENT }) },
  }, async (req, reply) => {
    await sessions.signOut(sessionOf(req));
    return reply.header('set-cookie', clearedSessionCookie(secure)).code(204).send();
  });
  app.delete('/v1/sessions', {
    config: { permission: 'self' },
    schema: {
      operationId: 'signOutEverywhere', tags, summary: "Sign out everywhere: every session of the caller's person ends",
      description: 'Works with a session or a personal key. API keys are not touched: revoke them one by one.', response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    if (!req.principal.userId) throw new LookoutError('FORBIDDEN', 'A service key acts for no person', { attributes: { code: 'NEEDS_PERSON' } });
    await sessions.signOutEverywhere(req.principal.userId);
    return reply.header('set-cookie', clearedSessionCookie(secure)).code(204).send();
  });
}
