import type { MaintenanceWindowInput, MutationResolvers, Resolvers } from '../__generated__/resolvers-types.js';
import { requireRestId, toGlobalId } from '../global-id.js';
import { maintenanceGlobalId, maintenanceRestIds, maintenanceUpdateRestIds, maintenanceWindowRestId } from '../maintenance-ids.js';
import type { RestMaintenance, RestMaintenanceUpdate, RestMaintenanceWindow } from '../maintenance-types.js';
import { statusPageServiceRestId } from '../status-page-incident-ids.js';
import { statusPageRestId } from '../status-page-ids.js';
import { withUserErrors } from '../user-errors.js';
import { clearStatusPageLoaders } from '../clear-status-page-loaders.js';

const WINDOWS = '/v1/maintenance-windows';

/** The REST ids a mutation acts on; an id that cannot be one names nothing the caller has (NOT_FOUND). */
const windowIdOf = (id: string) => requireRestId(maintenanceWindowRestId(id), 'Maintenance window', id);
const maintenanceIdsOf = (id: string) => requireRestId(maintenanceRestIds(id), 'Maintenance', id);
const updateIdsOf = (id: string) => requireRestId(maintenanceUpdateRestIds(id), 'Maintenance update', id);

const maintenancePath = ({ maintenanceWindowId, maintenanceId }: { maintenanceWindowId: number; maintenanceId: string }) =>
  `${WINDOWS}/${maintenanceWindowId}/maintenances/${maintenanceId}`;

/**
 * A window's fields as REST takes them: given fields only (null keeps or clears as REST says), the
 * linked pages and services as REST UUIDs. An id that can be neither is sent as given: the REST API
 * names it in its 400 (`statusPageVisibility.serviceIds.N`), as it does another account's. The input's
 * paths are REST's own, so userErrors need no mapping.
 */
function windowBody(input: MaintenanceWindowInput): Record<string, unknown> {
  const { statusPageVisibility: visibility, ...fields } = input;
  if (visibility == null) return input;
  const { statusPageIds, serviceIds, ...rest } = visibility;
  return {
    ...fields,
    statusPageVisibility: {
      ...rest,
      ...(statusPageIds === undefined ? {} : { statusPageIds: statusPageIds && statusPageIds.map((id) => statusPageRestId(id) ?? id) }),
      ...(serviceIds === undefined ? {} : { serviceIds: serviceIds && serviceIds.map((id) => statusPageServiceRestId(id) ?? id) }),
    },
  };
}

/** Whatever was read before a write may show what it changed (a window update re-plans its maintenances): forgotten. */
const afterWrite = clearStatusPageLoaders;

const mutation: MutationResolvers = {
  createMaintenanceWindow: async (_root, { input }, ctx) => {
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestMaintenanceWindow>('POST', WINDOWS, windowBody(input))).body);
    if (value) afterWrite(ctx);
    return { maintenanceWindow: value, userErrors };
  },
  updateMaintenanceWindow: async (_root, { id, input }, ctx) => {
    const restId = windowIdOf(id);
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestMaintenanceWindow>('PUT', `${WINDOWS}/${restId}`, windowBody(input))).body);
    if (value) afterWrite(ctx);
    return { maintenanceWindow: value, userErrors };
  },
  deleteMaintenanceWindow: async (_root, { id }, ctx) => {
    const restId = windowIdOf(id);
    await ctx.rest.send('DELETE', `${WINDOWS}/${restId}`);
    afterWrite(ctx);
    return { deletedId: toGlobalId('MaintenanceWindow', restId), userErrors: [] };
  },
  updateMaintenance: async (_root, { id, input }, ctx) => {
    const ids = maintenanceIdsOf(id);
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestMaintenance>('PATCH', maintenancePath(ids), input)).body);
    if (value) afterWrite(ctx);
    return { maintenance: value, userErrors };
  },
  deleteMaintenance: async (_root, { id }, ctx) => {
    const ids = maintenanceIdsOf(id);
    await ctx.rest.send('DELETE', maintenancePath(ids));
    afterWrite(ctx);
    return { deletedId: maintenanceGlobalId(ids.maintenanceWindowId, ids.maintenanceId), userErrors: [] };
  },
  createMaintenanceUpdate: async (_root, { maintenanceId, input }, ctx) => {
    const ids = maintenanceIdsOf(maintenanceId);
    const { value, userErrors } = await withUserErrors(async () =>
      (await ctx.rest.send<RestMaintenanceUpdate>('POST', `${maintenancePath(ids)}/updates`, input)).body);
    // The maintenance's status and dates moved: its `maintenance` field reads it afresh.
    if (value) afterWrite(ctx);
    return { maintenanceUpdate: value, userErrors };
  },
  updateMaintenanceUpdate: async (_root, { id, input }, ctx) => {
    const { updateId, ...ids } = updateIdsOf(id);
    const { value, userErrors } = await withUserErrors(async () =>
      (await ctx.rest.send<RestMaintenanceUpdate>('PUT', `${maintenancePath(ids)}/updates/${updateId}`, input)).body);
    if (value) afterWrite(ctx);
    return { maintenanceUpdate: value, userErrors };
  },
};

/** Maintenance window, maintenance and maintenance update mutations. */
export const maintenanceMutationResolvers: Resolvers = { Mutation: mutation };
