import Type from 'typebox';
import { ANALYTICS_METRICS } from '../domain/analytics-metrics.js';
import { CHECK_TYPES } from '../domain/catalog.js';
import { QUICK_RANGES } from '../domain/quick-range.js';
import { PageQuery } from './common.js';
import { unixSeconds } from './result-schemas.js';

const MetricName = Type.Enum([...ANALYTICS_METRICS]);
const QuickRange = Type.Enum([...QUICK_RANGES], {
  description: 'UTC; weeks start on Monday; last24Hours when neither it nor from/to is given',
});

const Window = {
  quickRange: Type.Optional(QuickRange),
  from: Type.Optional(unixSeconds('UNIX seconds; overrides quickRange')),
  to: Type.Optional(unixSeconds('UNIX seconds (exclusive); overrides quickRange')),
};

export const AnalyticsIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

/** Query of `GET /v1/analytics/{type}/{id}`. */
export const AnalyticsReportQuery = Type.Object(
  {
    metrics: Type.Array(MetricName, { minItems: 1, maxItems: 100, description: 'Comma-separated or repeated' }),
    ...Window,
    aggregationInterval: Type.Optional(Type.Integer({ minimum: 1, maximum: 43_200, description: 'Minutes per bucket' })),
    filterByStatus: Type.Optional(Type.Array(Type.Enum(['success', 'failure']), { maxItems: 2 })),
    groupBy: Type.Optional(Type.Enum(['runLocation', 'statusCode'])),
    ...PageQuery,
  },
  { additionalProperties: false },
);

/** Body of `POST /v1/analytics/checks`. */
export const AnalyticsSummaryBody = Type.Object(
  {
    checkIds: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 100 }),
    metrics: Type.Optional(Type.Array(MetricName, { minItems: 1, maxItems: 100 })),
    ...Window,
  },
  { additionalProperties: false },
);

/** Query of `POST /v1/analytics/checks` (clients send the quick range here). */
export const AnalyticsSummaryQuery = Type.Object({ quickRange: Type.Optional(QuickRange) }, { additionalProperties: false });

export const AnalyticsMetricsQuery = Type.Object({ checkType: Type.Optional(Type.Enum([...CHECK_TYPES])) }, { additionalProperties: false });
