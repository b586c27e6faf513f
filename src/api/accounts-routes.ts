import { createAccountService } from '../service/account-service.js';
import type { Api, ApiContext } from './api-context.js';
import { AccountIdParams, AccountUpdate } from '../contract/account-schemas.js';

const tags = ['Accounts'];

/** `/v1/accounts` and the `/next` account and user routes CLIs call first. Only the caller's account exists here. */
export function accountsRoutes(app: Api, { store }: ApiContext): void {
  const accounts = createAccountService({ store });

  app.get('/v1/accounts', { schema: { tags, summary: "The caller's account, as a one-element array" } }, async (req) =>
    accounts.list(req.principal));
  app.get('/v1/accounts/me', { schema: { tags, summary: "The caller's account" } }, async (req) => accounts.me(req.principal));
  app.put('/v1/accounts/me', {
    schema: {
      tags, summary: "Update the caller's account",
      description: 'alertSettings merge over the stored ones key by key; unset parts take the defaults.',
      body: AccountUpdate,
    },
  }, async (req) => accounts.update(req.principal, req.body));
  app.get('/v1/accounts/:accountId', {
    schema: { tags, summary: 'An account by id (404 for any account but the caller\'s)', params: AccountIdParams },
  }, async (req) => accounts.get(req.principal, req.params.accountId));

  app.get('/next/accounts', { schema: { tags, summary: "The caller's account (CLI shape), as a one-element array" } }, async (req) =>
    accounts.nextList(req.principal));
  app.get('/next/accounts/:accountId', {
    schema: { tags, summary: 'An account by id, CLI shape (404 for any account but the caller\'s)', params: AccountIdParams },
  }, async (req) => accounts.nextGet(req.principal, req.params.accountId));
  app.get('/next/users/me', { schema: { tags, summary: 'The user behind the API key' } }, async (req) => accounts.currentUser(req.principal));
}
