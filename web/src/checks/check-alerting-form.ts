/**
 * The check form's schedule, retry, alert and channel settings: what the form holds (text as typed),
 * the mutation input they make, and a stored check's values as the form shows them.
 */

/** Minute frequencies every scheduled type takes; mirrors src/domain/catalog.ts (a test holds them together). */
export const MINUTE_FREQUENCIES = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440] as const;
/** Sub-minute frequencies (frequency 0, every frequencyOffset seconds) of the types that take them. */
export const SUB_MINUTE_OFFSETS = [10, 20, 30] as const;
/** The form types that run more often than every minute. */
export const SUB_MINUTE_TYPES: readonly string[] = ['API', 'TCP', 'DNS'];

/** A frequency choice: its value in the form's select and its words. */
export interface FrequencyOption {
  value: string;
  label: string;
}

/** `s10` for every 10 seconds, `5` for every 5 minutes: the select's value of a stored frequency. */
export function frequencyValue(frequency: number, frequencyOffset?: number | null): string {
  return frequency === 0 ? `s${frequencyOffset ?? 10}` : String(frequency);
}

function frequencyLabel(value: string): string {
  if (value.startsWith('s')) return `Every ${value.slice(1)} seconds`;
  const minutes = Number(value);
  if (minutes === 1) return 'Every minute';
  if (minutes < 60 || minutes % 60 !== 0) return `Every ${minutes} minutes`;
  const hours = minutes / 60;
  return hours === 1 ? 'Every hour' : hours === 24 ? 'Every day' : `Every ${hours} hours`;
}

/**
 * The frequencies a type may take, seconds first; a `current` value outside them (deployed from code)
 * is offered too, so an edit never changes it unasked.
 */
export function frequencyOptions(checkType: string, current?: string): FrequencyOption[] {
  const values = [
    ...(SUB_MINUTE_TYPES.includes(checkType) ? SUB_MINUTE_OFFSETS.map((s) => `s${s}`) : []),
    ...MINUTE_FREQUENCIES.map(String),
  ];
  if (current && !values.includes(current)) values.push(current);
  return values.map((value) => ({ value, label: frequencyLabel(value) }));
}

/**
 * The frequency and frequencyOffset of a select value: a sub-minute one sets the offset (seconds);
 * a minute one keeps a stored spread offset, but clears the seconds of a check that ran sub-minute.
 */
export function frequencyInput(value: string, storedFrequency?: number): { frequency: number | null; frequencyOffset?: number | null } {
  if (value.startsWith('s')) return { frequency: 0, frequencyOffset: Number(value.slice(1)) };
  const frequency = Number(value);
  if (!value || !Number.isInteger(frequency)) return { frequency: null };
  return storedFrequency === 0 ? { frequency, frequencyOffset: null } : { frequency };
}

export const RETRY_TYPES = ['FIXED', 'LINEAR', 'EXPONENTIAL', 'SINGLE_RETRY'] as const;
export type RetryType = (typeof RETRY_TYPES)[number];
/** How the retry picker names each strategy ('' is none). */
export const RETRY_TYPE_LABELS: Record<RetryType | '', string> = {
  '': 'No retries', FIXED: 'Fixed wait', LINEAR: 'Linear back-off', EXPONENTIAL: 'Exponential back-off', SINGLE_RETRY: 'One retry',
};
/** Minutes failing before a time-based alert (the contract's enum). */
export const MINUTES_FAILING_THRESHOLDS = [5, 10, 15, 30] as const;
/** Reminders at most (the contract's enum; 100000 is unlimited). */
export const REMINDER_AMOUNTS = [0, 1, 2, 3, 4, 5, 100000] as const;
export const reminderAmountLabel = (amount: number) => (amount === 0 ? 'No reminders' : amount >= 100000 ? 'Until it recovers' : `${amount} at most`);

/** A channel subscription as the form holds it (REST channel id). */
export interface SubscriptionRow {
  alertChannelId: number;
  activated: boolean;
}

/** What the form holds of retries, alerting and channels. */
export interface CheckAlertingValues {
  retryType: RetryType | '';
  baseBackoffSeconds: string;
  maxRetries: string;
  maxDurationSeconds: string;
  sameRegion: boolean;
  useGlobalAlertSettings: boolean;
  escalationType: 'RUN_BASED' | 'TIME_BASED';
  failedRunThreshold: string;
  minutesFailingThreshold: string;
  reminderAmount: string;
  reminderInterval: string;
  /** The channels the check is subscribed to; null until the form knows them (a new check takes every channel). */
  subscriptions: SubscriptionRow[] | null;
}

/** A new check's settings: no retries, the account's alert settings, every channel (as REST's autoAssignAlerts does). */
export const EMPTY_ALERTING: CheckAlertingValues = {
  retryType: '', baseBackoffSeconds: '60', maxRetries: '2', maxDurationSeconds: '600', sameRegion: true,
  useGlobalAlertSettings: true, escalationType: 'RUN_BASED', failedRunThreshold: '1', minutesFailingThreshold: '5', reminderAmount: '0', reminderInterval: '5',
  subscriptions: null,
};

