import { fromGlobalId, isUuid, toGlobalId } from './global-id.js';

/** Global id of a result: it carries the check id too, because REST reads a result under its check. */
export function resultGlobalId(checkId: string, resultId: string): string {
  return toGlobalId('CheckResult', `${checkId}:${resultId}`);
}

/**
 * `{checkId, resultId}` of a result's global id, or of its REST ids written `checkId:resultId` (what
 * the global id encodes: REST has no address for a result without its check); null when `id` is neither.
 */
export function resultRestIds(id: string): { checkId: string; resultId: string } | null {
  const g = fromGlobalId(id);
  const restId = g?.type === 'CheckResult' ? g.restId : id;
  const [checkId, resultId, extra] = restId.split(':');
  return checkId && resultId && extra === undefined && isUuid(checkId) && isUuid(resultId) ? { checkId, resultId } : null;
}
