import { CHECK_TYPES } from '../domain/catalog.js';
import { ref } from './response-shape.js';

const MetricValues = { type: ['number', 'null'], description: 'A metric named as asked (metrics=); null: no data' };

/** One bucket of an analytics series: its bounds and one value per metric asked for, keyed by metric name. */
export const AnalyticsBucket = {
  $id: 'AnalyticsBucket',
  type: 'object',
  description: 'The bucket bounds and one value per metric, keyed by the metric names asked for',
  required: ['from', 'to'],
  properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } },
  additionalProperties: MetricValues,
};

/** One series of a report: one per group (`groupBy`), or a single one. */
export const AnalyticsSeries = {
  $id: 'AnalyticsSeries',
  type: 'object',
  required: ['data'],
  properties: {
    runLocation: { type: ['string', 'null'], description: 'groupBy=runLocation' },
    statusCode: { type: ['integer', 'null'], description: 'groupBy=statusCode' },
    data: { type: 'array', items: ref('AnalyticsBucket') },
  },
};

/** `GET /v1/analytics/{type}/{id}`. */
export const AnalyticsReport = {
  $id: 'AnalyticsReport',
  type: 'object',
  description: 'Metrics of one check over a window',
  required: ['checkId', 'name', 'checkType', 'from', 'to', 'series', 'pagination', 'metadata'],
  properties: {
    checkId: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    checkType: { type: 'string', enum: [...CHECK_TYPES] },
    activated: { type: 'boolean' },
    muted: { type: 'boolean' },
    frequency: { type: ['integer', 'null'] },
    tags: { type: 'array', items: { type: 'string' } },
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    series: { type: 'array', items: ref('AnalyticsSeries') },
    pagination: { type: 'object', required: ['page', 'limit'], properties: { page: { type: 'integer' }, limit: { type: 'integer' } } },
    metadata: {
      type: 'object',
      description: 'Metric name → its label, unit and aggregation',
      additionalProperties: {
        type: 'object',
        required: ['label'],
        properties: { label: { type: 'string' }, unit: { type: 'string' }, aggregation: { type: 'string' } },
      },
    },
  },
};

/** An entry of `POST /v1/analytics/checks`: one check and a value per metric that applies to its type. */
export const AnalyticsSummaryEntry = {
  $id: 'AnalyticsSummaryEntry',
  type: 'object',
  required: ['checkId', 'name', 'checkType', 'from', 'to'],
  properties: {
    checkId: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    checkType: { type: 'string', enum: [...CHECK_TYPES] },
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
  },
  additionalProperties: MetricValues,
};

/** The analytics metrics of one check type. */
export const AnalyticsMetricsOfType = {
  $id: 'AnalyticsMetricsOfType',
  type: 'object',
  required: ['checkType', 'metrics'],
  properties: {
    checkType: { type: 'string', enum: [...CHECK_TYPES] },
    metrics: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'label'],
        properties: { name: { type: 'string' }, label: { type: 'string' }, unit: { type: 'string' }, aggregation: { type: 'string' } },
      },
    },
  },
};

/** The availability of a heartbeat check over a window. */
export const HeartbeatAvailability = {
  $id: 'HeartbeatAvailability',
  type: 'object',
  required: ['checkId', 'from', 'to', 'availability'],
  properties: {
    checkId: { type: 'string', format: 'uuid' },
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    availability: { type: ['number', 'null'], description: 'Percentage; null without results' },
  },
};

/** Schemas of this file registered as named components, in dependency order. */
export const ANALYTICS_VIEW_SCHEMAS = [AnalyticsBucket, AnalyticsSeries, AnalyticsReport, AnalyticsSummaryEntry, AnalyticsMetricsOfType, HeartbeatAvailability];
