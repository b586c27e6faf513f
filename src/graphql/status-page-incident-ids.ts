import { fromGlobalId, isUuid, toGlobalId, uuidRestId } from './global-id.js';

/** The REST id (lower-case, as REST writes it) of a status page service from its global id or its REST UUID; null when it can be neither. */
export const statusPageServiceRestId = (id: string): string | null => uuidRestId(id, 'StatusPageService')?.toLowerCase() ?? null;

/** The REST id (lower-case, as REST writes it) of an incident from its global id or its REST UUID; null when it can be neither. */
export const incidentRestId = (id: string): string | null => uuidRestId(id, 'Incident')?.toLowerCase() ?? null;

/** Global id of an incident update: it carries the incident id too, because REST reads an update under its incident. */
export function incidentUpdateGlobalId(incidentId: string, updateId: string): string {
  return toGlobalId('IncidentUpdate', `${incidentId}:${updateId}`);
}

/**
 * `{incidentId, updateId}` of an update's global id, or of its REST ids written `incidentId:updateId`
 * (what the global id encodes), lower-case; null when `id` is neither.
 */
export function incidentUpdateRestIds(id: string): { incidentId: string; updateId: string } | null {
  const g = fromGlobalId(id);
  const restId = g?.type === 'IncidentUpdate' ? g.restId : id;
  const [incidentId, updateId, extra] = restId.split(':');
  return incidentId && updateId && extra === undefined && isUuid(incidentId) && isUuid(updateId)
    ? { incidentId: incidentId.toLowerCase(), updateId: updateId.toLowerCase() }
    : null;
}
