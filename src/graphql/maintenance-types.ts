/**
 * REST payloads of maintenance windows, their maintenances and the maintenances' updates as the
 * GraphQL layer receives them (codegen mappers), each a component schema of the REST API's OpenAPI
 * document.
 */
import type { components } from '../contract/__generated__/openapi.js';

type Schemas = components['schemas'];

/** A maintenance window (`/v1/maintenance-windows/{id}`). */
export type RestMaintenanceWindow = Schemas['MaintenanceWindow'];

/** How status pages show a window. */
export type RestMaintenanceWindowVisibility = RestMaintenanceWindow['statusPageVisibility'];

/** One occurrence of a window (`…/maintenances/{maintenanceId}`); it names its window. */
export type RestMaintenance = Schemas['Maintenance'];

/** An update of a maintenance (`…/updates/{updateId}`); it names its window and maintenance. */
export type RestMaintenanceUpdate = Schemas['MaintenanceWindowUpdate'];

/** The dates an update set. */
export type RestMaintenanceDateAdjustments = NonNullable<RestMaintenanceUpdate['dateAdjustments']>;

/** A check and its maintenance (`GET /v1/check-maintenance`). */
export type RestCheckMaintenanceState = Schemas['CheckMaintenanceState'];

/** A check's maintenance, in progress or next. */
export type RestCheckMaintenance = NonNullable<RestCheckMaintenanceState['maintenance']>;