/** The fields these settings show, by the REST paths userErrors name. */
export const ALERTING_FIELDS = [
  'retryStrategy', 'retryStrategy.type', 'retryStrategy.baseBackoffSeconds', 'retryStrategy.maxRetries', 'retryStrategy.maxDurationSeconds',
  'useGlobalAlertSettings', 'alertSettings', 'alertSettings.escalationType', 'alertSettings.runBasedEscalation.failedRunThreshold',
  'alertSettings.timeBasedEscalation.minutesFailingThreshold', 'alertSettings.reminders.amount', 'alertSettings.reminders.interval',
  'alertChannelSubscriptions',
] as const;

/** A number as typed: undefined when blank, null when not a number (the API then names the field). */
function numberField(text: string, integer = true): number | null | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) && (!integer || Number.isInteger(n)) ? n : null;
}

/** The retry strategy sent: null for none; a single retry carries only its wait and region. */
export function retryStrategyInput(values: CheckAlertingValues) {
  if (!values.retryType) return null;
  const base = { type: values.retryType, baseBackoffSeconds: numberField(values.baseBackoffSeconds, false), sameRegion: values.sameRegion };
  if (values.retryType === 'SINGLE_RETRY') return base;
  return { ...base, maxRetries: numberField(values.maxRetries), maxDurationSeconds: numberField(values.maxDurationSeconds) };
}

/** The alert settings sent: the escalation chosen with its threshold, and reminders. */
export function alertSettingsInput(values: CheckAlertingValues) {
  return {
    escalationType: values.escalationType,
    ...(values.escalationType === 'RUN_BASED'
      ? { runBasedEscalation: { failedRunThreshold: numberField(values.failedRunThreshold) } }
      : { timeBasedEscalation: { minutesFailingThreshold: numberField(values.minutesFailingThreshold) } }),
    reminders: { amount: numberField(values.reminderAmount), interval: numberField(values.reminderInterval) },
  };
}

/**
 * The input fields of these settings. The check's own alert settings are sent only when it does not
 * use the account's (which keeps stored ones untouched otherwise); subscriptions are sent once known.
 */
export function checkAlertingInput(values: CheckAlertingValues, options: { retries: boolean }): Record<string, unknown> {
  return {
    ...(options.retries ? { retryStrategy: retryStrategyInput(values) } : {}),
    useGlobalAlertSettings: values.useGlobalAlertSettings,
    ...(values.useGlobalAlertSettings ? {} : { alertSettings: alertSettingsInput(values) }),
    ...(values.subscriptions ? { alertChannelSubscriptions: values.subscriptions.map((s) => ({ alertChannel: String(s.alertChannelId), activated: s.activated })) } : {}),
  };
}

/** A stored check's retry, alert and channel settings, as the check query reads them. */
export interface StoredAlerting {
  retryStrategy?: { type: string; baseBackoffSeconds?: number | null; maxRetries?: number | null; maxDurationSeconds?: number | null; sameRegion?: boolean | null } | null;
  useGlobalAlertSettings?: boolean | null;
  alertSettings?: {
    escalationType?: string | null;
    runBasedEscalation?: { failedRunThreshold: number } | null;
    timeBasedEscalation?: { minutesFailingThreshold: number } | null;
    reminders?: { amount: number; interval: number } | null;
  } | null;
  alertChannelSubscriptions?: readonly SubscriptionRow[] | null;
}

const text = (value: number | null | undefined, fallback: string) => (value == null ? fallback : String(value));

/** A stored check's settings as the form shows them. */
export function alertingFormValues(check: StoredAlerting): CheckAlertingValues {
  const retry = check.retryStrategy;
  const settings = check.alertSettings;
  return {
    retryType: retry && (RETRY_TYPES as readonly string[]).includes(retry.type) ? retry.type as RetryType : '',
    baseBackoffSeconds: text(retry?.baseBackoffSeconds, EMPTY_ALERTING.baseBackoffSeconds),
    maxRetries: text(retry?.maxRetries, EMPTY_ALERTING.maxRetries),
    maxDurationSeconds: text(retry?.maxDurationSeconds, EMPTY_ALERTING.maxDurationSeconds),
    sameRegion: retry?.sameRegion ?? true,
    useGlobalAlertSettings: check.useGlobalAlertSettings ?? true,
    escalationType: settings?.escalationType === 'TIME_BASED' ? 'TIME_BASED' : 'RUN_BASED',
    failedRunThreshold: text(settings?.runBasedEscalation?.failedRunThreshold, EMPTY_ALERTING.failedRunThreshold),
    minutesFailingThreshold: text(settings?.timeBasedEscalation?.minutesFailingThreshold, EMPTY_ALERTING.minutesFailingThreshold),
    reminderAmount: text(settings?.reminders?.amount, EMPTY_ALERTING.reminderAmount),
    reminderInterval: text(settings?.reminders?.interval, EMPTY_ALERTING.reminderInterval),
    subscriptions: (check.alertChannelSubscriptions ?? []).map((s) => ({ alertChannelId: s.alertChannelId, activated: s.activated })),
  };
}
