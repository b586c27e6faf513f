import Type from 'typebox';
import { DATE_OPERATORS } from '../domain/maintenance-date-filters.js';
import { MAX_REPEAT_INTERVAL, MIN_REPEAT_INTERVAL, REPEAT_UNITS } from '../domain/maintenance-occurrences.js';
import { REMINDERS_MAX, REMINDER_MINUTES_MAX, REMINDER_MINUTES_MIN } from '../domain/maintenance-reminders.js';
import { MAINTENANCE_STATUSES } from '../domain/maintenance-status-moves.js';
import { INCIDENT_SEVERITIES } from '../domain/service-state.js';
import { IntId, Nullable } from './common.js';

/** Optional, and null means the same as absent (or, where the service says so, clears). */
const opt = <T extends Type.TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Uuid = Type.String({ format: 'uuid' });

/** Limits of maintenance windows (the API reference where it names one; ours otherwise). */
export const MAINTENANCE_LIMITS = {
  name: 200,
  description: 2000,
  updateDescription: 2000,
  tags: 100,
  tag: 256,
  linkedIds: 100,
  windowsPerPage: 100,
  maintenancesPerPage: 50,
  updatesPerPage: 100,
} as const;

const DateTime = (description: string) => Type.String({ format: 'date-time', maxLength: 64, description });
const TagList = (description: string) => Type.Array(Type.String({ maxLength: MAINTENANCE_LIMITS.tag }), { maxItems: MAINTENANCE_LIMITS.tags, description });

/** The most checks one `GET /v1/check-maintenance` asks about. */
export const MAX_CHECK_MAINTENANCE_IDS = 100;

export const CheckMaintenanceQuery = Type.Object(
  {
    checkId: Type.Array(Uuid, {
      minItems: 1, maxItems: MAX_CHECK_MAINTENANCE_IDS, description: `Check ids, repeated or comma-separated, at most ${MAX_CHECK_MAINTENANCE_IDS}`,
    }),
  },
  { additionalProperties: false },
);

export const WindowParams = Type.Object({ id: IntId }, { additionalProperties: false });
export const MaintenanceParams = Type.Object({ id: IntId, maintenanceId: Uuid }, { additionalProperties: false });
export const MaintenanceUpdateParams = Type.Object({ id: IntId, maintenanceId: Uuid, updateId: Uuid }, { additionalProperties: false });

/**
 * The date constraint parameters of a list, written as the real API's clients write an object in a
 * query string (`startsAt[gte]=…`). They are read by parseDateFilters before validation (which
 * names a bad one `startsAt.gt`); declared here so the document lists them.
 */
function dateConstraintParams(fields: readonly string[], what: string) {
  const params: Record<string, ReturnType<typeof Type.Optional<ReturnType<typeof Type.String>>>> = {};
  for (const field of fields) {
    for (const op of DATE_OPERATORS) {
      params[`${field}[${op}]`] = Type.Optional(Type.String({
        maxLength: 64,
        description: `Only ${what} whose ${field} is ${op === 'gt' ? 'after' : op === 'gte' ? 'at or after' : op === 'lt' ? 'before' : 'at or before'} this `
          + 'ISO 8601 date-time (or date, read as midnight UTC)',
      }));
    }
  }
  return params;
}

const page = Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 }));
const limit = (maximum: number, def: number) => Type.Optional(Type.Integer({ minimum: 1, maximum, default: def }));

/** `GET /v1/maintenance-windows`. */
export const WindowListQuery = Type.Object({
  page,
  limit: limit(MAINTENANCE_LIMITS.windowsPerPage, 10),
  ...dateConstraintParams(['startsAt', 'endsAt'], 'windows'),
}, { additionalProperties: false });

/** `GET /v1/maintenance-windows/{id}/maintenances`. */
export const MaintenanceListQuery = Type.Object({
  page,
  limit: limit(MAINTENANCE_LIMITS.maintenancesPerPage, 10),
  ...dateConstraintParams(['startsAt', 'endsAt'], 'maintenances'),
}, { additionalProperties: false });

