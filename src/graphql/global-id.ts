import { isUuid } from '../domain/is-uuid.js';
import { codedError } from './errors.js';

/**
 * Opaque global ids: base64url of `Type:restId`. Checks use the type `Check` (not the concrete type)
 * so a check's id never depends on its type.
 */
export function toGlobalId(type: string, restId: string | number): string {
  return Buffer.from(`${type}:${restId}`, 'utf8').toString('base64url');
}

/** Decodes a global id; null when `id` is not one this layer issued. */
export function fromGlobalId(id: string): { type: string; restId: string } | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(id)) return null;
  const decoded = Buffer.from(id, 'base64url').toString('utf8');
  const match = /^([A-Za-z]+):(.+)$/.exec(decoded);
  if (!match || toGlobalId(match[1]!, match[2]!) !== id) return null;
  return { type: match[1]!, restId: match[2]! };
}

export { isUuid };

/** Whether `value` is a REST integer id (groups, channels, snippets). */
export function isIntegerId(value: string): boolean {
  return /^[1-9][0-9]{0,9}$/.test(value) && Number(value) <= 2_147_483_647;
}

/** The REST UUID behind a global id of `type` or a bare UUID; null when it can be neither. */
export function uuidRestId(id: string, type: string): string | null {
  if (isUuid(id)) return id;
  const g = fromGlobalId(id);
  return g?.type === type && isUuid(g.restId) ? g.restId : null;
}

/** The REST integer id behind a global id of `type` or a bare REST id; null when it can be neither. */
export function integerRestId(id: string, type: string): number | null {
  if (isIntegerId(id)) return Number(id);
  const g = fromGlobalId(id);
  return g?.type === type && isIntegerId(g.restId) ? Number(g.restId) : null;
}

/** The REST id of a check from its global id or its REST UUID; null when it can be neither. */
export const checkRestId = (id: string): string | null => uuidRestId(id, 'Check');

/** The REST id of a group from its global id or its REST integer id; null when it can be neither. */
export const groupRestId = (id: string): number | null => integerRestId(id, 'CheckGroup');

/**
 * The REST id a mutation acts on. An id that cannot be one of `type` names nothing the caller has,
 * so it is NOT_FOUND, exactly like an unknown id or another account's.
 */
export function requireRestId<T>(restId: T | null, type: string, id: string): T {
  if (restId === null) throw codedError('NOT_FOUND', `${type} ${id} not found`);
  return restId;
}

/**
 * The REST ids a list argument or filter names (global ids or REST ids alike). An entry that can be no
 * id of the type is the caller's mistake, answered as BAD_USER_INPUT naming the argument, rather than
 * a filter that silently matches nothing.
 */
export function requireRestIds<T>(ids: readonly string[], toRestId: (id: string) => T | null, argumentName: string): T[] {
  return ids.map((id) => {
    const restId = toRestId(id);
    if (restId === null) throw codedError('BAD_USER_INPUT', `"${argumentName}" holds ${JSON.stringify(id.slice(0, 100))}, which is no id of the expected type`, { argumentName });
    return restId;
  });
}
