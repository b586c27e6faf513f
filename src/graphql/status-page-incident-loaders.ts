import DataLoader from 'dataloader';
import { getOrNull } from './get-or-null.js';
import { isUuid } from './global-id.js';
import type { RestSession } from './rest-client.js';
import type { IncidentUpdateParent, RestIncident, RestIncidentUpdate, RestStatusPageService } from './status-page-incident-types.js';

/** Largest page the REST cursor lists serve. */
const PAGE = 100;

/** Per-operation loaders of status page services, incidents and incident updates. */
export interface StatusPageIncidentLoaders {
  /** Services by REST UUID; null when unknown or of another account. */
  serviceById: DataLoader<string, RestStatusPageService | null>;
  /** Incidents by REST UUID; null when unknown or of another account. */
  incidentById: DataLoader<string, RestIncident | null>;
  /** Incident updates by `incidentId:updateId`; null when unknown or of another account. */
  updateByKey: DataLoader<string, IncidentUpdateParent | null>;
  /** Every incident of the account, newest first: the whole cursor list, read once per operation. */
  allIncidents(): Promise<RestIncident[]>;
  /** Forgets everything read so far: a write may have changed any of it (a renamed service shows in its incidents). */
  clearAll(): void;
}

/** A page of a REST cursor list. */
interface CursorListPage<T> {
  entries: T[];
  nextId: string | null;
}

/** Every entry of a REST cursor list, page after page. */
async function walk<T>(rest: RestSession, path: string): Promise<T[]> {
  const all: T[] = [];
  let nextId: string | null = null;
  do {
    const page: CursorListPage<T> = (await rest.get<CursorListPage<T>>(path, { limit: PAGE, nextId: nextId ?? undefined })).body;
    all.push(...page.entries);
    nextId = page.nextId;
  } while (nextId);
  return all;
}

const lower = (key: string) => key.toLowerCase();

/**
 * Loaders over routes that have no `ids=` filter. Relations need none: an incident carries its
 * services and latest updates, and a service's incidents come from one walk of the account's incident
 * list, shared by every service of the operation. By id, one service is one GET; several are found in
 * one walk of the service list (a small catalogue: one call per 100 services), so the services of a
 * list of checks cost one call. Incidents and updates by id (node, nodes, _entities) are single GETs,
 * each made once per operation; every list read primes them.
 */
export function createStatusPageIncidentLoaders(rest: RestSession): StatusPageIncidentLoaders {
  let services: Promise<Map<string, RestStatusPageService>> | undefined;
  let incidents: Promise<RestIncident[]> | undefined;

  const serviceById = new DataLoader<string, RestStatusPageService | null>(async (keys) => {
    const wanted = keys.filter(isUuid);
    if (wanted.length === 0) return keys.map(() => null);
    if (wanted.length === 1) {
      const one = await getOrNull<RestStatusPageService>(rest, `/v1/status-pages/services/${wanted[0]}`);
      return keys.map((k) => (one && lower(one.id) === lower(k) ? one : null));
    }
    services ??= walk<RestStatusPageService>(rest, '/v1/status-pages/services').then((all) => new Map(all.map((s) => [lower(s.id), s])));
    const byId = await services;
    return keys.map((k) => byId.get(lower(k)) ?? null);
  }, { cacheKeyFn: lower, maxBatchSize: 100 });

  const incidentById = new DataLoader<string, RestIncident | null>(
    (keys) => Promise.all(keys.map((k) => (isUuid(k) ? getOrNull<RestIncident>(rest, `/v1/status-pages/incidents/${k}`) : null))),
    { cacheKeyFn: lower },
  );

  const updateByKey = new DataLoader<string, IncidentUpdateParent | null>((keys) => Promise.all(keys.map(async (key) => {
    const [incidentId, updateId] = key.split(':');
    if (!incidentId || !updateId || !isUuid(incidentId) || !isUuid(updateId)) return null;
    const update = await getOrNull<RestIncidentUpdate>(rest, `/v1/status-pages/incidents/${incidentId}/incident-updates/${updateId}`);
    return update && { ...update, incidentId: lower(incidentId) };
  })), { cacheKeyFn: lower });

  const loaders: StatusPageIncidentLoaders = {
    serviceById,
    incidentById,
    updateByKey,
    allIncidents() {
      incidents ??= walk<RestIncident>(rest, '/v1/status-pages/incidents').then((all) => {
        for (const incident of all) primeIncident(loaders, incident);
        return all;
      });
      return incidents;
    },
    clearAll() {
      services = undefined;
      incidents = undefined;
      serviceById.clearAll();
      incidentById.clearAll();
      updateByKey.clearAll();
    },
  };
  return loaders;
}

/** Primes the loaders with an incident read some other way (a list page, a write's answer, an event). */
export function primeIncident(loaders: StatusPageIncidentLoaders, incident: RestIncident): RestIncident {
  loaders.incidentById.prime(lower(incident.id), incident);
  for (const service of incident.services) loaders.serviceById.prime(lower(service.id), service);
  return incident;
}
