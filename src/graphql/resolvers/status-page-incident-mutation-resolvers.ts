import type { MutationResolvers, Resolvers } from '../__generated__/resolvers-types.js';
import { checkRestId, requireRestId, toGlobalId } from '../global-id.js';
import { incidentRestId, incidentUpdateGlobalId, incidentUpdateRestIds, statusPageServiceRestId } from '../status-page-incident-ids.js';
import { primeIncident } from '../status-page-incident-loaders.js';
import type { IncidentUpdateParent, RestIncident, RestIncidentUpdate, RestStatusPageService } from '../status-page-incident-types.js';
import { TOO_MANY_ERRORS, withUserErrors, type UserError } from '../user-errors.js';
import { clearStatusPageLoaders } from '../clear-status-page-loaders.js';

const SERVICES = '/v1/status-pages/services';
const INCIDENTS = '/v1/status-pages/incidents';

/** The REST ids a mutation acts on; an id that cannot be one names nothing the caller has (NOT_FOUND). */
const serviceIdOf = (id: string) => requireRestId(statusPageServiceRestId(id), 'Status page service', id);
const incidentIdOf = (id: string) => requireRestId(incidentRestId(id), 'Incident', id);
const updateIdsOf = (id: string) => requireRestId(incidentUpdateRestIds(id), 'Incident update', id);

/**
 * The input path of a key the REST API names in its 400: the incident's first updates are REST's
 * `incidentUpdates` but the input's `updates`, and a service entry is REST's `{id}` object but the
 * input's bare id (`services.1.id` is `services.1`).
 */
export function incidentInputPath(restKey: string): string {
  return restKey.replace(/^incidentUpdates(?=\.|$)/, 'updates').replace(/^(services\.\d+)\.id$/, '$1');
}

/** A service's fields as REST takes them: checks as `[{id}]` (an id that can be no check is sent as given for REST to name). */
function serviceBody(input: { checks?: readonly string[] | null } & Record<string, unknown>): Record<string, unknown> {
  const { checks, ...fields } = input;
  return checks == null ? fields : { ...fields, checks: checks.map((id) => ({ id: checkRestId(id) ?? id })) };
}

/** A service input's key for a key of REST's 400: `checks.N.id` is the input's `checks.N`. */
const underServiceInput = (errors: UserError[]) => errors.map((e) => (e.field && e.code !== TOO_MANY_ERRORS ? { ...e, field: e.field.replace(/^(checks\.\d+)\.id$/, '$1') } : e));

const underInput = (errors: UserError[]) => errors.map((e) => (e.field && e.code !== TOO_MANY_ERRORS ? { ...e, field: incidentInputPath(e.field) } : e));

/**
 * Service ids as REST takes them (`[{id}]`). An id that can be no service is sent as given: the REST
 * API names it in its 400 (`services.N.id`), as it does an unknown service or another account's.
 */
function restServices(ids: readonly string[] | null | undefined): { id: string }[] | null | undefined {
  return ids == null ? ids : ids.map((id) => ({ id: statusPageServiceRestId(id) ?? id }));
}

/** An incident's fields as REST takes them: given fields only (null keeps on update), services as `[{id}]`. */
function incidentBody(input: { services?: readonly string[] | null } & Record<string, unknown>): Record<string, unknown> {
  const { services, ...fields } = input;
  return services === undefined ? fields : { ...fields, services: restServices(services) };
}

/** Whatever was read before a write may show what it changed (a renamed service shows in its incidents): forgotten. */
const afterWrite = clearStatusPageLoaders;

const withIncident = (incidentId: string, update: RestIncidentUpdate | null): IncidentUpdateParent | null => update && { ...update, incidentId };

const mutation: MutationResolvers = {
  createStatusPageService: async (_root, { input }, ctx) => {
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestStatusPageService>('POST', SERVICES, serviceBody(input))).body);
    if (value) afterWrite(ctx);
    return { statusPageService: value, userErrors: underServiceInput(userErrors) };
  },
  updateStatusPageService: async (_root, { id, input }, ctx) => {
    const restId = serviceIdOf(id);
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestStatusPageService>('PUT', `${SERVICES}/${restId}`, serviceBody(input))).body);
    if (value) afterWrite(ctx);
    return { statusPageService: value, userErrors: underServiceInput(userErrors) };
  },
  deleteStatusPageService: async (_root, { id }, ctx) => {
    const restId = serviceIdOf(id);
    await ctx.rest.send('DELETE', `${SERVICES}/${restId}`);
    afterWrite(ctx);
    return { deletedId: toGlobalId('StatusPageService', restId), userErrors: [] };
  },
  createIncident: async (_root, { input }, ctx) => {
    const { updates, ...fields } = input;
    const body = { ...incidentBody(fields), incidentUpdates: updates ?? [] };
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestIncident>('POST', INCIDENTS, body)).body);
    if (!value) return { incident: null, userErrors: underInput(userErrors) };
    afterWrite(ctx);
    return { incident: primeIncident(ctx.loaders.statusPageIncidents, value), userErrors: [] };
  },
  updateIncident: async (_root, { id, input }, ctx) => {
    const restId = incidentIdOf(id);
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestIncident>('PUT', `${INCIDENTS}/${restId}`, incidentBody(input))).body);
    if (!value) return { incident: null, userErrors: underInput(userErrors) };
    afterWrite(ctx);
    return { incident: primeIncident(ctx.loaders.statusPageIncidents, value), userErrors: [] };
  },
  deleteIncident: async (_root, { id }, ctx) => {
    const restId = incidentIdOf(id);
    await ctx.rest.send('DELETE', `${INCIDENTS}/${restId}`);
    afterWrite(ctx);
    return { deletedId: toGlobalId('Incident', restId), userErrors: [] };
  },
  createIncidentUpdate: async (_root, { incidentId, input }, ctx) => {
    const restId = incidentIdOf(incidentId);
    const { value, userErrors } = await withUserErrors(async () =>
      (await ctx.rest.send<RestIncidentUpdate>('POST', `${INCIDENTS}/${restId}/incident-updates`, input)).body);
    // The incident's status and duration moved: its `incident` field reads it afresh.
    if (value) afterWrite(ctx);
    return { incidentUpdate: withIncident(restId, value), userErrors };
  },
  updateIncidentUpdate: async (_root, { id, input }, ctx) => {
    const { incidentId, updateId } = updateIdsOf(id);
    const { value, userErrors } = await withUserErrors(async () =>
      (await ctx.rest.send<RestIncidentUpdate>('PUT', `${INCIDENTS}/${incidentId}/incident-updates/${updateId}`, input)).body);
    if (value) afterWrite(ctx);
    return { incidentUpdate: withIncident(incidentId, value), userErrors };
  },
  deleteIncidentUpdate: async (_root, { id }, ctx) => {
    const { incidentId, updateId } = updateIdsOf(id);
    await ctx.rest.send('DELETE', `${INCIDENTS}/${incidentId}/incident-updates/${updateId}`);
    afterWrite(ctx);
    return { deletedId: incidentUpdateGlobalId(incidentId, updateId), incidentId, userErrors: [] };
  },
};

/** Status page service, incident and incident update mutations: create, update and delete of each. */
export const statusPageIncidentMutationResolvers: Resolvers = {
  Mutation: mutation,
  DeleteIncidentUpdatePayload: {
    incident: (p, _args, ctx) => (p.incidentId ? ctx.loaders.statusPageIncidents.incidentById.load(p.incidentId) : null),
  },
};
