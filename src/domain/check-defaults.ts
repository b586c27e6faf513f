import { randomBytes } from 'node:crypto';
import {
  DEFAULT_ALERT_SETTINGS, DEFAULT_FREQUENCY, RESPONSE_TIME_LIMITS, type CheckType,
} from './catalog.js';

/** A check as stored and echoed: the accepted body with defaults filled in. */
export type CheckData = Record<string, any> & { name: string };

/** Locations a check runs in when it names none and has no group or private location. */
export const DEFAULT_LOCATIONS = ['us-east-1'];

const REQUEST_DEFAULTS: Partial<Record<CheckType, Record<string, unknown>>> = {
  API: {
    method: 'GET', followRedirects: true, skipSSL: false, ipFamily: 'IPv4', body: '', bodyType: 'NONE',
    headers: [], queryParameters: [], assertions: [], basicAuth: null,
  },
  URL: { followRedirects: true, skipSSL: false, ipFamily: 'IPv4', assertions: [] },
  TCP: { data: '', ipFamily: 'IPv4', assertions: [] },
  // nameServer null: the resolver configured on the machine that runs the check.
  DNS: { recordType: 'A', nameServer: null, port: 53, protocol: 'UDP', assertions: [] },
  ICMP: { ipFamily: 'IPv4', pingCount: 10, assertions: [] },
};

/** Fills the unspecified parts of alert settings from the defaults of conventions.md. */
export function withAlertSettingsDefaults(settings: Record<string, any> | null | undefined): Record<string, any> {
  const s = settings ?? {};
  return {
    escalationType: s.escalationType ?? DEFAULT_ALERT_SETTINGS.escalationType,
    runBasedEscalation: s.runBasedEscalation ?? { ...DEFAULT_ALERT_SETTINGS.runBasedEscalation },
    timeBasedEscalation: s.timeBasedEscalation ?? { ...DEFAULT_ALERT_SETTINGS.timeBasedEscalation },
    reminders: s.reminders ?? { ...DEFAULT_ALERT_SETTINGS.reminders },
    parallelRunFailureThreshold: s.parallelRunFailureThreshold ?? { ...DEFAULT_ALERT_SETTINGS.parallelRunFailureThreshold },
    ...(s.sslCertificates ? { sslCertificates: s.sslCertificates } : {}),
  };
}

/** Fills the unspecified parts of a retry strategy; null stays null (no retries). */
export function withRetryDefaults(strategy: Record<string, any> | null | undefined): Record<string, any> | null {
  if (!strategy) return null;
  return {
    type: strategy.type,
    baseBackoffSeconds: strategy.baseBackoffSeconds ?? 60,
    maxRetries: strategy.type === 'SINGLE_RETRY' ? 1 : (strategy.maxRetries ?? 2),
    maxDurationSeconds: strategy.maxDurationSeconds ?? 600,
    sameRegion: strategy.sameRegion ?? true,
    onlyOn: strategy.onlyOn ?? null,
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
  c.activated ??= true;
  c.muted ??= false;
  c.doubleCheck ??= true;
  c.shouldFail ??= false;
  c.privateLocations ??= [];
  c.tags ??= [];
  if (c.locations == null) {
    const placedElsewhere = c.privateLocations.length > 0 || c.groupId != null;
    c.locations = placedElsewhere ? [] : [...DEFAULT_LOCATIONS];
  }
  c.useGlobalAlertSettings ??= true;
  c.alertSettings = withAlertSettingsDefaults(c.alertSettings);
  c.groupId ??= null;
  c.groupOrder ??= null;
  c.runtimeId ??= null;
  c.retryStrategy = withRetryDefaults(c.retryStrategy);
  c.triggerIncident ??= null;
  c.runParallel ??= false;
  c.description ??= null;
  c.frequency ??= DEFAULT_FREQUENCY;
  c.frequencyOffset ??= null;
  c.environmentVariables ??= [];
  delete c.alertChannelSubscriptions;
  delete c.checkType;

  const limits = RESPONSE_TIME_LIMITS[type];
  if (limits) {
    c.degradedResponseTime ??= limits.degraded;
    c.maxResponseTime ??= limits.max;
  }
  const requestDefaults = REQUEST_DEFAULTS[type];
  if (requestDefaults) c.request = { ...requestDefaults, ...stripUndefined(c.request ?? {}) };
  if (type === 'API') {
    c.setupSnippetId ??= null;
    c.tearDownSnippetId ??= null;
    c.localSetupScript ??= null;
    c.localTearDownScript ??= null;
  }
  if (type === 'API' || type === 'URL' || type === 'BROWSER' || type === 'MULTI_STEP') c.sslCheckDomain ??= null;
  if (type === 'BROWSER' || type === 'MULTI_STEP' || type === 'PLAYWRIGHT') {
    c.script ??= null;
    c.scriptPath ??= null;
    c.dependencies ??= null;
  }
  if (type === 'HEARTBEAT') {
    // The token is server-owned: callers strip any client-sent one (see stripServerOwnedFields).
    const token = c.heartbeat?.pingToken ?? newPingToken();
    c.heartbeat = { ...c.heartbeat, pingToken: token, pingUrl: `${publicUrl.replace(/\/$/, '')}/ping/${token}` };
  }
  return c;
}

/** Removes fields clients may echo back but never set (the heartbeat ping token and URL). */
export function stripServerOwnedFields(body: Record<string, any>): Record<string, any> {
  if (!body.heartbeat) return body;
  const { pingToken: _t, pingUrl: _u, ...heartbeat } = body.heartbeat;
  return { ...body, heartbeat };
}

function stripUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Merges an accepted update body into a stored check: top-level fields replace, and the nested
 * `request` and `heartbeat` objects merge one level deep so a partial request keeps the rest.
 */
export function mergeCheckUpdate(stored: CheckData, update: Record<string, any>): CheckData {
  const merged: CheckData = { ...stored, ...update };
  for (const nested of ['request', 'heartbeat']) {
    if (update[nested] && stored[nested]) merged[nested] = { ...stored[nested], ...update[nested] };
  }
  return merged;
}
