import type { FastifyRequest } from 'fastify';
import { LookoutError } from '../domain/lookout-error.js';

/**
 * Brings array query parameters to one form before validation: `tag[]=a` (axios style) joins
 * `tag=a`, and for `commaKeys` a comma-separated value is split (`ids=a,b`).
 */
export function normaliseQueryArrays(arrayKeys: string[], commaKeys: string[] = []) {
  return async (req: FastifyRequest): Promise<void> => {
    const q = req.query as Record<string, unknown>;
    for (const key of arrayKeys) {
      const values = [q[key], q[`${key}[]`]].flat().filter((v): v is string => typeof v === 'string');
      delete q[`${key}[]`];
      if (values.length === 0) continue;
      q[key] = commaKeys.includes(key) ? values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean) : values;
    }
  };
}

/**
 * The `fields=` of a sparse read checked against the fields the resource answers: undefined (every
 * field) when none were named, else the names with `id` always among them. Unknown names are a 400
 * naming the key `fields` and the names, so a typo never silently thins an answer.
 */
export function sparseFields(fields: readonly string[] | undefined, known: ReadonlySet<string>): string[] | undefined {
  if (!fields?.length) return undefined;
  const unknown = [...new Set(fields.filter((f) => !known.has(f)))];
  if (unknown.length > 0) {
    const list = unknown.slice(0, 10).join(', ');
    throw new LookoutError('VALIDATION', `"fields" names unknown fields: ${list}`, {
      issues: [{ key: 'fields', message: `unknown field${unknown.length > 1 ? 's' : ''} ${list}` }],
      source: 'query',
    });
  }
  return [...new Set(['id', ...fields])];
}
