import { INCIDENT_STATUSES } from '../domain/incident-status-moves.js';
import { INCIDENT_SEVERITIES } from '../domain/service-state.js';
import { ref } from './response-shape.js';

const DateTime = { type: 'string', format: 'date-time' };
const NullableDateTime = { type: ['string', 'null'], format: 'date-time' };

/** A status page service (`/v1/status-pages/services/{serviceId}`), shared by every page showing it. */
export const StatusPageService = {
  $id: 'StatusPageService',
  type: 'object',
  description: 'A service status pages show and incidents affect; shared by every page that shows it',
  required: ['id', 'name', 'accountId', 'autoIncident', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    accountId: { type: 'string', format: 'uuid' },
    autoIncident: { type: 'boolean', description: 'Opens an incident on the service when its checks fail, resolves it when they recover' },
    checks: {
      type: 'array',
      description: 'The checks its public state and uptime come from, in the order shown (on the services routes; left out where a service is nested in a page or an incident)',
      items: {
        type: 'object', required: ['id', 'name'], additionalProperties: false,
        properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } },
      },
    },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** A page of `GET /v1/status-pages/services`. */
export const StatusPageServicePage = {
  $id: 'StatusPageServicePage',
  type: 'object',
  description: 'Services, newest first; nextId null on the last page',
  required: ['length', 'entries', 'nextId'],
  properties: {
    length: { type: 'integer' },
    entries: { type: 'array', items: ref('StatusPageService') },
    nextId: { type: ['string', 'null'] },
  },
};

/** One update of a status page incident. */
export const StatusPageIncidentUpdate = {
  $id: 'StatusPageIncidentUpdate',
  type: 'object',
  description: 'One update of a status page incident',
  required: ['id', 'description', 'status', 'publicIncidentUpdateDate', 'notifySubscribers', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    description: { type: 'string' },
    status: { type: ['string', 'null'], enum: [...INCIDENT_STATUSES, null], description: 'As sent; null keeps the status of the update before it' },
    publicIncidentUpdateDate: DateTime,
    notifySubscribers: { type: 'boolean' },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** A status page incident (`/v1/status-pages/incidents/{incidentId}`). */
export const StatusPageIncident = {
  $id: 'StatusPageIncident',
  type: 'object',
  description: 'An incident on status page services; lastUpdateStatus and duration follow its updates',
  required: ['id', 'name', 'severity', 'services', 'incidentUpdates', 'lastUpdateStatus', 'duration', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    severity: { type: 'string', enum: [...INCIDENT_SEVERITIES] },
    services: { type: 'array', items: ref('StatusPageService') },
    incidentUpdates: { type: 'array', items: ref('StatusPageIncidentUpdate'), description: 'The 100 latest updates, newest first' },
    lastUpdateStatus: { type: 'string', enum: [...INCIDENT_STATUSES] },
    duration: { type: ['integer', 'null'], description: 'Seconds from the first update to the closing RESOLVED one; null while open' },
    checkId: { type: ['string', 'null'], format: 'uuid', description: 'The check whose triggerIncident opened it (incident automation); null for incidents written by hand' },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** A page of `GET /v1/status-pages/incidents`. */
export const StatusPageIncidentPage = {
  $id: 'StatusPageIncidentPage',
  type: 'object',
  description: 'Incidents, newest first; nextId null on the last page',
  required: ['length', 'entries', 'nextId'],
  properties: {
    length: { type: 'integer' },
    entries: { type: 'array', items: ref('StatusPageIncident') },
    nextId: { type: ['string', 'null'] },
  },
};

/** Schemas of this file registered as named components, in dependency order. */
export const STATUS_PAGE_INCIDENT_VIEW_SCHEMAS = [StatusPageService, StatusPageServicePage, StatusPageIncidentUpdate, StatusPageIncident, StatusPageIncidentPage];
