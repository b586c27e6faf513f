/**
 * REST payloads of status page services, incidents and incident updates as the GraphQL layer
 * receives them (codegen mappers), each a component schema of the REST API's OpenAPI document, and
 * the few parent shapes of this layer's own making.
 */
import type { components } from '../contract/__generated__/openapi.js';
import type { UserError } from './user-errors.js';

type Schemas = components['schemas'];

/** A status page service (`/v1/status-pages/services/{serviceId}`). */
export type RestStatusPageService = Schemas['StatusPageService'];

/** A page of a cursor list (`{length, entries, nextId}`). */
export type RestStatusPageServicePage = Schemas['StatusPageServicePage'];

/** An incident with its services and 100 latest updates (`/v1/status-pages/incidents/{incidentId}`). */
export type RestIncident = Schemas['StatusPageIncident'];

/** A page of the incident list. */
export type RestIncidentPage = Schemas['StatusPageIncidentPage'];

/** An incident update as REST returns it: it does not name its incident. */
export type RestIncidentUpdate = Schemas['StatusPageIncidentUpdate'];

/** An incident update with the id of its incident, which REST addresses it under (the `IncidentUpdate` parent). */
export type IncidentUpdateParent = RestIncidentUpdate & { incidentId: string };

/** What deleteIncidentUpdate returns: the incident is read again only when asked for. */
export interface DeleteIncidentUpdatePayloadParent {
  deletedId: string | null;
  /** REST id of the incident, or null when nothing was deleted. */
  incidentId: string | null;
  userErrors: UserError[];
}
