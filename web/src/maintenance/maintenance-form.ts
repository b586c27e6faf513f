import { parseTags } from '../checks/api-check-form.js';

export type RepeatUnit = 'DAY' | 'WEEK' | 'MONTH';

/** What the maintenance window form holds: text as typed; dates as `YYYY-MM-DDTHH:mm` in UTC. */
export interface MaintenanceFormValues {
  name: string;
  startsAt: string;
  endsAt: string;
  timezone: string;
  repeatUnit: RepeatUnit | '';
  repeatInterval: string;
  tags: string;
  description: string;
  pauseAllChecks: boolean;
  silenceAllAlerts: boolean;
}

export const MAINTENANCE_FORM_FIELDS = ['name', 'startsAt', 'endsAt', 'timezone', 'repeatUnit', 'repeatInterval', 'repeatEndsAt', 'tags', 'description', 'pauseAllChecks', 'silenceAllAlerts', 'silenceAlertsTags', 'statusPageVisibility'] as const;

export const EMPTY_MAINTENANCE_FORM: MaintenanceFormValues = {
  name: '', startsAt: '', endsAt: '', timezone: 'UTC', repeatUnit: '', repeatInterval: '1', tags: '', description: '', pauseAllChecks: false, silenceAllAlerts: false,
};

/** A `datetime-local` value read as UTC, as an ISO instant; blank or unreadable: null (for the API to name). */
export function utcInstant(local: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An ISO instant as a `datetime-local` value in UTC. */
export function utcLocal(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 16);
}

/** The MaintenanceWindowInput of the form; a one-off window sends repeatUnit null (clearing a stored series on edit). */
export function maintenanceInput(values: MaintenanceFormValues) {
  const interval = values.repeatInterval.trim();
  const n = Number(interval);
  return {
    name: values.name.trim(),
    startsAt: utcInstant(values.startsAt),
    endsAt: utcInstant(values.endsAt),
    timezone: values.timezone.trim() || 'UTC',
    repeatUnit: values.repeatUnit || null,
    repeatInterval: values.repeatUnit ? (interval && Number.isInteger(n) ? n : null) : null,
    tags: parseTags(values.tags),
    description: values.description.trim() || null,
    pauseAllChecks: values.pauseAllChecks,
    silenceAllAlerts: values.silenceAllAlerts,
  };
}

/** A stored window's values as the form shows them. */
export function maintenanceFormValues(window: {
  name: string; startsAt: string; endsAt: string; timezone: string; repeatUnit?: RepeatUnit | null; repeatInterval?: number | null;
  tags: readonly string[]; description?: string | null; pauseAllChecks: boolean; silenceAllAlerts: boolean;
}): MaintenanceFormValues {
  return {
    name: window.name, startsAt: utcLocal(window.startsAt), endsAt: utcLocal(window.endsAt), timezone: window.timezone,
    repeatUnit: window.repeatUnit ?? '', repeatInterval: String(window.repeatInterval ?? 1), tags: window.tags.join(', '),
    description: window.description ?? '', pauseAllChecks: window.pauseAllChecks, silenceAllAlerts: window.silenceAllAlerts,
  };
}

/** How a window repeats, in words. */
export function describeRepeat(window: { repeatUnit?: RepeatUnit | null; repeatInterval?: number | null }): string {
  if (!window.repeatUnit) return 'once';
  const n = window.repeatInterval ?? 1;
  const unit = window.repeatUnit.toLowerCase();
  return n === 1 ? `every ${unit}` : `every ${n} ${unit}s`;
}
