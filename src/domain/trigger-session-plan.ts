/** What `checkly trigger` sends (the parts Lookout reads). */
export interface TriggerRequest {
  name?: string;
  runLocation?: string | { type: 'PUBLIC'; region: string } | { type: 'PRIVATE'; slugName: string; id?: string };
  targetTags?: string[][];
  checkId?: string[];
  environmentVariables?: { key: string; value: string }[];
  environment?: string | null;
  testRetryStrategy?: object | null;
}

/** A trigger request turned into a test session selection, or the fields Lookout cannot honour yet. */
export type TriggerPlan =
  | { ok: true; name: string; checkIds?: string[]; tags?: string[][]; runLocation?: string; environment?: string }
  | { ok: false; unsupported: string[] };

/**
 * Reads a `checkly trigger` request: tag lists keep their meaning (inner lists AND, outer OR; an
 * empty inner list matches nothing, so it is dropped), `runLocation` becomes a region or a private
 * location slug. Run-time variables and retries are not applied to test sessions yet: a request
 * carrying them is refused rather than run without them.
 */
export function triggeredSessionPlan(req: TriggerRequest): TriggerPlan {
  const unsupported: string[] = [];
  if (req.environmentVariables?.length) unsupported.push('environmentVariables');
  if (req.testRetryStrategy) unsupported.push('testRetryStrategy');
  if (unsupported.length > 0) return { ok: false, unsupported };
  const tags = (req.targetTags ?? []).map((all) => all.map((t) => t.trim()).filter(Boolean)).filter((all) => all.length > 0);
  const location = typeof req.runLocation === 'string' ? req.runLocation
    : req.runLocation?.type === 'PRIVATE' ? req.runLocation.slugName : req.runLocation?.region;
  return {
    ok: true,
    name: req.name ?? 'Triggered Session',
    checkIds: req.checkId?.length ? [...new Set(req.checkId)] : undefined,
    tags: tags.length ? tags : undefined,
    runLocation: location || undefined,
    environment: req.environment ?? undefined,
  };
}
