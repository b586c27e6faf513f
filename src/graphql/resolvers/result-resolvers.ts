import type { Resolvers } from '../__generated__/resolvers-types.js';
import type { NodeType } from '../node-type.js';
import type { RestApiCheckResult, RestAssertionOutcome, RestCheckResult, RestJobAsset, RestScriptCheckResult } from '../rest-result-types.js';
import { resultGlobalId, resultRestIds } from '../run-data-ids.js';
import { restCheckFields } from '../rest-check-fields.js';

/** Node types of this module: results (their global id carries the check id, which REST reads them under). */
export const resultNodeTypes: NodeType[] = [
  {
    idType: 'CheckResult',
    fetch: (ctx, restId) => {
      const [checkId, resultId] = restId.split(':');
      return ctx.loaders.results.resultByKey.load(`${checkId}:${resultId}`);
    },
    typeName: () => 'CheckResult',
  },
];

/** `{name: value}` objects of the REST result as name/value lists (arrays of repeated headers joined). */
function pairs(map: Record<string, string | string[]> | null | undefined): { name: string; value: string }[] {
  return Object.entries(map ?? {}).map(([name, value]) => ({ name, value: Array.isArray(value) ? value.join(', ') : String(value) }));
}

/** Assets with the REST path that downloads them (it names the result, which the asset itself does not). */
function withPaths(assets: RestJobAsset[] | null | undefined, r: RestCheckResult): RestJobAsset[] {
  return (assets ?? []).map((a) => ({ ...a, path: `/v1/check-results/${r.checkId}/${r.id}/assets/${encodeURIComponent(a.file)}` }));
}

function scriptPart(part: RestScriptCheckResult | null | undefined, r: RestCheckResult): RestScriptCheckResult | null {
  return part ? { ...part, jobAssets: withPaths(part.jobAssets, r) } : null;
}

/** The agent's report with the download path of each step screenshot (in jobAssets, as for scripts). */
function agenticPart(r: RestCheckResult): Record<string, unknown> | null {
  const part = r.agenticCheckResult as Record<string, unknown> | null | undefined;
  if (!part) return null;
  return Array.isArray(part.jobAssets) ? { ...part, jobAssets: withPaths(part.jobAssets as RestJobAsset[], r) } : part;
}

/** Executor detail of the types whose result part has no field of its own in the spec. */
function probeDetailOf(r: RestCheckResult): Record<string, unknown> | null {
  return r.tcpCheckResult ?? r.dnsCheckResult ?? r.icmpCheckResult ?? r.heartbeatCheckResult
    ?? r.sslCheckResult ?? r.tracerouteCheckResult ?? r.grpcCheckResult ?? null;
}

const text = (v: unknown) => (v === undefined || v === null ? null : String(v));

/** Resolvers of CheckResult and its typed parts, and `Query.checkResult`. */
export const resultResolvers: Resolvers = {
  Query: {
    checkResult: (_root, { id }, ctx) => {
      const ids = resultRestIds(id);
      return ids ? ctx.loaders.results.resultByKey.load(`${ids.checkId}:${ids.resultId}`) : null;
    },
  },
  CheckResult: {
    id: (r) => resultGlobalId(r.checkId, r.id),
    resultId: (r) => r.id,
    check: (r, _args, ctx, info) => ctx.loaders.checkById.load(r.checkId, restCheckFields(info, false)),
    checkType: (r) => r.checkType as never,
    resultType: (r) => r.resultType as never,
    createdAt: (r) => r.created_at,
    sequenceId: (r) => r.sequenceId ?? null,
    checkRunId: (r) => text(r.checkRunId),
    errors: (r) => r.errors ?? [],
    assertions: (r) => (r.apiCheckResult?.assertions ?? (probeDetailOf(r)?.assertions as RestAssertionOutcome[] | undefined) ?? []),
    apiCheckResult: (r) => r.apiCheckResult ? { ...r.apiCheckResult, jobAssets: withPaths(r.apiCheckResult.jobAssets, r) } : null,
    browserCheckResult: (r) => scriptPart(r.browserCheckResult, r),
    multiStepCheckResult: (r) => scriptPart(r.multiStepCheckResult, r),
    agenticCheckResult: (r) => agenticPart(r),
    probeDetail: (r) => probeDetailOf(r),
    errorGroupIds: (r) => r.errorGroupIds ?? [],
    errorGroups: async (r, _args, ctx) => {
      const groups = await ctx.loaders.errorGroupById.loadMany(r.errorGroupIds ?? []);
      return groups.filter((g): g is NonNullable<typeof g> & { id: string } => !!g && !(g instanceof Error) && 'id' in g) as never;
    },
  },
  ApiCheckResult: {
    assertions: (p: RestApiCheckResult) => p.assertions ?? [],
    request: (p) => (p.request ? {
      method: p.request.method ?? 'GET', url: p.request.url ?? '', data: p.request.data ?? '',
      headers: pairs(p.request.headers), params: pairs(p.request.params),
    } : null),
    response: (p) => (p.response ? {
      status: p.response.status,
      statusText: p.response.statusText ?? '',
      body: p.response.body ?? '',
      bodyTruncated: p.response.bodyTruncated ?? false,
      bodySize: p.response.bodySize ?? null,
      url: p.response.url ?? null,
      headers: pairs(p.response.headers),
      timings: (p.response.timings as never) ?? null,
      timingPhases: (p.response.timingPhases as never) ?? null,
    } : null),
    requestError: (p) => p.requestError ?? null,
    jobLog: (p) => ({ setup: p.jobLog?.setup ?? [], request: p.jobLog?.request ?? [], teardown: p.jobLog?.teardown ?? [] }) as never,
    jobAssets: (p) => p.jobAssets ?? [],
  },
  ScriptCheckResult: {
    errors: (p) => (p.errors ?? []).map((e) => ({ code: e.code ?? 'ERROR', message: e.message ?? '', stack: e.stack ?? null })),
    jobLog: (p) => p.jobLog ?? [],
    jobAssets: (p) => p.jobAssets ?? [],
  },
  JobAsset: {
    path: (a) => a.path ?? '',
    type: (a) => a.type ?? 'file',
  },
  AssertionOutcome: {
    target: (a) => text(a.target),
    property: (a) => a.property ?? null,
    regex: (a) => a.regex ?? null,
    actual: (a) => a.actual ?? null,
    passed: (a) => a.passed ?? false,
    error: (a) => a.error ?? null,
  },
};
