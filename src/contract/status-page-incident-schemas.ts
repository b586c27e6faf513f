import Type from 'typebox';
import { INCIDENT_STATUSES } from '../domain/incident-status-moves.js';
import { INCIDENT_SEVERITIES } from '../domain/service-state.js';
import { Nullable } from './common.js';

const Uuid = Type.String({ format: 'uuid' });
/** Optional, and null means the same as absent. */
const opt = <T extends Type.TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** Limits of this resource (service-api.md "Limits" where it names one; ours otherwise). */
export const STATUS_PAGE_LIMITS = {
  serviceName: 255,
  incidentName: 255,
  description: 10_000,
  servicesPerIncident: 100,
  checksPerService: 100,
  updatesPerWrite: 100,
} as const;

export const ServiceParams = Type.Object({ serviceId: Uuid }, { additionalProperties: false });
export const IncidentParams = Type.Object({ incidentId: Uuid }, { additionalProperties: false });
export const IncidentUpdateParams = Type.Object({ incidentId: Uuid, incidentUpdateId: Uuid }, { additionalProperties: false });

/** Query of the cursor lists: `limit` (default 20, as the real API) and the `nextId` a previous page gave. */
export const StatusPageCursorQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  nextId: Type.Optional(Type.String({ format: 'uuid', description: 'The nextId of the previous page' })),
}, { additionalProperties: false });

/**
 * Body of `POST` and `PUT /v1/status-pages/services[/{serviceId}]`. `checks` and `autoIncident` are
 * ours (the real API's service is a name only); on PUT, absent or null keeps what is stored.
 */
export const ServiceBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: STATUS_PAGE_LIMITS.serviceName, pattern: '\\S' }),
  checks: opt(Type.Array(Type.Object({ id: Uuid, name: opt(Type.String({ maxLength: 2048 })) }, { additionalProperties: false }), {
    maxItems: STATUS_PAGE_LIMITS.checksPerService,
    description: 'Checks of this account the service\'s public state and uptime come from, each once, in the order shown ([]: none; a read\'s `name` may be sent back)',
  })),
  autoIncident: opt(Type.Boolean({ description: 'Open an incident on the service when its checks fail and resolve it when they recover (default false)' })),
}, { additionalProperties: false });
export type ServiceBodyType = Type.Static<typeof ServiceBody>;

/** A service an incident affects: its id (a read's `name` and `accountId` may be sent back and are ignored). */
const ServiceRef = Type.Object({ id: Uuid }, { additionalProperties: false });
const Services = Type.Array(ServiceRef, { minItems: 1, maxItems: STATUS_PAGE_LIMITS.servicesPerIncident });

const Status = Type.String({
  maxLength: 64,
  description: `One of ${INCIDENT_STATUSES.join(', ')}. Absent or null: the update keeps the status of the update before it (INVESTIGATING for the first)`,
});
const Description = Type.String({ minLength: 1, maxLength: STATUS_PAGE_LIMITS.description });
const PublicDate = Type.String({ format: 'date-time', description: 'When the update shows as posted; absent or null: now. Edit it to backfill' });
const Notify = Type.Boolean({ description: 'Notify the status page subscribers (default false). Stored only: delivery is not built yet' });

/** An incident update on create (alone or inside an incident). */
export const IncidentUpdateCreate = Type.Object({
  description: Description,
  status: opt(Status),
  publicIncidentUpdateDate: opt(PublicDate),
  notifySubscribers: opt(Notify),
}, { additionalProperties: false });

/** `PUT …/incident-updates/{id}`: absent or null keeps the stored value. */
export const IncidentUpdatePut = Type.Object({
  description: opt(Description),
  status: opt(Status),
  publicIncidentUpdateDate: opt(PublicDate),
  notifySubscribers: opt(Notify),
}, { additionalProperties: false });

const Name = Type.String({ minLength: 1, maxLength: STATUS_PAGE_LIMITS.incidentName, pattern: '\\S' });
const Severity = Type.Enum([...INCIDENT_SEVERITIES]);

/** Body of `POST /v1/status-pages/incidents`. */
export const IncidentCreate = Type.Object({
  name: Name,
  severity: Severity,
  services: Services,
  incidentUpdates: Type.Array(IncidentUpdateCreate, {
    maxItems: STATUS_PAGE_LIMITS.updatesPerWrite,
    description: 'The first updates; may be empty (the incident is then INVESTIGATING, without duration)',
  }),
  lastUpdateStatus: opt(Type.Enum([...INCIDENT_STATUSES], { description: 'Ignored: computed from the updates' })),
  duration: opt(Type.Integer({ description: 'Ignored: computed from the updates' })),
}, { additionalProperties: false });

/** Body of `PUT /v1/status-pages/incidents/{incidentId}`: absent or null keeps; services sent replace. Updates have their own routes. */
export const IncidentPut = Type.Object({
  name: opt(Name),
  severity: opt(Severity),
  services: opt(Services),
}, { additionalProperties: false });

export type IncidentCreateBody = Type.Static<typeof IncidentCreate>;
export type IncidentPutBody = Type.Static<typeof IncidentPut>;
export type IncidentUpdateCreateBody = Type.Static<typeof IncidentUpdateCreate>;
export type IncidentUpdatePutBody = Type.Static<typeof IncidentUpdatePut>;
