import type { FastifyRequest } from 'fastify';

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
