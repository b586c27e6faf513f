import Type from 'typebox';
import type { FastifyRequest } from 'fastify';
import { isSameSecret } from '../domain/is-same-secret.js';
import { LookoutError, notFound } from '../domain/lookout-error.js';
import { sandboxOffRefusal } from '../runner/sandbox/sandbox-off-refusal.js';
import { createApiKeyService } from '../service/api-key-service.js';
import { createAccountWithKey } from '../service/bootstrap.js';
import { commandLineOwner } from '../service/command-line-owner.js';
import type { Api, ApiContext } from './api-context.js';
import { ApiKeyCreate } from '../contract/account-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const tags = ['Accounts'];
const admin = { public: true } as never;
const AccountParams = Type.Object({ accountId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
const KeyParams = Type.Object({ accountId: Type.String({ format: 'uuid' }), keyId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
const AccountCreate = Type.Object({ name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }) }, { additionalProperties: false });
const DESCRIPTION = 'For the `lookout keys` and `lookout accounts` commands on the machine of a server with an embedded database: '
  + 'the bearer token is the one the server wrote to `lookout.server.json` in its data directory (readable by its owner only), '
  + 'valid until it stops. API keys are refused here.';

/**
 * `/v1/admin/...`: what the command line does to accounts and keys while the server holds the
 * embedded database (PGlite is one process: the CLI cannot open it beside the server). Served only
 * when the server made a local admin token (embedded database); every other caller gets 401.
 */
export function localAdminRoutes(app: Api, context: ApiContext): void {
  const token = context.localAdminToken;
  if (!token) return;
  const { store, bus, config } = context;
  const apiKeys = createApiKeyService({ store, bus, logger: app.log, forget: (keyHash) => context.forgetApiKey?.(keyHash) });
  const onRequest = async (req: FastifyRequest) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match || !isSameSecret(match[1]!, token)) throw new LookoutError('UNAUTHENTICATED', 'These routes take the local admin token of lookout.server.json, not an API key');
  };
  /** The account acting as its owner (the first user): keys made here belong to it. */
  const ownerOf = async (accountId: string) => {
    if (!(await store.accounts.get(accountId))) throw notFound('Account', accountId);
    const user = await store.accounts.firstUser(accountId);
    return commandLineOwner(accountId, user?.id ?? null);
  };

  app.post('/v1/admin/accounts', {
    config: admin, onRequest,
    schema: { operationId: 'adminCreateAccount', tags, summary: 'Create an account with a first API key (local admin token)', description: DESCRIPTION, body: AccountCreate, response: responses({ 201: ref('AdminCreatedAccount') }, 409) },
  }, async (req, reply) => {
    // A server whose sandbox is off must stay single-account (see sandboxOffRefusal).
    const refusal = sandboxOffRefusal(config.sandbox, (await store.accounts.count()) + 1);
    if (refusal) throw new LookoutError('CONFLICT', refusal, { attributes: { code: 'SANDBOX_OFF_SINGLE_ACCOUNT' } });
    const made = await createAccountWithKey(store, { name: req.body.name });
    app.log.info({ accountId: made.accountId }, 'account created from the command line');
    return reply.code(201).send({ accountId: made.accountId, key: made.apiKey });
  });
  app.get('/v1/admin/accounts/:accountId/api-keys', {
    config: admin, onRequest,
    schema: { operationId: 'adminListApiKeys', tags, summary: "An account's API keys (local admin token)", description: DESCRIPTION, params: AccountParams, response: responses({ 200: ref('ApiKeyList') }) },
  }, async (req) => apiKeys.list(await ownerOf(req.params.accountId)));
  app.post('/v1/admin/accounts/:accountId/api-keys', {
    config: admin, onRequest,
    schema: { operationId: 'adminCreateApiKey', tags, summary: 'Create an API key of an account (local admin token)', description: DESCRIPTION, params: AccountParams, body: ApiKeyCreate, response: responses({ 201: ref('CreatedApiKey') }) },
  }, async (req, reply) => reply.code(201).send(await apiKeys.create(await ownerOf(req.params.accountId), { kind: 'service', ...req.body })));
  app.delete('/v1/admin/accounts/:accountId/api-keys/:keyId', {
    config: admin, onRequest,
    schema: { operationId: 'adminRevokeApiKey', tags, summary: 'Revoke an API key of an account (local admin token)', description: DESCRIPTION, params: KeyParams, response: responses({ 204: NO_CONTENT }, 409) },
  }, async (req, reply) => {
    await apiKeys.revoke(await ownerOf(req.params.accountId), req.params.keyId);
    return reply.code(204).send();
  });
}
