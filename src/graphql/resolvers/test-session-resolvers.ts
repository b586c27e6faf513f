import type { Resolvers } from '../__generated__/resolvers-types.js';
import { cursorConnection } from '../connection.js';
import { codedError, RestError } from '../errors.js';
import { getOrNull } from '../get-or-null.js';
import { checkRestId, isUuid, requireRestId, toGlobalId, uuidRestId } from '../global-id.js';
import type { NodeType } from '../node-type.js';
import type { RestCheckResult, RestTestSession, RestTestSessionErrorGroup } from '../rest-result-types.js';
import { withUserErrors } from '../user-errors.js';
import { restCheckFields } from '../rest-check-fields.js';

const sessionResultPath = (sessionId: string, resultId: string) => `/v1/test-sessions/${sessionId}/results/${resultId}`;

/** Node types of this module: test sessions and their error groups. */
export const testSessionNodeTypes: NodeType[] = [
  {
    idType: 'TestSession',
    fetch: (ctx, restId) => (isUuid(restId) ? getOrNull(ctx.rest, `/v1/test-sessions/${restId}`) : Promise.resolve(null)),
    typeName: () => 'TestSession',
  },
  {
    idType: 'TestSessionErrorGroup',
    fetch: (ctx, restId) => (isUuid(restId) ? getOrNull(ctx.rest, `/v1/test-session-error-groups/${restId}`) : Promise.resolve(null)),
    typeName: () => 'TestSessionErrorGroup',
  },
];

/**
 * Runs a write whose REST 404 means "the input selects nothing" (no activated check matches a
 * trigger): that is a problem with the input, reported as a userError like a 400.
 */
async function withSelectionErrors<T>(write: () => Promise<T>) {
  try {
    return await withUserErrors(write);
  } catch (err) {
    if (!(err instanceof RestError) || err.status !== 404) throw err;
    return { value: null, userErrors: [{ field: null, code: 'NOT_FOUND', message: err.message }] };
  }
}

/** Resolvers of test sessions, their check runs and error groups; trigger and cancel. */
export const testSessionResolvers: Resolvers = {
  Query: {
    testSession: (_root, { id }, ctx) => {
      const restId = uuidRestId(id, 'TestSession');
      return restId ? getOrNull<RestTestSession>(ctx.rest, `/v1/test-sessions/${restId}`) : null;
    },
    testSessions: (_root, { first, after, checkId }, ctx) => {
      const restCheckId = checkId == null ? undefined : checkRestId(checkId);
      if (restCheckId === null) throw codedError('BAD_USER_INPUT', '"checkId" must be a check\'s global id or REST UUID', { argumentName: 'checkId' });
      return cursorConnection(first, after, async (nextId, limit) => {
        const res = await ctx.rest.get<{ entries: RestTestSession[]; nextId: string | null }>('/v1/test-sessions', { limit, nextId: nextId ?? undefined, checkId: restCheckId });
        return { items: res.body.entries ?? [], next: res.body.nextId ?? null };
      });
    },
    testSessionResult: async (_root, { testSessionId, resultId }, ctx) => {
      const sessionId = uuidRestId(testSessionId, 'TestSession');
      if (!sessionId || !isUuid(resultId)) return null;
      const result = await getOrNull<RestCheckResult>(ctx.rest, sessionResultPath(sessionId, resultId));
      return result ? { testSessionId: sessionId, result } : null;
    },
  },
  Mutation: {
    triggerTestSession: async (_root, { input }, ctx) => {
      // Global ids become REST ids; anything else goes as sent, and REST names it in its 400.
      const checkIds = input.checkIds?.map((id) => checkRestId(id) ?? id);
      const { value, userErrors } = await withSelectionErrors(async () => (await ctx.rest.send<RestTestSession>('POST', '/v1/test-sessions/trigger', {
        checkIds, tags: input.tags ?? undefined, name: input.name ?? undefined, runLocation: input.runLocation ?? undefined, environment: input.environment ?? undefined,
      })).body);
      return { testSession: value, userErrors };
    },
    cancelTestSession: async (_root, { id }, ctx) => {
      const restId = requireRestId(uuidRestId(id, 'TestSession'), 'Test session', id);
      const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestTestSession>('POST', `/v1/test-sessions/${restId}/cancel`)).body);
      return { testSession: value, userErrors };
    },
  },
  TestSession: {
    id: (t) => toGlobalId('TestSession', t.id),
    testSessionId: (t) => t.id,
    status: (t) => t.status as never,
    runLocation: (t) => t.runLocation ?? null,
    environment: (t) => t.environment ?? null,
    // Each run carries its session's id: its results are read through the session (see results below).
    checkRuns: (t) => (t.results ?? []).map((r) => ({ ...r, testSessionId: t.id })),
    errorGroupIds: (t) => t.errorGroupIds ?? [],
    errorGroups: async (t, _args, ctx) =>
      (t.errorGroupIds ?? []).length === 0 ? [] : (await ctx.rest.get<RestTestSessionErrorGroup[]>(`/v1/test-sessions/${t.id}/error-groups`)).body,
    createdAt: (t) => t.created_at,
    startedAt: (t) => t.startedAt ?? null,
    stoppedAt: (t) => t.stoppedAt ?? null,
    updatedAt: (t) => t.updated_at ?? null,
    link: (t) => t.testSessionLink ?? '',
  },
  TestSessionCheckRun: {
    check: (r, _args, ctx, info) => ctx.loaders.checkById.load(r.checkId, restCheckFields(info, false)),
    checkType: (r) => r.checkType as never,
    status: (r) => r.status as never,
    sequenceId: (r) => r.sequenceId ?? null,
    resultIds: (r) => r.resultIds ?? [],
    // The session route reads both kinds of result: deployed checks' runs and submitted checks' (`checkly test`), which no check holds.
    results: async (r, _args, ctx) => {
      const sessionId = r.testSessionId;
      if (!sessionId) {
        const results = await ctx.loaders.results.resultByKey.loadMany((r.resultIds ?? []).map((id) => `${r.checkId}:${id}`));
        return results.filter((x): x is RestCheckResult => !!x && !(x instanceof Error));
      }
      const results = await Promise.all((r.resultIds ?? []).filter(isUuid).map((id) => getOrNull<RestCheckResult>(ctx.rest, sessionResultPath(sessionId, id))));
      return results.filter((x): x is RestCheckResult => !!x);
    },
  },
  TestSessionResult: {
    assets: async (p, _args, ctx) => {
      const res = await ctx.rest.get<{ assets: { type: string; name: string; url: string; contentType?: string }[] }>(`${sessionResultPath(p.testSessionId, p.result.id)}/assets`);
      return res.body.assets.map((a) => ({ type: a.type, name: a.name, path: a.url, contentType: a.contentType ?? null }));
    },
  },
  TestSessionErrorGroup: {
    id: (g) => toGlobalId('TestSessionErrorGroup', g.id),
    errorGroupId: (g) => g.id,
    projectId: (g) => g.projectId ?? null,
    environments: (g) => g.environments ?? [],
    rawErrorMessage: (g) => g.rawErrorMessage ?? null,
  },
};
