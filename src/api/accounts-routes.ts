import { createAccountService } from '../service/account-service.js';
import { createApiKeyService } from '../service/api-key-service.js';
import type { Api, ApiContext } from './api-context.js';
import { AccountIdParams, AccountMemberQuery, AccountUpdate, ApiKeyCreate, ApiKeyIdParams } from '../contract/account-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const tags = ['Accounts'];

/** `/v1/accounts` and the `/next` account and user routes CLIs call first. Only the caller's account exists here. */
export function accountsRoutes(app: Api, context: ApiContext): void {
  const { store, bus } = context;
  const accounts = createAccountService({ store });
  const apiKeys = createApiKeyService({ store, bus, logger: app.log, forget: (keyHash) => context.forgetApiKey?.(keyHash) });

  app.get('/v1/accounts', {
    schema: { operationId: 'listAccounts', tags, summary: "The caller's account, as a one-element array", response: responses({ 200: ref('AccountList') }) },
  }, async (req) =>
    accounts.list(req.principal));
  app.get('/v1/accounts/me', {
    schema: { operationId: 'getCurrentAccount', tags, summary: "The caller's account", response: responses({ 200: ref('Account') }) },
  }, async (req) => accounts.me(req.principal));
  app.put('/v1/accounts/me', {
    config: { permission: 'manage' },
    schema: {
      operationId: 'updateCurrentAccount', tags, summary: "Update the caller's account", response: responses({ 200: ref('Account') }),
      description: 'alertSettings merge over the stored ones key by key; unset parts take the defaults.',
      body: AccountUpdate,
    },
  }, async (req) => accounts.update(req.principal, req.body));
  app.get('/v1/accounts/me/entitlements', {
    schema: {
      operationId: 'getAccountEntitlements', tags, summary: "The caller's plan and what it may use (checkly account plan)",
      description: 'Self-hosted: every check type the server accepts is an enabled flag, nothing is metered, every location is available.',
      response: responses({ 200: ref('AccountPlan') }),
    },
  }, async (req) => accounts.entitlements(req.principal));
  app.get('/v1/accounts/me/access', {
    schema: {
      operationId: 'getAccess', tags, summary: "The caller's role and identity in the account (what the console offers follows it)",
      response: responses({ 200: ref('Access') }),
    },
  }, async (req) => req.principal);
  app.get('/v1/accounts/me/members', {
    schema: {
      operationId: 'listAccountMembers', tags, summary: "The account's members and open invitations, with roles (checkly members)",
      querystring: AccountMemberQuery, response: responses({ 200: ref('AccountMemberPage') }),
    },
  }, async (req) => context.members.list(req.principal, req.query));
  app.get('/v1/accounts/me/api-keys', {
    schema: {
      operationId: 'listApiKeys', tags, summary: "The account's API keys (name, first and last characters, created, last used)",
      description: 'Never the keys themselves: a key is shown once, when it is created.',
      response: responses({ 200: ref('ApiKeyList') }),
    },
  }, async (req) => apiKeys.list(req.principal));
  app.post('/v1/accounts/me/api-keys', {
    // Anyone may make a personal key; service keys are checked against the caller's role (canGrant).
    config: { permission: 'self' },
    schema: {
      operationId: 'createApiKey', tags, summary: 'Create an API key of the account; the answer holds the key, this once',
      description: 'The key is stored as a hash: save it from this answer, it cannot be read again. '
        + 'A personal key (any role) acts as the caller\'s person with their role at each request; a service key carries `role`, '
        + 'which managers give up to their own (403 ROLE_FORBIDS otherwise). Without `kind`, a person (session or personal key) '
        + 'gets a personal key unless the body names a `role`, and a service key makes a service key.',
      body: ApiKeyCreate, response: responses({ 201: ref('CreatedApiKey') }),
    },
  }, async (req, reply) => reply.code(201).send(await apiKeys.create(req.principal, req.body)));
  app.delete('/v1/accounts/me/api-keys/:keyId', {
    // Anyone may revoke their own personal key or the key they use; other keys need a manager.
    config: { permission: 'self' },
    schema: {
      operationId: 'revokeApiKey', tags, summary: 'Revoke an API key: it stops working at once',
      description: 'REST, GraphQL, open graphql-ws sockets and MQTT connections made with it are refused or closed at once, in every process. '
        + 'The account\'s last key cannot be revoked while no owner can sign in (409 LAST_API_KEY). A key may revoke itself.',
      params: ApiKeyIdParams, response: responses({ 204: NO_CONTENT }, 409),
    },
  }, async (req, reply) => {
    await apiKeys.revoke(req.principal, req.params.keyId);
    return reply.code(204).send();
  });
  app.get('/v1/accounts/:accountId', {
    schema: { operationId: 'getAccount', tags, summary: 'An account by id (404 for any account but the caller\'s)', params: AccountIdParams, response: responses({ 200: ref('Account') }) },
  }, async (req) => accounts.get(req.principal, req.params.accountId));

  app.get('/next/accounts', {
    schema: { operationId: 'listNextAccounts', tags, summary: "The caller's account (CLI shape), as a one-element array", response: responses({ 200: ref('NextAccountList') }) },
  }, async (req) =>
    accounts.nextList(req.principal));
  app.get('/next/accounts/:accountId', {
    schema: {
      operationId: 'getNextAccount', tags, summary: 'An account by id, CLI shape (404 for any account but the caller\'s)', params: AccountIdParams,
      response: responses({ 200: ref('NextAccount') }),
    },
  }, async (req) => accounts.nextGet(req.principal, req.params.accountId));
  app.get('/next/users/me', {
    schema: { operationId: 'getCurrentUser', tags, summary: 'The user behind the API key', response: responses({ 200: ref('User') }, 404) },
  }, async (req) => accounts.currentUser(req.principal));
}
