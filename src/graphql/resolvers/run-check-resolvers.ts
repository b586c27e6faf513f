import type { Resolvers } from '../__generated__/resolvers-types.js';
import type { GraphqlContext } from '../context.js';
import { RestError } from '../errors.js';
import { checkRestId, requireRestId } from '../global-id.js';
import type { RestCheckResult } from '../rest-result-types.js';
import { withUserErrors, type UserError } from '../user-errors.js';

interface TriggerOutcome {
  checkId: string;
  sequenceId: string;
  results: RestCheckResult[];
}

/**
 * Runs a check through `POST /v1/checks/{id}/run`. Backends without that route (Fastify-style
 * "Route … not found" 404) are run through a trigger token instead; a token made for this run only
 * is deleted afterwards, so no public trigger URL is left behind.
 */
async function runNow(ctx: GraphqlContext, checkId: string): Promise<TriggerOutcome> {
  try {
    return (await ctx.rest.send<TriggerOutcome>('POST', `/v1/checks/${checkId}/run`)).body;
  } catch (err) {
    if (!(err instanceof RestError && err.status === 404 && /^Route /.test(err.body?.message ?? ''))) throw err;
  }
  return runThroughTrigger(ctx, checkId);
}

/** The check's trigger token; `created` when this call made it. */
async function triggerToken(ctx: GraphqlContext, checkId: string): Promise<{ token: string; created: boolean }> {
  try {
    return { token: (await ctx.rest.get<{ token: string }>(`/v1/triggers/checks/${checkId}`)).body.token, created: false };
  } catch (err) {
    if (!(err instanceof RestError && err.status === 404)) throw err;
  }
  return { token: (await ctx.rest.send<{ token: string }>('POST', `/v1/triggers/checks/${checkId}`)).body.token, created: true };
}

async function runThroughTrigger(ctx: GraphqlContext, checkId: string): Promise<TriggerOutcome> {
  const { token, created } = await triggerToken(ctx, checkId);
  try {
    return (await ctx.rest.send<TriggerOutcome>('POST', `/checks/${checkId}/trigger/${encodeURIComponent(token)}`)).body;
  } finally {
    if (created) await ctx.rest.send('DELETE', `/v1/triggers/checks/${checkId}`).catch(() => undefined);
  }
}

/**
 * A run the check cannot make is the caller's to fix, not a failure of the layer: REST answers 400
 * (validation keys, such as `locations` for a check with nowhere to run) or 409 (the check's state
 * forbids the run); both become userErrors, the 409 one coded CONFLICT with the REST message.
 */
async function runOrUserErrors(ctx: GraphqlContext, checkId: string): Promise<{ value: TriggerOutcome | null; userErrors: UserError[] }> {
  try {
    return await withUserErrors(() => runNow(ctx, checkId));
  } catch (err) {
    if (!(err instanceof RestError && err.status === 409)) throw err;
    return { value: null, userErrors: [{ field: null, code: 'CONFLICT', message: err.message }] };
  }
}

/** `runCheck`: run one check now and return its FINAL results. */
export const runCheckResolvers: Resolvers = {
  Mutation: {
    runCheck: async (_root, { id }, ctx) => {
      const checkId = requireRestId(checkRestId(id), 'Check', id);
      const { value: outcome, userErrors } = await runOrUserErrors(ctx, checkId);
      if (!outcome) return { check: null, sequenceId: null, results: [], userErrors };
      for (const r of outcome.results) ctx.loaders.results.resultByKey.prime(`${r.checkId}:${r.id}`, r);
      return { check: await ctx.loaders.checkById.load(checkId), sequenceId: outcome.sequenceId, results: outcome.results, userErrors: [] };
    },
  },
};
