import type { MutationResolvers, Resolvers } from '../__generated__/resolvers-types.js';
import type { RestClientCertificate, RestTriggerToken } from '../rest-credential-types.js';
import type { GraphqlContext } from '../context.js';
import { RestError } from '../errors.js';
import { checkRestId, groupRestId, requireRestId, uuidRestId } from '../global-id.js';
import { withUserErrors } from '../user-errors.js';

const CERTIFICATES = '/v1/client-certificates';
const checkTriggerPath = (id: string) => `/v1/triggers/checks/${id}`;
const groupTriggerPath = (id: number) => `/v1/triggers/check-groups/${id}`;

const checkIdOf = (id: string) => requireRestId(checkRestId(id), 'Check', id);
const groupIdOf = (id: string) => requireRestId(groupRestId(id), 'CheckGroup', id);

/** Creates the token at `path` (REST answers the existing one when there is one). */
async function createToken(ctx: GraphqlContext, path: string) {
  const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestTriggerToken>('POST', path)).body);
  return { triggerToken: value, userErrors };
}

/** Removes the token at `path`; none there (404) is fine when rotating, as the new one follows. */
async function deleteToken(ctx: GraphqlContext, path: string, missingIsFine: boolean): Promise<boolean> {
  try {
    await ctx.rest.send('DELETE', path);
    return true;
  } catch (err) {
    if (missingIsFine && err instanceof RestError && err.status === 404) return false;
    throw err;
  }
}

/**
 * Client certificates (create, delete) and trigger tokens of checks and groups (create, rotate,
 * delete), each over its REST route; REST 400s become userErrors, 404 stays NOT_FOUND and a
 * certificate for a host that has one already is REST's 409, a CONFLICT error.
 */
const mutation: MutationResolvers = {
  createClientCertificate: async (_root, { input }, ctx) => {
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestClientCertificate>('POST', CERTIFICATES, input)).body);
    return { clientCertificate: value, userErrors };
  },
  deleteClientCertificate: async (_root, { id }, ctx) => {
    const restId = requireRestId(uuidRestId(id, 'ClientCertificate'), 'ClientCertificate', id);
    await ctx.rest.send('DELETE', `${CERTIFICATES}/${restId}`);
    return { deletedId: restId, userErrors: [] };
  },
  createCheckTriggerToken: (_root, { checkId }, ctx) => createToken(ctx, checkTriggerPath(checkIdOf(checkId))),
  rotateCheckTriggerToken: async (_root, { checkId }, ctx) => {
    const path = checkTriggerPath(checkIdOf(checkId));
    await deleteToken(ctx, path, true);
    return createToken(ctx, path);
  },
  deleteCheckTriggerToken: async (_root, { checkId }, ctx) => ({ deleted: await deleteToken(ctx, checkTriggerPath(checkIdOf(checkId)), false), userErrors: [] }),
  createGroupTriggerToken: (_root, { groupId }, ctx) => createToken(ctx, groupTriggerPath(groupIdOf(groupId))),
  rotateGroupTriggerToken: async (_root, { groupId }, ctx) => {
    const path = groupTriggerPath(groupIdOf(groupId));
    await deleteToken(ctx, path, true);
    return createToken(ctx, path);
  },
  deleteGroupTriggerToken: async (_root, { groupId }, ctx) => ({ deleted: await deleteToken(ctx, groupTriggerPath(groupIdOf(groupId)), false), userErrors: [] }),
};

/** Client certificate and trigger token mutations, and the types they answer. */
export const clientCertificateMutationResolvers: Resolvers = {
  Mutation: mutation,
  ClientCertificate: {
    clientCertificateId: (c) => c.id,
    createdAt: (c) => c.created_at,
    updatedAt: (c) => c.updated_at,
  },
  TriggerToken: {
    checkId: (t) => t.checkId ?? null,
    groupId: (t) => t.groupId ?? null,
    calledAt: (t) => t.called_at,
    createdAt: (t) => t.created_at,
  },
};
