import type { Api, ApiContext } from './api-context.js';
import { PasswordChange, ResetPassword, ResetRequest, TokenParams, TotpCode } from '../contract/account-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';
import { sessionMetaOf } from './session-meta-of.js';

const tags = ['Sessions'];
const self = { permission: 'self' } as const;

/** A person's own sign-in: password, TOTP second factor, and password resets by link. */
export function peopleRoutes(app: Api, context: ApiContext): void {
  const { people } = context;

  app.put('/v1/users/me/password', {
    config: self,
    schema: {
      operationId: 'changePassword', tags, summary: 'Change your password; your other sessions end',
      body: PasswordChange, response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    await people.changePassword(req.principal, req.body);
    return reply.code(204).send();
  });
  app.post('/v1/users/me/totp', {
    config: self,
    schema: {
      operationId: 'startTotp', tags, summary: 'Start enrolling a TOTP second factor: the secret, this once',
      description: 'The factor is on once a code from it is confirmed (POST /v1/users/me/totp/confirm).', response: responses({ 200: ref('TotpEnrolment') }, 409),
    },
  }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return people.startTotp(req.principal);
  });
  app.post('/v1/users/me/totp/confirm', {
    config: self,
    schema: { operationId: 'confirmTotp', tags, summary: 'Turn the second factor on with a current code', body: TotpCode, response: responses({ 204: NO_CONTENT }, 409) },
  }, async (req, reply) => {
    await people.confirmTotp(req.principal, req.body.code);
    return reply.code(204).send();
  });
  app.delete('/v1/users/me/totp', {
    config: self,
    schema: { operationId: 'disableTotp', tags, summary: 'Turn the second factor off with a current code', body: TotpCode, response: responses({ 204: NO_CONTENT }, 409) },
  }, async (req, reply) => {
    await people.disableTotp(req.principal, req.body.code);
    return reply.code(204).send();
  });

  app.post('/v1/password-resets', {
    config: { public: true, rateLimit: { max: 5, timeWindow: 60_000 } } as never,
    schema: {
      operationId: 'requestPasswordReset', tags, summary: 'Mail a password-reset link (when SMTP is configured)',
      description: 'Answers 204 whether or not the address signs in. Without SMTP, an admin makes the link (POST /v1/accounts/me/members/{userId}/password-reset).',
      body: ResetRequest, response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    await people.requestReset(req.body.email);
    return reply.code(204).send();
  });
  app.post('/v1/password-resets/:token', {
    config: { public: true, rateLimit: { max: 10, timeWindow: 60_000 } } as never,
    schema: {
      operationId: 'resetPassword', tags, summary: 'Set a new password from a reset link (once); every session of the person ends',
      params: TokenParams, body: ResetPassword, response: responses({ 204: NO_CONTENT }, 404),
    },
  }, async (req, reply) => {
    await people.reset(req.params.token, req.body.password, sessionMetaOf(req));
    return reply.code(204).send();
  });
}
