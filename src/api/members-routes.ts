import type { Api, ApiContext } from './api-context.js';
import { answerSession } from './session-routes.js';
import { sessionTokenOf } from './authenticate.js';
import { InvitationAccept, InvitationCreate, InvitationIdParams, MemberParams, MemberUpdate, TokenParams } from '../contract/account-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';
import { sessionMetaOf } from './session-meta-of.js';

const tags = ['Members'];
const manage = { permission: 'manage' } as const;

/**
 * An account's people: roles, removal, invitations and admin-issued reset links (managers only),
 * and the invitation link's own routes (no sign-in needed: the link is the secret).
 */
export function membersRoutes(app: Api, context: ApiContext): void {
  const { members } = context;
  const secure = context.config.publicUrl.startsWith('https:');

  app.put('/v1/accounts/me/members/:userId', {
    config: manage,
    schema: {
      operationId: 'updateMember', tags, summary: "Change a member's role",
      description: 'Managers grant up to their own role; only owners make or unmake owners; the last owner stays (409 LAST_OWNER).',
      params: MemberParams, body: MemberUpdate, response: responses({ 200: ref('AccountMember') }, 409),
    },
  }, async (req) => members.setRole(req.principal, req.params.userId, req.body.role));
  app.delete('/v1/accounts/me/members/:userId', {
    config: manage,
    schema: {
      operationId: 'removeMember', tags, summary: 'Remove a member: their sessions and personal keys stop reaching the account at once',
      params: MemberParams, response: responses({ 204: NO_CONTENT }, 409),
    },
  }, async (req, reply) => {
    await members.remove(req.principal, req.params.userId);
    return reply.code(204).send();
  });
  app.post('/v1/accounts/me/members/:userId/password-reset', {
    config: manage,
    schema: {
      operationId: 'createMemberResetLink', tags, summary: "A link that sets a member's password (for servers without SMTP)",
      params: MemberParams, response: responses({ 201: ref('ResetLink') }),
    },
  }, async (req, reply) => reply.code(201).send(await members.resetLink(req.principal, req.params.userId)));

  app.get('/v1/accounts/me/invitations', {
    config: manage,
    schema: { operationId: 'listInvitations', tags, summary: 'Open invitations, newest first', response: responses({ 200: ref('InvitationList') }) },
  }, async (req) => members.invitations(req.principal));
  app.post('/v1/accounts/me/invitations', {
    config: manage,
    schema: {
      operationId: 'createInvitation', tags, summary: 'Invite an address with a role; answers the link (mailed too when SMTP is configured)',
      body: InvitationCreate, response: responses({ 201: ref('CreatedInvitation') }, 409),
    },
  }, async (req, reply) => reply.code(201).send(await members.invite(req.principal, req.body)));
  app.delete('/v1/accounts/me/invitations/:id', {
    config: manage,
    schema: { operationId: 'revokeInvitation', tags, summary: "Revoke an invitation: its link stops working", params: InvitationIdParams, response: responses({ 204: NO_CONTENT }) },
  }, async (req, reply) => {
    await members.revokeInvitation(req.principal, req.params.id);
    return reply.code(204).send();
  });

  app.get('/v1/invitations/:token', {
    config: { public: true } as never,
    schema: { operationId: 'getInvitation', tags, summary: 'What an invitation link offers (no sign-in)', params: TokenParams, response: responses({ 200: ref('InvitationOffer') }, 404) },
  }, async (req) => members.describeInvitation(req.params.token));
  app.post('/v1/invitations/:token/accept', {
    config: { public: true } as never,
    schema: {
      operationId: 'acceptInvitation', tags, summary: 'Accept an invitation: signed in, or as a new person with a name and password; signs in',
      description: 'An address that already signs in must sign in first (409 SIGN_IN_FIRST).',
      params: TokenParams, body: InvitationAccept, response: responses({ 200: ref('Session') }, 403, 404, 409),
    },
  }, async (req, reply) => {
    // Public route: a signed-in person is recognised by their session cookie, if they send one.
    const token = sessionTokenOf(req);
    const signedIn = token ? await context.sessions.personOfToken(token, req.headers['x-lookout-csrf']) : undefined;
    const started = await members.accept(req.params.token, { ...req.body, userId: signedIn }, sessionMetaOf(req));
    return answerSession(reply, started, secure);
  });
}
