import { LookoutError, type Issue } from '../../domain/lookout-error.js';

/** `{ ref }` replaced by the physical id of the resource it names (numbers for groups and channels). */
export function resolveRefs(value: unknown, ids: Map<string, string | number>): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, ids));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1 && entries[0]![0] === 'ref' && typeof entries[0]![1] === 'string') return ids.get(entries[0]![1]);
  return Object.fromEntries(entries.map(([k, v]) => [k, resolveRefs(v, ids)]));
}

/** A service error about one resource, re-keyed under its logical id so the 400 names it. */
export function aboutResource(err: unknown, r: { type: string; logicalId: string }): unknown {
  if (!(err instanceof LookoutError) || !['VALIDATION', 'NOT_FOUND', 'CONFLICT'].includes(err.code)) return err;
  const issues: Issue[] = err.issues.length
    ? err.issues.map((i) => ({ key: `resources.${r.logicalId}.payload.${i.key}`, message: i.message }))
    : [{ key: `resources.${r.logicalId}`, message: err.message }];
  return new LookoutError(err.code === 'CONFLICT' ? 'CONFLICT' : 'VALIDATION', `${r.type} "${r.logicalId}": ${err.message}`, { issues, source: 'payload' });
}

/** The 400 of a resource whose payload does not reference what its type must. */
export function badReference(r: { type: string; logicalId: string }, message: string, detail: string): LookoutError {
  return new LookoutError('VALIDATION', `${r.type} "${r.logicalId}": ${message}`, {
    issues: [{ key: `resources.${r.logicalId}.payload`, message: detail }],
    source: 'payload',
  });
}
