import { codedError } from './errors.js';
import { fromGlobalId, isIntegerId, isUuid } from './global-id.js';

/** The REST integer id behind a global id of `type` or a bare REST id; null when it can be neither. */
export function integerRestId(id: string, type: string): number | null {
  if (isIntegerId(id)) return Number(id);
  const g = fromGlobalId(id);
  return g?.type === type && isIntegerId(g.restId) ? Number(g.restId) : null;
}

/** The REST UUID behind a global id of `type` or a bare UUID; null when it can be neither. */
export function uuidRestId(id: string, type: string): string | null {
  if (isUuid(id)) return id;
  const g = fromGlobalId(id);
  return g?.type === type && isUuid(g.restId) ? g.restId : null;
}

/**
 * The REST id a mutation acts on. An id that cannot be one of `type` names nothing the caller has,
 * so it is NOT_FOUND, exactly like an unknown id or another account's.
 */
export function requireRestId<T>(restId: T | null, type: string, id: string): T {
  if (restId === null) throw codedError('NOT_FOUND', `${type} ${id} not found`);
  return restId;
}
