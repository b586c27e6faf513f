import { jobAssetsOf } from './result-asset-files.js';

/** A log line as the `checkly` CLI prints it. */
export interface CliLogLine {
  level: string;
  msg: string;
  time: number;
}

/** The kinds of run asset the CLI fetches (`/next/assets/{kind}/{region}/{key}`). */
export const RUN_ASSET_KINDS = ['log', 'check-run-data'] as const;
export type RunAssetKind = (typeof RUN_ASSET_KINDS)[number];

const KEY = /^(s|c):([0-9a-f-]{36}):([0-9a-f-]{36})$/i;

/** Where a result lives: in a test session, or among a check's results. */
export type RunAssetOwner = { testSessionId: string } | { checkId: string };

/** The key of a result's assets: its owner and id (no path, nothing to escape). */
export function runAssetKey(owner: RunAssetOwner, resultId: string): string {
  return 'testSessionId' in owner ? `s:${owner.testSessionId}:${resultId}` : `c:${owner.checkId}:${resultId}`;
}

/** The result a key names, or null for a key this server never made. */
export function parseRunAssetKey(key: string): { owner: RunAssetOwner; resultId: string } | null {
  const m = KEY.exec(key);
  if (!m) return null;
  const id = m[2]!.toLowerCase();
  return { owner: m[1]!.toLowerCase() === 's' ? { testSessionId: id } : { checkId: id }, resultId: m[3]!.toLowerCase() };
}

/**
 * What a result sent to the CLI carries as `assets` (the CLI's "V1" shape): where its log and its
 * check-run data are fetched, so `checkly test` prints a failure's reason (always with --verbose).
 */
export function toRunAssetsRef(owner: RunAssetOwner, result: Record<string, any>) {
  const key = runAssetKey(owner, String(result.id));
  return { region: String(result.runLocation ?? 'local'), logPath: key, checkRunDataPath: key };
}

/** One entry of an asset manifest (`checkly assets list`). */
export interface AssetManifestEntry {
  type: 'log' | 'screenshot' | 'file';
  name: string;
  url: string;
  contentType: string;
  source: string;
}

/**
 * A result's assets as `checkly assets list|download` read them: its log and check-run data (JSON)
 * and each screenshot its run kept, each with a URL on this API (`fileUrl` makes a file's),
 * filtered by `type` and `name` when given.
 */
export function toAssetManifest(
  owner: RunAssetOwner, result: Record<string, any>, fileUrl: (file: string) => string, filters: { type?: string; name?: string } = {},
): { assets: AssetManifestEntry[]; truncated: boolean; entriesReturned: number; entriesTotal: number } {
  const key = encodeURIComponent(runAssetKey(owner, String(result.id)));
  const region = encodeURIComponent(String(result.runLocation ?? 'local'));
  const all: AssetManifestEntry[] = [
    { type: 'log', name: 'logs.json', url: `/next/assets/log/${region}/${key}`, contentType: 'application/json', source: 'lookout' },
    { type: 'file', name: 'check-run-data.json', url: `/next/assets/check-run-data/${region}/${key}`, contentType: 'application/json', source: 'lookout' },
  ];
  for (const a of jobAssetsOf(result)) {
    all.push({ type: 'screenshot', name: String(a.name), url: fileUrl(String(a.file)), contentType: String(a.contentType ?? 'application/octet-stream'), source: 'lookout' });
  }
  const assets = all.filter((a) => (!filters.type || a.type === filters.type) && (!filters.name || a.name === filters.name));
  return { assets, truncated: false, entriesReturned: assets.length, entriesTotal: assets.length };
}

const toLines = (lines: unknown): CliLogLine[] =>
  (Array.isArray(lines) ? lines : []).map((l: Record<string, any>) => ({
    level: String(l.level ?? 'INFO').toUpperCase(),
    msg: String(l.message ?? l.msg ?? ''),
    time: typeof l.time === 'number' ? l.time : Date.parse(String(l.time)) || 0,
  }));

/**
 * A result's log as the CLI reads it: `{setup, request, teardown}` for API checks (their scripts'
 * output), the run's lines for browser and multi-step checks, none for the rest.
 */
export function toRunLog(result: Record<string, any>): Record<string, CliLogLine[]> | CliLogLine[] {
  if (result.apiCheckResult) {
    const log = result.apiCheckResult.jobLog ?? {};
    return { setup: toLines(log.setup), request: toLines(log.request), teardown: toLines(log.teardown) };
  }
  const browser = result.browserCheckResult ?? result.multiStepCheckResult;
  return browser ? toLines(browser.jobLog) : [];
}

/** The fields of a type's detail the CLI prints as its request, response or connection error. */
const DETAIL_OF: Record<string, string> = { TCP: 'tcpCheckResult', DNS: 'dnsCheckResult', ICMP: 'icmpCheckResult' };

/**
 * A result's check-run data as the CLI prints it: `{request, response, assertions, requestError}`.
 * API and URL results give their request and response; other types their detail, their assertions
 * and, when the run errored before any assertion, the first error as `requestError`.
 */
export function toCheckRunData(result: Record<string, any>): Record<string, any> {
  const api = result.apiCheckResult;
  const errors = Array.isArray(result.errors) ? result.errors : [];
  const firstError = errors.length > 0 ? String(errors[0].message ?? errors[0]) : null;
  if (api) {
    return {
      request: api.request ?? null, response: api.response ?? null, assertions: api.assertions ?? [],
      requestError: api.requestError ?? (api.response ? null : firstError),
    };
  }
  const detail = (DETAIL_OF[result.checkType] ? result[DETAIL_OF[result.checkType]!] : null) ?? {};
  const assertions = Array.isArray(detail.assertions) ? detail.assertions : [];
  return { ...detail, assertions, requestError: result.hasErrors && assertions.length === 0 ? firstError : (detail.requestError ?? null) };
}
