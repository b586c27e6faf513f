import { REPEAT_UNITS } from '../domain/maintenance-occurrences.js';
import { MAINTENANCE_STATUSES } from '../domain/maintenance-status-moves.js';
import { INCIDENT_SEVERITIES } from '../domain/service-state.js';
import { ref } from './response-shape.js';

const DateTime = { type: 'string', format: 'date-time' };
const NullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const Strings = { type: 'array', items: { type: 'string' } };
const Uuids = { type: 'array', items: { type: 'string', format: 'uuid' } };
const Status = { type: 'string', enum: [...MAINTENANCE_STATUSES] };

const VISIBILITY_KEYS = [
  'enabled', 'severity', 'affectAllServices', 'notifyOnStart', 'notifyOnEnd', 'suppressAutoIncidents',
  'reminderMinutesBefore', 'autoStart', 'autoEnd', 'showAffectedServices', 'statusPageIds', 'serviceIds',
];

/** A maintenance window (`/v1/maintenance-windows/{id}`): a schedule of maintenances and what they do. */
export const MaintenanceWindow = {
  $id: 'MaintenanceWindow',
  type: 'object',
  description: 'A one-off or recurring maintenance window; each occurrence is a maintenance with its own status and updates',
  required: [
    'id', 'name', 'startsAt', 'endsAt', 'repeatUnit', 'repeatInterval', 'repeatEndsAt', 'timezone', 'tags', 'pauseAllChecks',
    'silenceAlertsTags', 'silenceAllAlerts', 'description', 'statusPageVisibility', 'created_at', 'updated_at',
  ],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    startsAt: { ...DateTime, description: 'The first maintenance\'s start' },
    endsAt: { ...DateTime, description: 'The first maintenance\'s end' },
    repeatUnit: { type: ['string', 'null'], enum: [...REPEAT_UNITS, null], description: 'Null: a one-off window' },
    repeatInterval: { type: ['integer', 'null'], description: 'As sent; null with a repeatUnit means 1' },
    repeatEndsAt: { type: ['string', 'null'], description: 'As sent: the inclusive last date in the window\'s time zone' },
    timezone: { type: 'string', description: 'The canonical name of the window\'s IANA time zone' },
    tags: Strings,
    pauseAllChecks: { type: 'boolean' },
    silenceAlertsTags: Strings,
    silenceAllAlerts: { type: 'boolean' },
    description: { type: ['string', 'null'] },
    statusPageVisibility: {
      type: 'object',
      required: VISIBILITY_KEYS,
      properties: {
        enabled: { type: 'boolean' },
        severity: { type: ['string', 'null'], enum: [...INCIDENT_SEVERITIES, null] },
        affectAllServices: { type: 'boolean' },
        notifyOnStart: { type: 'boolean' },
        notifyOnEnd: { type: 'boolean' },
        suppressAutoIncidents: { type: 'boolean' },
        reminderMinutesBefore: { type: 'array', items: { type: 'integer' } },
        autoStart: { type: 'boolean' },
        autoEnd: { type: 'boolean' },
        showAffectedServices: { type: 'boolean' },
        statusPageIds: Uuids,
        serviceIds: Uuids,
      },
    },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** One occurrence of a window. */
export const Maintenance = {
  $id: 'Maintenance',
  type: 'object',
  description: 'One occurrence of a maintenance window, with its own status, updates and dates',
  required: ['id', 'maintenanceWindowId', 'occurrence', 'startsAt', 'endsAt', 'status', 'dateAdjusted', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    maintenanceWindowId: { type: 'integer' },
    occurrence: { type: 'integer', description: 'Its number in the window\'s series, 0 for the window\'s first' },
    startsAt: DateTime,
    endsAt: DateTime,
    status: Status,
    dateAdjusted: { type: 'boolean', description: 'Its dates were set by hand: a window update no longer moves it' },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** A check and its maintenance (Lookout's own: what a console shows on a check). */
export const CheckMaintenanceState = {
  $id: 'CheckMaintenanceState',
  type: 'object',
  description: 'A check and its maintenance: of the windows covering the check, one in progress, else the next one scheduled; null when none',
  required: ['checkId', 'maintenance'],
  properties: {
    checkId: { type: 'string', format: 'uuid' },
    maintenance: {
      anyOf: [{ type: 'null' }, {
        type: 'object',
        required: ['state', 'maintenanceWindowId', 'maintenanceWindowName', 'maintenanceId', 'startsAt', 'endsAt', 'paused'],
        properties: {
          state: { type: 'string', enum: ['IN_PROGRESS', 'SCHEDULED'], description: 'IN_PROGRESS: going on now (the one ending last); SCHEDULED: the soonest to come' },
          maintenanceWindowId: { type: 'integer' },
          maintenanceWindowName: { type: 'string' },
          maintenanceId: { type: 'string', format: 'uuid' },
          startsAt: DateTime,
          endsAt: DateTime,
          paused: { type: 'boolean', description: 'The check does not run during it; otherwise only its alerts are silenced' },
        },
      }],
    },
  },
};

/** An update of a maintenance (service-api.md "Maintenance window update"). */
export const MaintenanceWindowUpdate = {
  $id: 'MaintenanceWindowUpdate',
  type: 'object',
  description: 'An update of one maintenance: the status it set, and what it changed',
  required: [
    'id', 'maintenanceWindowId', 'maintenanceId', 'status', 'description', 'notifySubscribers', 'previousStatus',
    'previousStartsAt', 'previousEndsAt', 'dateAdjustments', 'automatic', 'created_at', 'updated_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    maintenanceWindowId: { type: 'integer' },
    maintenanceId: { type: 'string', format: 'uuid' },
    status: Status,
    description: { type: 'string' },
    notifySubscribers: { type: 'boolean' },
    previousStatus: { type: ['string', 'null'], enum: [...MAINTENANCE_STATUSES, null], description: 'The maintenance\'s status before this update' },
    previousStartsAt: { ...NullableDateTime, description: 'The start before this update moved it; null when it did not' },
    previousEndsAt: { ...NullableDateTime, description: 'The end before this update moved it; null when it did not' },
    dateAdjustments: {
      type: ['object', 'null'],
      description: 'The dates this update set; null when it kept them',
      required: ['startsAt', 'endsAt'],
      properties: { startsAt: DateTime, endsAt: DateTime },
    },
    automatic: { type: 'boolean', description: 'Written by the maintenance clock (auto start or auto end), not by a caller' },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** Schemas of this file registered as named components, in dependency order. */
export const MAINTENANCE_WINDOW_VIEW_SCHEMAS = [MaintenanceWindow, Maintenance, MaintenanceWindowUpdate, CheckMaintenanceState];

/** Offset lists of this file, as `<name>List` components. */
export const MAINTENANCE_WINDOW_LISTS = [
  { $id: 'MaintenanceWindowList', type: 'array', items: ref('MaintenanceWindow'), description: 'Maintenance windows by id; offset pagination, the total in Content-Range' },
  { $id: 'MaintenanceList', type: 'array', items: ref('Maintenance'), description: 'Maintenances of a window by start; offset pagination, the total in Content-Range' },
  { $id: 'CheckMaintenanceStateList', type: 'array', items: ref('CheckMaintenanceState'), description: 'The checks asked for, in that order, each once; ids of no check of the account are left out' },
  { $id: 'MaintenanceWindowUpdateList', type: 'array', items: ref('MaintenanceWindowUpdate'), description: 'Updates of a maintenance, newest first; offset pagination, the total in Content-Range' },
];
