import { fromGlobalId, isUuid, toGlobalId } from './global-id.js';

/** Global id of a result: it carries the check id too, because REST reads a result under its check. */
export function resultGlobalId(checkId: string, resultId: string): string {
  return toGlobalId('CheckResult', `${checkId}:${resultId}`);
}

/** `{checkId, resultId}` of a result's global id; null when `id` is not one. */
export function resultRestIds(id: string): { checkId: string; resultId: string } | null {
  const g = fromGlobalId(id);
  if (g?.type !== 'CheckResult') return null;
  const [checkId, resultId, extra] = g.restId.split(':');
  return checkId && resultId && extra === undefined && isUuid(checkId) && isUuid(resultId) ? { checkId, resultId } : null;
}
