import { fromGlobalId, integerRestId, isIntegerId, isUuid, toGlobalId } from './global-id.js';

/** The REST id of a maintenance window from its global id or its REST integer id; null when it can be neither. */
export const maintenanceWindowRestId = (id: string): number | null => integerRestId(id, 'MaintenanceWindow');

/**
 * The parts of a global id of `type` carrying its parents' ids (`windowId:uuid[:uuid]`), or of those REST
 * ids written so by hand: the window's integer id, then `uuids` UUIDs (lower-case); null when `id` is neither.
 */
function windowPath(id: string, type: string, uuids: number): [number, ...string[]] | null {
  const g = fromGlobalId(id);
  const restId = g?.type === type ? g.restId : id;
  const [windowId, ...rest] = restId.split(':');
  if (!windowId || !isIntegerId(windowId) || rest.length !== uuids || !rest.every(isUuid)) return null;
  return [Number(windowId), ...rest.map((r) => r.toLowerCase())];
}

/** Global id of a maintenance: it carries its window's id, because REST reads a maintenance under its window. */
export function maintenanceGlobalId(maintenanceWindowId: number, maintenanceId: string): string {
  return toGlobalId('Maintenance', `${maintenanceWindowId}:${maintenanceId}`);
}

/** `{maintenanceWindowId, maintenanceId}` of a maintenance's global id or of `maintenanceWindowId:maintenanceId`; null when `id` is neither. */
export function maintenanceRestIds(id: string): { maintenanceWindowId: number; maintenanceId: string } | null {
  const path = windowPath(id, 'Maintenance', 1);
  return path && { maintenanceWindowId: path[0], maintenanceId: path[1]! };
}

/** Global id of a maintenance update: it carries the window's and the maintenance's ids, which REST reads it under. */
export function maintenanceUpdateGlobalId(maintenanceWindowId: number, maintenanceId: string, updateId: string): string {
  return toGlobalId('MaintenanceUpdate', `${maintenanceWindowId}:${maintenanceId}:${updateId}`);
}

/** The REST ids of an update's global id or of `maintenanceWindowId:maintenanceId:updateId`; null when `id` is neither. */
export function maintenanceUpdateRestIds(id: string): { maintenanceWindowId: number; maintenanceId: string; updateId: string } | null {
  const path = windowPath(id, 'MaintenanceUpdate', 2);
  return path && { maintenanceWindowId: path[0], maintenanceId: path[1]!, updateId: path[2]! };
}
