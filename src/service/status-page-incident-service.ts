import { randomUUID } from 'node:crypto';
import type { IncidentStatus } from '../domain/incident-status-moves.js';
import { LookoutError, assertValid, notFound } from '../domain/lookout-error.js';
import { list, mergeUpdate, value, type Shape } from '../domain/merge-update.js';
import { incidentServiceIssues, incidentUpdateStatusIssues, serviceCheckIssues } from '../domain/status-page-incident-issues.js';
import type {
  ServiceBodyType, IncidentCreateBody, IncidentPutBody, IncidentUpdateCreateBody, IncidentUpdatePutBody,
} from '../contract/status-page-incident-schemas.js';
import type { Logger } from 'pino';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import { LATEST_UPDATES, incidentViews, serviceViews, toIncidentUpdateView, toServiceView } from './status-page-incident-view.js';
import { createPublicWrite } from './status-page-public-write.js';
import { recordIncidentProgress } from './record-incident-progress.js';
import { enqueueIncidentUpdateNotifications } from './enqueue-subscriber-notification.js';
import type { Repositories } from '../store/repositories.js';
import type { StatusPageIncidentUpdateRow } from '../store/status-page-incidents-repository.js';

export { LATEST_UPDATES, toIncidentUpdateView, toServiceView };

/** Incidents a 409 on a service delete names at most. */
const NAMED_USERS = 5;

/** How PUT merges over a stored incident (merge-update.ts): absent or null keeps, services sent replace. */
const INCIDENT_SHAPE: Shape = { name: value(), severity: value(), services: list() };
const UPDATE_SHAPE: Shape = { description: value(), status: value(), publicIncidentUpdateDate: value(), notifySubscribers: value() };

const badCursor = () => new LookoutError('VALIDATION', '"nextId" is not a cursor of this list', { issues: [{ key: 'nextId', message: 'is unknown' }], source: 'query' });

/** A page of a cursor list fetched with one row more than `limit`: `{length, entries, nextId}`. */
function cursorPage<R extends { id: string }, V>(rows: R[], limit: number, entries: (page: R[]) => V[]) {
  const page = rows.slice(0, limit);
  return { length: page.length, entries: entries(page), nextId: rows.length > limit ? page[page.length - 1]!.id : null };
}

async function readIncident(repos: Repositories, accountId: string, id: string) {
  const row = await repos.statusPageIncidents.get(accountId, id);
  if (!row) throw notFound('Incident', id);
  return (await incidentViews(repos, [row]))[0]!;
}

/** The account's services among those named, or a 400 naming each `services.N.id` that is not one (nothing written). */
async function checkServices(repos: Repositories, accountId: string, sent: readonly { id: string }[]): Promise<string[]> {
  const found = await repos.statusPageServices.getMany(accountId, sent.map((s) => s.id));
  assertValid(incidentServiceIssues(sent, new Set(found.map((s) => s.id))));
  return sent.map((s) => s.id.toLowerCase());
}

/**
 * Writes the checks a service body names (when it names them): each must be a check of the account,
 * once, or a 400 naming `checks.N.id` (nothing written; another account's check is unknown here).
 */
async function writeServiceChecks(repos: Repositories, accountId: string, serviceId: string, sent: ServiceBodyType['checks']): Promise<void> {
  if (sent == null) return;
  const known = await repos.statusPageServices.existingChecks(accountId, sent.map((c) => c.id));
  assertValid(serviceCheckIssues(sent, known));
  await repos.statusPageServices.setChecks(accountId, serviceId, sent.map((c) => c.id.toLowerCase()));
}

async function readService(repos: Repositories, accountId: string, id: string) {
  const row = await repos.statusPageServices.get(accountId, id);
  if (!row) throw notFound('Service', id);
  return (await serviceViews(repos, [row]))[0]!;
}

const updateValues = (u: { description: string; status?: string | null; publicIncidentUpdateDate?: string | null; notifySubscribers?: boolean | null }, now: Date) => ({
  description: u.description,
  status: u.status ?? null,
  publicIncidentUpdateDate: u.publicIncidentUpdateDate ? new Date(u.publicIncidentUpdateDate) : now,
  notifySubscribers: u.notifySubscribers ?? false,
});

/**
 * Status page services, incidents and incident updates. Every write runs in one transaction and
 * writes nothing when refused; every id of another account answers like an unknown one. An
 * incident's lastUpdateStatus and duration are computed from all of its updates (incidentProgress)
 * in the transaction of each write of an update.
 * Long by design: an object of short use-case methods (one per route) over the same store and bus; the module is the unit, not the closure.
 */
