import {
  ALERT_SETTINGS_SHAPE, ASSERTION_SHAPE, BASIC_AUTH, ENVIRONMENT_VARIABLES, KEY_VALUE_SHAPE, RETRY_STRATEGY_SHAPE, SETUP_TEARDOWN,
} from './check-shapes.js';
import { withRetryDefaults } from './check-defaults.js';
import { list, mergeUpdate, object, value, withDefaults, type Shape } from './merge-update.js';

/** A check group as stored and echoed: the accepted body with defaults filled in. */
export type GroupData = Record<string, any> & { name: string };

/** The fields of a check group with their defaults and update rules (see merge-update.ts). */
export const GROUP_SHAPE: Shape = {
  activated: value(true),
  muted: value(false),
  tags: list(),
  locations: list(),
  privateLocations: list(),
  concurrency: value(3),
  apiCheckDefaults: object({
    url: value(''), headers: list(KEY_VALUE_SHAPE), queryParameters: list(KEY_VALUE_SHAPE), assertions: list(ASSERTION_SHAPE), basicAuth: BASIC_AUTH,
  }),
  browserCheckDefaults: value(null),
  runtimeId: value(null),
  environmentVariables: ENVIRONMENT_VARIABLES,
  ...SETUP_TEARDOWN,
  runParallel: value(false),
  alertSettings: object(ALERT_SETTINGS_SHAPE),
  // An object, or the string "FALLBACK" (each check's own), kept as is; null (no retries) clears it.
  retryStrategy: object(RETRY_STRATEGY_SHAPE, null, { nullClears: true }),
  useGlobalAlertSettings: value(false),
  doubleCheck: value(false),
};

/** Fills a group's unspecified fields, key by key at every depth; `retryStrategy: "FALLBACK"` is kept as is. */
export function withGroupDefaults(input: GroupData): GroupData {
  const g = withDefaults({ ...input }, GROUP_SHAPE);
  if (g.retryStrategy !== 'FALLBACK') g.retryStrategy = withRetryDefaults(g.retryStrategy);
  delete g.alertChannelSubscriptions;
  return g;
}

/** An accepted update body merged over a stored group (null or absent leaves a field as stored; see merge-update.ts). */
export function mergeGroupUpdate(stored: GroupData, update: Record<string, any>): GroupData {
  return mergeUpdate(stored, update, GROUP_SHAPE);
}
