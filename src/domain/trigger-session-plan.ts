import type { RunOverrides } from './run-overrides.js';

/** What `checkly trigger` sends (the parts Lookout reads). */
export interface TriggerRequest {
  name?: string;
  runLocation?: string | { type: 'PUBLIC'; region: string } | { type: 'PRIVATE'; slugName: string; id?: string };
  targetTags?: string[][];
  checkId?: string[];
  environmentVariables?: { key: string; value: string }[];
  environment?: string | null;
  testRetryStrategy?: Record<string, unknown> | null;
}

/** A trigger request turned into a test session selection and what its runs change about the checks. */
export interface TriggerPlan {
  name: string;
  checkIds?: string[];
  tags?: string[][];
  runLocation?: string;
  environment?: string;
  overrides: RunOverrides;
}

/**
 * Reads a `checkly trigger` request: tag lists keep their meaning (inner lists AND, outer OR; an
 * empty inner list matches nothing, so it is dropped), `runLocation` becomes a region or a private
 * location slug. `--env` variables and `--retries` apply to the session's runs only: the CLI sends
 * `testRetryStrategy: null` without `--retries`, which runs the checks without retries, as the
 * CLI's own help promises; a request without the key keeps each check's strategy.
 */
export function triggeredSessionPlan(req: TriggerRequest): TriggerPlan {
  const tags = (req.targetTags ?? []).map((all) => all.map((t) => t.trim()).filter(Boolean)).filter((all) => all.length > 0);
  const location = typeof req.runLocation === 'string' ? req.runLocation
    : req.runLocation?.type === 'PRIVATE' ? req.runLocation.slugName : req.runLocation?.region;
  const overrides: RunOverrides = {};
  if (req.environmentVariables?.length) overrides.environmentVariables = req.environmentVariables;
  if (req.testRetryStrategy !== undefined) overrides.retryStrategy = req.testRetryStrategy;
  return {
    name: req.name ?? 'Triggered Session',
    checkIds: req.checkId?.length ? [...new Set(req.checkId)] : undefined,
    tags: tags.length ? tags : undefined,
    runLocation: location || undefined,
    environment: req.environment ?? undefined,
    overrides,
  };
}
