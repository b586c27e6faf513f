import type { CheckData } from './check-defaults.js';

/** What one run of a check may change about it (`checkly trigger --env`, `--retries`): never stored with the check. */
export interface RunOverrides {
  /** Run-time variables: they win over the account's, the group's and the check's own of the same key. */
  environmentVariables?: { key: string; value: string }[];
  /** Replaces the check's retry strategy for this run; null runs without retries, undefined keeps the check's. */
  retryStrategy?: Record<string, unknown> | null;
}

/**
 * The check's data as one run sees it. Run-time variables are treated as secrets: they come from a
 * CI environment, where tokens live, so their values are scrubbed from results like secret variables.
 */
export function withRunOverrides(data: CheckData, overrides: RunOverrides | undefined): CheckData {
  if (!overrides) return data;
  const out: CheckData = { ...data };
  if (overrides.retryStrategy !== undefined) out.retryStrategy = overrides.retryStrategy;
  const runtime = overrides.environmentVariables ?? [];
  if (runtime.length > 0) {
    const byKey = new Map(runtime.map((v) => [v.key, { key: v.key, value: v.value, secret: true }]));
    const own = ((data.environmentVariables ?? []) as { key: string }[]).filter((v) => !byKey.has(v.key));
    out.environmentVariables = [...own, ...byKey.values()];
  }
  return out;
}
