import { randomBytes } from 'node:crypto';
import type { CheckType } from './catalog.js';
import { ALERT_SETTINGS_SHAPE, CHECK_SHAPES, RETRY_STRATEGY_SHAPE } from './check-shapes.js';
import { mergeUpdate, withDefaults } from './merge-update.js';

/** A check as stored and echoed: the accepted body with defaults filled in. */
export type CheckData = Record<string, any> & { name: string };

/** Locations a check runs in when it names none and has no group or private location. */
export const DEFAULT_LOCATIONS = ['us-east-1'];

/** Fills the unspecified parts of alert settings, key by key, from the defaults of conventions.md. */
export function withAlertSettingsDefaults(settings: Record<string, any> | null | undefined): Record<string, any> {
  return withDefaults({ ...(settings ?? {}) }, ALERT_SETTINGS_SHAPE);
}

/** Fills the unspecified parts of a retry strategy; null stays null (no retries). */
export function withRetryDefaults(strategy: Record<string, any> | null | undefined): Record<string, any> | null {
  if (!strategy) return null;
  const s = withDefaults({ ...strategy }, RETRY_STRATEGY_SHAPE);
  return {
    type: s.type,
    baseBackoffSeconds: s.baseBackoffSeconds,
    maxRetries: s.type === 'SINGLE_RETRY' ? 1 : s.maxRetries,
    maxDurationSeconds: s.maxDurationSeconds,
    sameRegion: s.sameRegion,
    onlyOn: s.onlyOn,
  };
}

/** A random, URL-safe heartbeat ping token. */
export function newPingToken(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * The stored form of a check of `type` built from an accepted body (create) or from the stored
 * check merged with an accepted update body: every field present, defaults where unspecified.
 */
export function withCheckDefaults(type: CheckType, input: CheckData, publicUrl: string): CheckData {
  const c: CheckData = { ...input };
  delete c.alertChannelSubscriptions;
  delete c.checkType;
  if (c.locations == null) {
    const placedElsewhere = (c.privateLocations ?? []).length > 0 || c.groupId != null;
    c.locations = placedElsewhere ? [] : [...DEFAULT_LOCATIONS];
  }
  const filled = withDefaults(c, CHECK_SHAPES[type]);
  if (filled.retryStrategy) filled.retryStrategy = withRetryDefaults(filled.retryStrategy);
  if (type === 'HEARTBEAT') {
    // The token is server-owned: callers strip any client-sent one (see stripServerOwnedFields).
    const token = filled.heartbeat?.pingToken ?? newPingToken();
    filled.heartbeat = { ...filled.heartbeat, pingToken: token, pingUrl: `${publicUrl.replace(/\/$/, '')}/ping/${token}` };
  }
  return filled;
}

/** Removes fields clients may echo back but never set (the heartbeat ping token and URL). */
export function stripServerOwnedFields(body: Record<string, any>): Record<string, any> {
  if (!body.heartbeat) return body;
  const { pingToken: _t, pingUrl: _u, ...heartbeat } = body.heartbeat;
  return { ...body, heartbeat };
}

/**
 * Merges an accepted update body into a stored check by the update rules of merge-update.ts:
 * null or absent leaves a field as stored (`groupId: null` leaves the group), lists replace,
 * objects merge key by key at every depth.
 */
export function mergeCheckUpdate(type: CheckType, stored: CheckData, update: Record<string, any>): CheckData {
  return mergeUpdate(stored, update, CHECK_SHAPES[type]);
}
