import type { CheckData } from './check-defaults.js';
import { effectiveLocations, type Placement } from './effective-locations.js';
import type { GroupData } from './group-defaults.js';

/** A key/value entry of headers, query parameters and environment variables. */
interface Entry {
  key: string;
  [k: string]: unknown;
}

/** Entries of `base` overridden by entries of `own` with the same key (case-insensitive for headers). */
function mergeEntries<T extends Entry>(base: T[] = [], own: T[] = [], caseInsensitive = false): T[] {
  const norm = (k: string) => (caseInsensitive ? k.toLowerCase() : k);
  const ownKeys = new Set(own.map((e) => norm(e.key)));
  return [...base.filter((e) => !ownKeys.has(norm(e.key))), ...own];
}

/** Alert channel subscription as the API shows it. */
export interface Subscription {
  alertChannelId: number;
  activated: boolean;
}

/**
 * The check as it runs inside its group — what `/v1/check-groups/{id}/checks` answers and what the
 * runner executes. Precedence (documented in README "Group settings"):
 * - the group decides: locations and privateLocations (when the group names any, see
 *   effectiveLocations; when neither names any the check is idle, see idleReason), runtimeId (when set),
 *   alertSettings/useGlobalAlertSettings, alertChannelSubscriptions, retryStrategy (unless "FALLBACK"),
 *   runParallel, doubleCheck, and for API checks the setup/teardown snippets and scripts (when set);
 * - both contribute: tags (union), environmentVariables (check wins on the same key), API request
 *   headers and query parameters (check wins), assertions (group's first), basicAuth (check's if set);
 * - activated is true only when both are; muted when either is;
 * - `{{GROUP_BASE_URL}}` in an API check's URL becomes the group's apiCheckDefaults.url, and a URL
 *   starting with "/" is appended to it.
 */
export function applyGroupSettings(
  check: CheckData & { checkType: string },
  group: GroupData,
  groupSubscriptions: Subscription[],
): CheckData & { checkType: string } {
  const c: CheckData & { checkType: string } = { ...check };
  Object.assign(c, effectiveLocations({ locations: check.locations, privateLocations: check.privateLocations }, group as Placement));
  if (group.runtimeId) c.runtimeId = group.runtimeId;
  c.useGlobalAlertSettings = group.useGlobalAlertSettings ?? false;
  if (group.alertSettings) c.alertSettings = group.alertSettings;
  c.alertChannelSubscriptions = groupSubscriptions;
  if (group.retryStrategy !== 'FALLBACK') c.retryStrategy = group.retryStrategy;
  c.runParallel = group.runParallel ?? c.runParallel;
  c.doubleCheck = group.doubleCheck;
  c.tags = [...new Set([...group.tags, ...check.tags])];
  c.environmentVariables = mergeEntries(group.environmentVariables, check.environmentVariables);
  c.activated = group.activated && check.activated;
  c.muted = group.muted || check.muted;

  if (c.checkType === 'API' && c.request) {
    const d = group.apiCheckDefaults;
    const request = { ...c.request };
    const base: string = d.url ?? '';
    if (base) {
      request.url = request.url.replaceAll('{{GROUP_BASE_URL}}', base.replace(/\/$/, ''));
      if (request.url.startsWith('/')) request.url = base.replace(/\/$/, '') + request.url;
    }
    request.headers = mergeEntries(d.headers, request.headers, true);
    request.queryParameters = mergeEntries(d.queryParameters, request.queryParameters);
    request.assertions = [...(d.assertions ?? []), ...(request.assertions ?? [])];
    if (!request.basicAuth && d.basicAuth?.username) request.basicAuth = d.basicAuth;
    c.request = request;
    for (const key of ['setupSnippetId', 'tearDownSnippetId', 'localSetupScript', 'localTearDownScript']) {
      if (group[key] != null) c[key] = group[key];
    }
  }
  return c;
}
