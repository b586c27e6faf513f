import type { GraphQLResolveInfo } from 'graphql';
import type { CheckResultListFilter, Resolvers } from '../__generated__/resolvers-types.js';
import { ANALYTICS_ROUTE_SEGMENTS } from '../../domain/analytics-metrics.js';
import { cursorConnection } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import { codedError } from '../errors.js';
import { toCheckIdle } from '../check-idle.js';
import { checkRestId } from '../global-id.js';
import type { RestCheck } from '../rest-types.js';
import type { RestAnalyticsBucket, RestAnalyticsReport, RestCheckResult, RestCheckStatus, RestMetricValue } from '../rest-result-types.js';
import type { ResultQuery } from '../result-loaders.js';
import { restResultFields } from '../rest-result-fields.js';
import { restCheckFields } from '../rest-check-fields.js';

/** Analytics route segment per check type (Playwright and agentic checks have none). */
const SEGMENT_OF_TYPE = new Map<string, string>(Object.entries(ANALYTICS_ROUTE_SEGMENTS).map(([segment, type]) => [type, segment]));

const QUICK_RANGES: Record<string, string> = {
  LAST_24_HOURS: 'last24Hours', LAST_7_DAYS: 'last7Days', LAST_30_DAYS: 'last30Days', THIS_WEEK: 'thisWeek',
  THIS_MONTH: 'thisMonth', LAST_WEEK: 'lastWeek', LAST_MONTH: 'lastMonth',
};

/** UNIX seconds of a DateTime argument; BAD_USER_INPUT when it is not a date. */
function unixSeconds(value: string | null | undefined, argumentName: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || ms < 0) throw codedError('BAD_USER_INPUT', `"${argumentName}" must be an ISO-8601 date-time`, { argumentName });
  return ms / 1000;
}

/** The REST query of a result-list filter. */
export function resultQuery(filter: CheckResultListFilter | null | undefined): ResultQuery {
  return {
    from: unixSeconds(filter?.from, 'filter.from'),
    to: unixSeconds(filter?.to, 'filter.to'),
    location: filter?.location ?? undefined,
    hasFailures: filter?.hasFailures ?? undefined,
    resultType: filter?.resultType ?? undefined,
  };
}

function inRange(value: number, min: number, max: number, argumentName: string): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw codedError('BAD_USER_INPUT', `"${argumentName}" must be between ${min} and ${max}`, { argumentName });
  }
  return value;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** What every check type resolves the same way for its run data. */
const runDataFields = {
  results: (c: RestCheck, args: { first?: number | null; after?: string | null; filter?: CheckResultListFilter | null }, ctx: GraphqlContext, info: GraphQLResolveInfo) => {
    const query = resultQuery(args.filter);
    const fields = restResultFields(info, true);
    return cursorConnection(args.first, args.after, async (nextId, limit) => {
      const res = await ctx.rest.get<{ entries: RestCheckResult[]; nextId: string | null }>(`/v2/check-results/${c.id}`, { ...query, limit, nextId: nextId ?? undefined, fields });
      return { items: res.body.entries ?? [], next: res.body.nextId ?? null };
    });
  },
  latestResults: (c: RestCheck, args: { count?: number | null; filter?: CheckResultListFilter | null }, ctx: GraphqlContext, info: GraphQLResolveInfo) =>
    ctx.loaders.results.latestResults.load({
      checkId: c.id, count: inRange(args.count ?? 5, 1, 10, 'count'), filter: resultQuery(args.filter), fields: restResultFields(info, false),
    }),
  status: (c: RestCheck, _args: unknown, ctx: GraphqlContext) => ctx.loaders.results.statusByCheckId.load(c.id),
  errorGroups: (c: RestCheck, args: { first?: number | null; archived?: boolean | null }, ctx: GraphqlContext) =>
    ctx.loaders.results.checkErrorGroups.load({ checkId: c.id, first: inRange(args.first ?? 10, 1, 100, 'first'), archived: args.archived ?? undefined }),
  analytics: async (c: RestCheck, args: {
    metrics: string[]; quickRange?: string | null; from?: string | null; to?: string | null; aggregationInterval?: number | null;
    filterByStatus?: string[] | null; groupBy?: string | null; page?: number | null; limit?: number | null;
  }, ctx: GraphqlContext) => {
    const segment = SEGMENT_OF_TYPE.get(c.checkType);
    if (!segment) return null;
    const res = await ctx.rest.get<RestAnalyticsReport>(`/v1/analytics/${segment}/${c.id}`, {
      metrics: args.metrics.join(','),
      quickRange: args.quickRange ? QUICK_RANGES[args.quickRange] : undefined,
      from: unixSeconds(args.from, 'from'),
      to: unixSeconds(args.to, 'to'),
      aggregationInterval: args.aggregationInterval ?? undefined,
      filterByStatus: args.filterByStatus?.length ? args.filterByStatus.map((s) => s.toLowerCase()).join(',') : undefined,
      groupBy: args.groupBy === 'RUN_LOCATION' ? 'runLocation' : args.groupBy === 'STATUS_CODE' ? 'statusCode' : undefined,
      page: args.page ?? undefined,
      limit: args.limit ?? undefined,
    });
    return res.body;
  },
  analyticsSummary: async (c: RestCheck, args: { metrics?: string[] | null; quickRange?: string | null; from?: string | null; to?: string | null }, ctx: GraphqlContext) => {
    const entry = await ctx.loaders.results.analyticsSummary.load({
      checkId: c.id,
      metrics: args.metrics ?? undefined,
      quickRange: args.quickRange ? QUICK_RANGES[args.quickRange] : undefined,
      from: unixSeconds(args.from, 'from'),
      to: unixSeconds(args.to, 'to'),
    });
    if (!entry) return null;
    const { checkId: _c, name: _n, checkType: _t, from, to, ...metrics } = entry;
    const values: RestMetricValue[] = Object.entries(metrics).map(([metric, value]) => ({ metric, value: num(value) }));
    return { from: String(from), to: String(to), values } as never;
  },
  badge: async (c: RestCheck, args: { style?: string | null; theme?: string | null; responseTime?: boolean | null }, ctx: GraphqlContext) => {
    const query = {
      style: (args.style ?? 'FLAT').toLowerCase().replaceAll('_', '-'),
      theme: (args.theme ?? 'DEFAULT').toLowerCase(),
      responseTime: args.responseTime ?? false,
    };
    const path = `/v1/badges/checks/${c.id}`;
    const res = await ctx.rest.get<string>(path, query);
    // checkId: for the badge's public URL (public-badge-resolvers.ts).
    return { svg: String(res.body ?? ''), path: `${path}?${new URLSearchParams({ ...query, responseTime: String(query.responseTime) })}`, checkId: c.id };
  },
};