/** `GET …/maintenances/{maintenanceId}/updates`. */
export const MaintenanceUpdateListQuery = Type.Object({ page, limit: limit(MAINTENANCE_LIMITS.updatesPerPage, 10) }, { additionalProperties: false });

const visibilityProps = {
  enabled: Type.Boolean({ description: 'Master gate: status page fields take effect only when true (default false)' }),
  severity: Type.Enum([...INCIDENT_SEVERITIES], { description: 'How the page shows the maintenance (default null)' }),
  affectAllServices: Type.Boolean({ description: 'Affects every service (default false); exclusive with a non-empty serviceIds' }),
  notifyOnStart: Type.Boolean({ description: 'The automatic start notifies subscribers (default false)' }),
  notifyOnEnd: Type.Boolean({ description: 'The automatic end notifies subscribers (default false)' }),
  suppressAutoIncidents: Type.Boolean({ description: 'No automatic incidents on the affected services while it runs (default false)' }),
  reminderMinutesBefore: Type.Array(Type.Integer({ minimum: REMINDER_MINUTES_MIN, maximum: REMINDER_MINUTES_MAX }), {
    maxItems: REMINDERS_MAX, description: `Reminders to subscribers, minutes before each start (at most ${REMINDERS_MAX}, each ${REMINDER_MINUTES_MIN}–${REMINDER_MINUTES_MAX})`,
  }),
  autoStart: Type.Boolean({ description: 'Each maintenance moves to IN_PROGRESS at its start (default true; hidden windows always do)' }),
  autoEnd: Type.Boolean({ description: 'Each maintenance moves to COMPLETED at its end (default true; hidden windows always do)' }),
  showAffectedServices: Type.Boolean({ description: 'Show the affected services; when false the window is not excluded from their uptime (default true)' }),
  statusPageIds: Type.Array(Uuid, { maxItems: MAINTENANCE_LIMITS.linkedIds, description: 'Status pages that show the window' }),
  serviceIds: Type.Array(Uuid, { maxItems: MAINTENANCE_LIMITS.linkedIds, description: "Affected status page services (the account's own)" }),
};

/** `statusPageVisibility`: every key may be left out (create: its default; update: as stored). */
const StatusPageVisibility = Type.Object({
  enabled: opt(visibilityProps.enabled),
  severity: opt(visibilityProps.severity),
  affectAllServices: opt(visibilityProps.affectAllServices),
  notifyOnStart: opt(visibilityProps.notifyOnStart),
  notifyOnEnd: opt(visibilityProps.notifyOnEnd),
  suppressAutoIncidents: opt(visibilityProps.suppressAutoIncidents),
  reminderMinutesBefore: opt(visibilityProps.reminderMinutesBefore),
  autoStart: opt(visibilityProps.autoStart),
  autoEnd: opt(visibilityProps.autoEnd),
  showAffectedServices: opt(visibilityProps.showAffectedServices),
  statusPageIds: opt(visibilityProps.statusPageIds),
  serviceIds: opt(visibilityProps.serviceIds),
}, { additionalProperties: false, description: 'How status pages show the window' });

const windowProps = {
  name: Type.String({ minLength: 1, maxLength: MAINTENANCE_LIMITS.name, pattern: '\\S' }),
  startsAt: DateTime('The first maintenance\'s start'),
  endsAt: DateTime('The first maintenance\'s end; every maintenance lasts endsAt − startsAt'),
  repeatUnit: Type.Enum([...REPEAT_UNITS], { description: 'Absent or null: a one-off window' }),
  repeatInterval: Type.Integer({ minimum: MIN_REPEAT_INTERVAL, maximum: MAX_REPEAT_INTERVAL, description: 'Every how many units (null: 1)' }),
  repeatEndsAt: Type.String({
    maxLength: 64,
    description: 'Inclusive calendar date in the window\'s time zone (YYYY-MM-DD preferred; a date-time counts by its local date). Absent: repeats with no end',
  }),
  timezone: Type.String({ maxLength: 64, description: 'Named IANA time zone ("Europe/Berlin"); UTC offsets such as "+05:00" are refused. On create, absent or null: UTC' }),
  tags: TagList('Checks with any of these tags are affected'),
  pauseAllChecks: Type.Boolean({ description: 'Pause the affected checks while it runs (default false)' }),
  silenceAlertsTags: TagList('Alerts of checks with any of these tags are silenced while it runs'),
  silenceAllAlerts: Type.Boolean({ description: 'Silence every alert of the account while it runs (default false)' }),
  description: Type.String({ maxLength: MAINTENANCE_LIMITS.description }),
};