export function createStatusPageIncidentService({ store, bus, logger }: StatusPageIncidentServiceOptions) {
  const write = createPublicWrite({ store, bus, logger });

  /**
   * A public write (status-page-public-write.ts) of a service or an incident; for an incident, its
   * REST view also goes out as `incidentUpdated` (null once deleted) for GraphQL subscriptions.
   */
  async function publicWrite<T>(accountId: string, subject: 'service' | 'incident', fn: (tx: Repositories) => Promise<T>, subjectId: (result: T) => string, incidentId?: (result: T) => string): Promise<T> {
    const result = await write(accountId, fn, (r) => ({ subject, subjectId: subjectId(r) }));
    if (incidentId && bus) {
      const id = incidentId(result);
      // The write has committed: a bus outage must not turn it into an error (see createPublicWrite).
      await announceIncident(accountId, id).catch((err) => logger?.warn({ err, accountId, incidentId: id }, 'status pages: could not publish an incident change'));
    }
    return result;
  }

  async function announceIncident(accountId: string, incidentId: string): Promise<void> {
    const row = await store.statusPageIncidents.get(accountId, incidentId);
    const incident = row ? (await incidentViews(store, [row]))[0]! : null;
    await bus!.publish({ type: 'incidentUpdated', accountId, incidentId, incident });
  }

  return {
    services: {
      async list(accountId: string, limit: number, nextId?: string) {
        let after: { createdAt: Date; id: string } | undefined;
        if (nextId) {
          const cursor = await store.statusPageServices.get(accountId, nextId);
          if (!cursor) throw badCursor();
          after = { createdAt: cursor.created_at, id: cursor.id };
        }
        const page = cursorPage(await store.statusPageServices.list(accountId, limit + 1, after), limit, (p) => p);
        return { ...page, entries: await serviceViews(store, page.entries) };
      },

      get: (accountId: string, id: string) => readService(store, accountId, id),

      async create(accountId: string, body: ServiceBodyType) {
        return publicWrite(accountId, 'service', async (tx) => {
          const row = await tx.statusPageServices.insert(accountId, randomUUID(), { name: body.name, autoIncident: body.autoIncident ?? false });
          await writeServiceChecks(tx, accountId, row.id, body.checks);
          return readService(tx, accountId, row.id);
        }, (v) => v.id);
      },

      /** Replaces the name; `checks` and `autoIncident` only when sent (absent or null keeps them). */
      async update(accountId: string, id: string, body: ServiceBodyType) {
        return publicWrite(accountId, 'service', async (tx) => {
          const stored = await tx.statusPageServices.get(accountId, id, true);
          if (!stored) throw notFound('Service', id);
          await tx.statusPageServices.update(accountId, id, { name: body.name, autoIncident: body.autoIncident ?? stored.auto_incident });
          await writeServiceChecks(tx, accountId, id, body.checks);
          return readService(tx, accountId, id);
        }, (v) => v.id);
      },

      /** Refused with 409 naming the incidents while any incident lists the service (an incident keeps at least one). */
      async delete(accountId: string, id: string): Promise<void> {
        await publicWrite(accountId, 'service', async (tx) => {
          const row = await tx.statusPageServices.get(accountId, id, true);
          if (!row) throw notFound('Service', id);
          const users = await tx.statusPageServices.incidentsUsing(accountId, id, NAMED_USERS);
          if (users.length > 0) {
            const named = users.map((u) => `"${u.name}" (${u.id})`).join(', ');
            throw new LookoutError('CONFLICT', `Service ${id} is used by incident${users.length > 1 ? 's' : ''} ${named}${users.length === NAMED_USERS ? ' and maybe more' : ''}: `
              + 'remove it from their services or delete them first', { attributes: { incidentIds: users.map((u) => u.id) } });
          }
          const pages = await tx.statusPages.pagesShowingServices(accountId, [id], NAMED_USERS);
          if (pages.length > 0) {
            throw new LookoutError('CONFLICT', `Service ${id} is shown by status page${pages.length > 1 ? 's' : ''} ${pages.map((p) => `"${p.name}" (${p.id})`).join(', ')}`
              + `${pages.length === NAMED_USERS ? ' and maybe more' : ''}: remove it from their cards first`, { attributes: { statusPageIds: pages.map((p) => p.id) } });
          }
          await tx.statusPageServices.delete(accountId, id);
        }, () => id);
      },
    },

    incidents: {
      async list(accountId: string, limit: number, nextId?: string) {
        let after: { createdAt: Date; id: string } | undefined;
        if (nextId) {
          const cursor = await store.statusPageIncidents.get(accountId, nextId);
          if (!cursor) throw badCursor();
          after = { createdAt: cursor.created_at, id: cursor.id };
        }
        const rows = await store.statusPageIncidents.list(accountId, limit + 1, after);
        const page = cursorPage(rows, limit, (p) => p);
        return { ...page, entries: await incidentViews(store, page.entries) };
      },

      get: (accountId: string, id: string) => readIncident(store, accountId, id),

      async create(accountId: string, body: IncidentCreateBody) {
        return publicWrite(accountId, 'incident', async (tx) => {
          assertValid(incidentUpdateStatusIssues(null, body.incidentUpdates.map((u) => u.status), 'incidentUpdates'));
          const serviceIds = await checkServices(tx, accountId, body.services);
          const id = randomUUID();
          await tx.statusPageIncidents.insert(accountId, id, { name: body.name, severity: body.severity });
          await tx.statusPageIncidents.setServices(id, serviceIds);
          const now = new Date();
          const posted: StatusPageIncidentUpdateRow[] = [];
          for (const update of body.incidentUpdates) posted.push(await tx.statusPageIncidents.insertUpdate(accountId, id, randomUUID(), updateValues(update, now)));
          await recordIncidentProgress(tx, accountId, id, false);
          await enqueueIncidentUpdateNotifications(tx, accountId, id, posted);
          return readIncident(tx, accountId, id);
        }, (v) => v.id, (v) => v.id);
      },

      async update(accountId: string, id: string, body: IncidentPutBody) {
        return publicWrite(accountId, 'incident', async (tx) => {
          const row = await tx.statusPageIncidents.get(accountId, id, true);
          if (!row) throw notFound('Incident', id);
          const merged = mergeUpdate({ name: row.name, severity: row.severity }, body, INCIDENT_SHAPE);
          if (body.services) await tx.statusPageIncidents.setServices(id, await checkServices(tx, accountId, body.services));
          await tx.statusPageIncidents.update(accountId, id, { name: merged.name, severity: merged.severity });
          return readIncident(tx, accountId, id);
        }, (v) => v.id, (v) => v.id);
      },

      /** Removes the incident and all its updates. */
      async delete(accountId: string, id: string): Promise<void> {
        await publicWrite(accountId, 'incident', async (tx) => {
          if (!(await tx.statusPageIncidents.delete(accountId, id))) throw notFound('Incident', id);
        }, () => id, () => id);
      },
    },

    updates: {
      async list(accountId: string, incidentId: string) {
        if (!(await store.statusPageIncidents.get(accountId, incidentId))) throw notFound('Incident', incidentId);
        return (await store.statusPageIncidents.updatesOf([incidentId], LATEST_UPDATES)).map(toIncidentUpdateView);
      },

      async get(accountId: string, incidentId: string, id: string) {
        const row = await store.statusPageIncidents.getUpdate(accountId, incidentId, id);
        if (!row) throw notFound('Incident update', id);
        return toIncidentUpdateView(row);
      },

      async create(accountId: string, incidentId: string, body: IncidentUpdateCreateBody) {
        return publicWrite(accountId, 'incident', async (tx) => {
          const incident = await tx.statusPageIncidents.get(accountId, incidentId, true);
          if (!incident) throw notFound('Incident', incidentId);
          assertValid(incidentUpdateStatusIssues(incident.last_update_status as IncidentStatus, [body.status]));
          const row = await tx.statusPageIncidents.insertUpdate(accountId, incidentId, randomUUID(), updateValues(body, new Date()));
          await recordIncidentProgress(tx, accountId, incidentId, true);
          await enqueueIncidentUpdateNotifications(tx, accountId, incidentId, [row]);
          return toIncidentUpdateView(row);
        }, () => incidentId, () => incidentId);
      },

      async update(accountId: string, incidentId: string, id: string, body: IncidentUpdatePutBody) {
        return publicWrite(accountId, 'incident', async (tx) => {
          const incident = await tx.statusPageIncidents.get(accountId, incidentId, true);
          const stored = incident && await tx.statusPageIncidents.getUpdate(accountId, incidentId, id);
          if (!stored) throw notFound(incident ? 'Incident update' : 'Incident', incident ? id : incidentId);
          assertValid(incidentUpdateStatusIssues(incident.last_update_status as IncidentStatus, [body.status]));
          const merged = mergeUpdate({
            description: stored.description,
            status: stored.status,
            publicIncidentUpdateDate: stored.public_incident_update_date.toISOString(),
            notifySubscribers: stored.notify_subscribers,
          }, body, UPDATE_SHAPE);
          const row = await tx.statusPageIncidents.updateUpdate(accountId, incidentId, id, updateValues(merged, stored.public_incident_update_date));
          await recordIncidentProgress(tx, accountId, incidentId, true);
          return toIncidentUpdateView(row!);
        }, () => incidentId, () => incidentId);
      },

      async delete(accountId: string, incidentId: string, id: string): Promise<void> {
        await publicWrite(accountId, 'incident', async (tx) => {
          const incident = await tx.statusPageIncidents.get(accountId, incidentId, true);
          if (!incident) throw notFound('Incident', incidentId);
          if (!(await tx.statusPageIncidents.deleteUpdate(accountId, incidentId, id))) throw notFound('Incident update', id);
          await recordIncidentProgress(tx, accountId, incidentId, true);
        }, () => incidentId, () => incidentId);
      },
    },
  };
}
/** What the status page incident service needs. */
export interface StatusPageIncidentServiceOptions {
  store: Store;
  /** Where `incidentUpdated` and `publicContentChanged` go after each write commits; none in unit uses. */
  bus?: EventBus;
  logger?: Logger;
}

export type StatusPageIncidentService = ReturnType<typeof createStatusPageIncidentService>;