const CHECK_TYPES = [
  'ApiCheck', 'UrlCheck', 'TcpCheck', 'DnsCheck', 'IcmpCheck', 'HeartbeatCheck', 'BrowserCheck', 'MultiStepCheck', 'PlaywrightCheck', 'AgenticCheck',
  'SslCheck', 'TracerouteCheck',
  'GrpcCheck',
] as const;

type Series = RestAnalyticsReport['series'][number];

/** Run data on every check type, CheckStatus, analytics types, and `Query.checkStatuses`. */
export const checkRunDataResolvers: Resolvers = {
  ...(Object.fromEntries(CHECK_TYPES.map((t) => [t, runDataFields])) as Resolvers),
  Query: {
    checkStatuses: async (_root, { checkIds }, ctx) => {
      if (checkIds) {
        if (checkIds.length > 100) throw codedError('BAD_USER_INPUT', '"checkIds" holds at most 100 ids', { argumentName: 'checkIds' });
        const ids = checkIds.map(checkRestId).filter((id): id is string => id !== null);
        const statuses = await ctx.loaders.results.statusByCheckId.loadMany(ids);
        return statuses.filter((s): s is RestCheckStatus => !!s && !(s instanceof Error));
      }
      const list = (await ctx.rest.get<RestCheckStatus[]>('/v1/check-statuses')).body;
      for (const s of list) ctx.loaders.results.statusByCheckId.prime(s.checkId, s);
      return list;
    },
  },
  CheckStatus: {
    check: (s, _args, ctx, info) => ctx.loaders.checkById.load(s.checkId, restCheckFields(info, false)),
    health: (s) => (s.hasFailures ? 'FAILING' : s.isDegraded ? 'DEGRADED' : 'PASSING'),
    longestRun: (s) => s.longestRun ?? null,
    shortestRun: (s) => s.shortestRun ?? null,
    lastRunLocation: (s) => s.lastRunLocation ?? null,
    lastCheckRunId: (s) => (s.lastCheckRunId === null || s.lastCheckRunId === undefined ? null : String(s.lastCheckRunId)),
    sslDaysRemaining: (s) => s.sslDaysRemaining ?? null,
    createdAt: (s) => s.created_at,
    updatedAt: (s) => s.updated_at ?? null,
    idle: (s) => toCheckIdle(s),
  },
  AnalyticsReport: {
    checkType: (r) => r.checkType as never,
    metrics: (r) => Object.entries(r.metadata ?? {}).map(([name, m]) => ({ name, label: m.label, unit: m.unit ?? null, aggregation: m.aggregation ?? null })),
    // Buckets hold metrics as keys; the report's metadata keeps the order they were asked in.
    series: (r) => (r.series ?? []).map((s: Series) => ({ ...s, metrics: Object.keys(r.metadata ?? {}) })),
    page: (r) => r.pagination?.page ?? 1,
    limit: (r) => r.pagination?.limit ?? 10,
  },
  AnalyticsSeries: {
    runLocation: (s) => (s.runLocation === undefined || s.runLocation === null ? null : String(s.runLocation)),
    statusCode: (s) => num(s.statusCode),
    buckets: (s) => (s.data ?? []).map((b) => ({ ...b, __metrics: s.metrics ?? [] })),
  },
  AnalyticsBucket: {
    values: (b: RestAnalyticsBucket) => ((b.__metrics as string[] | undefined) ?? []).map((metric) => ({ metric, value: num(b[metric]) })),
    value: (b, { metric }) => ((b.__metrics as string[] | undefined)?.includes(metric) ? num(b[metric]) : null),
  },
  AnalyticsSummary: {
    value: (s, { metric }) => (s.values as RestMetricValue[]).find((v) => v.metric === metric)?.value ?? null,
  },
};