/** The fields a window write may leave out, on create and update alike. */
const optionalWindowProps = {
  repeatUnit: opt(windowProps.repeatUnit),
  repeatInterval: opt(windowProps.repeatInterval),
  repeatEndsAt: opt(windowProps.repeatEndsAt),
  timezone: opt(windowProps.timezone),
  tags: opt(windowProps.tags),
  pauseAllChecks: opt(windowProps.pauseAllChecks),
  silenceAlertsTags: opt(windowProps.silenceAlertsTags),
  silenceAllAlerts: opt(windowProps.silenceAllAlerts),
  description: opt(windowProps.description),
  statusPageVisibility: opt(StatusPageVisibility),
};

/** Body of `POST /v1/maintenance-windows` (`MaintenanceWindowCreate`). */
export const MaintenanceWindowCreate = Type.Object({
  name: windowProps.name,
  startsAt: windowProps.startsAt,
  endsAt: windowProps.endsAt,
  ...optionalWindowProps,
}, { additionalProperties: false });

/** Body of `PUT /v1/maintenance-windows/{id}`: only the fields sent change (see the service for null). */
export const MaintenanceWindowPut = Type.Object({
  name: opt(windowProps.name),
  startsAt: opt(windowProps.startsAt),
  endsAt: opt(windowProps.endsAt),
  ...optionalWindowProps,
}, { additionalProperties: false });

/** Body of `PATCH …/maintenances/{maintenanceId}`: new dates for this one maintenance. */
export const MaintenancePatch = Type.Object({
  startsAt: opt(DateTime('New start of this maintenance')),
  endsAt: opt(DateTime('New end of this maintenance')),
}, { additionalProperties: false });

const Status = Type.Enum([...MAINTENANCE_STATUSES]);
const UpdateDescription = Type.String({ minLength: 1, maxLength: MAINTENANCE_LIMITS.updateDescription });
const Notify = Type.Boolean({ description: 'Notify the status page subscribers (default false); only when first posted, never on an edit' });

/** Body of `POST …/maintenances/{maintenanceId}/updates`. */
export const MaintenanceUpdateCreate = Type.Object({
  status: Status,
  description: UpdateDescription,
  notifySubscribers: opt(Notify),
  startsAt: opt(DateTime('Date adjustment: the maintenance\'s new start')),
  endsAt: opt(DateTime('Date adjustment: the maintenance\'s new end')),
}, { additionalProperties: false });

/** Body of `PUT …/updates/{updateId}`. */
export const MaintenanceUpdatePut = Type.Object({
  status: opt(Type.Enum([...MAINTENANCE_STATUSES], { description: 'Absent or null: the stored status is kept' })),
  description: UpdateDescription,
  notifySubscribers: opt(Notify),
}, { additionalProperties: false });

export type MaintenanceWindowCreateBody = Type.Static<typeof MaintenanceWindowCreate>;
export type MaintenanceWindowPutBody = Type.Static<typeof MaintenanceWindowPut>;
export type MaintenancePatchBody = Type.Static<typeof MaintenancePatch>;
export type MaintenanceUpdateCreateBody = Type.Static<typeof MaintenanceUpdateCreate>;
export type MaintenanceUpdatePutBody = Type.Static<typeof MaintenanceUpdatePut>;
