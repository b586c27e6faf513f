import { apiRequestFormValues, apiRequestInput, parseTags, sentRowIndexes, type AssertionLike, type KeyValueRow, type StoredApiRequest } from './api-check-form.js';
import { NEW_API_ASSERTION, type AssertionRow } from './assertion-rows.js';
import { fieldErrors, type FieldErrors, type UserErrorLike } from '../shared/user-errors.js';
import {
  ALERTING_FIELDS, alertingFormValues, checkAlertingInput, EMPTY_ALERTING, frequencyInput, frequencyValue, type CheckAlertingValues, type StoredAlerting,
} from './check-alerting-form.js';

/** The check types the console creates and edits (Playwright and agentic checks are deployed from code). */
export const FORM_CHECK_TYPES = ['API', 'URL', 'TCP', 'DNS', 'ICMP', 'HEARTBEAT', 'BROWSER', 'MULTI_STEP'] as const;
export type FormCheckType = (typeof FORM_CHECK_TYPES)[number];

/** How each type is named in the type picker. */
export const CHECK_TYPE_LABELS: Record<FormCheckType, string> = {
  API: 'API (HTTP request)', URL: 'URL (uptime)', TCP: 'TCP', DNS: 'DNS', ICMP: 'ICMP (ping)', HEARTBEAT: 'Heartbeat', BROWSER: 'Browser', MULTI_STEP: 'Multi-step',
};

export function isFormCheckType(type: string): type is FormCheckType {
  return (FORM_CHECK_TYPES as readonly string[]).includes(type);
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export const IP_FAMILIES = ['IPv4', 'IPv6'] as const;
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SOA', 'NS'] as const;
export const DNS_PROTOCOLS = ['UDP', 'TCP'] as const;
export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;

/** What the check form holds, for every type: text as typed, so a half-typed value is never lost. */
export interface CheckFormValues {
  checkType: FormCheckType;
  name: string;
  activated: boolean;
  /** The frequency select's value: minutes (`10`), or seconds of a sub-minute check (`s10`). */
  frequency: string;
  locations: string[];
  tags: string;
  description: string;
  /** The group's global id; '' for none. */
  group: string;
  degradedResponseTime: string;
  maxResponseTime: string;
  // API and URL
  method: string;
  url: string;
  headers: KeyValueRow[];
  queryParameters: KeyValueRow[];
  bodyType: string;
  body: string;
  assertions: AssertionRow[];
  followRedirects: boolean;
  skipSSL: boolean;
  // TCP, DNS and ICMP
  hostname: string;
  port: string;
  data: string;
  ipFamily: string;
  query: string;
  recordType: string;
  nameServer: string;
  protocol: string;
  pingCount: string;
  // Heartbeat
  period: string;
  periodUnit: string;
  grace: string;
  graceUnit: string;
  // Browser and multi-step
  script: string;
  /** Retries, alert settings and channel subscriptions (check-alerting-form.ts). */
  alerting: CheckAlertingValues;
}

export const EMPTY_CHECK_FORM: CheckFormValues = {
  checkType: 'API', name: '', activated: true, frequency: '10', locations: [], tags: '', description: '', group: '',
  degradedResponseTime: '', maxResponseTime: '',
  method: 'GET', url: '', headers: [], queryParameters: [], bodyType: 'NONE', body: '', assertions: [NEW_API_ASSERTION], followRedirects: true, skipSSL: false,
  hostname: '', port: '', data: '', ipFamily: 'IPv4', query: '', recordType: 'A', nameServer: '', protocol: 'UDP', pingCount: '',
  period: '1', periodUnit: 'hours', grace: '5', graceUnit: 'minutes',
  script: '',
  alerting: EMPTY_ALERTING,
};

const COMMON_FIELDS = ['name', 'activated', 'frequency', 'locations', 'tags', 'description', 'group', ...ALERTING_FIELDS] as const;
const RESPONSE_TIMES = ['degradedResponseTime', 'maxResponseTime'] as const;

/** The fields each type's form shows, by the REST paths userErrors name (`request.port`), so each error lands on its field. */
export const CHECK_FORM_FIELDS: Record<FormCheckType, readonly string[]> = {
  API: [
    ...COMMON_FIELDS, ...RESPONSE_TIMES, 'request.method', 'request.url', 'request.headers', 'request.queryParameters', 'request.bodyType', 'request.body', 'request.assertions',
  ],
  URL: [...COMMON_FIELDS, ...RESPONSE_TIMES, 'request.url', 'request.followRedirects', 'request.skipSSL', 'request.assertions'],
  TCP: [...COMMON_FIELDS, ...RESPONSE_TIMES, 'request.hostname', 'request.port', 'request.data', 'request.ipFamily', 'request.assertions'],
  DNS: [...COMMON_FIELDS, ...RESPONSE_TIMES, 'request.query', 'request.recordType', 'request.nameServer', 'request.port', 'request.protocol', 'request.assertions'],
  ICMP: [...COMMON_FIELDS, ...RESPONSE_TIMES, 'request.hostname', 'request.ipFamily', 'request.pingCount', 'request.assertions'],
  HEARTBEAT: ['name', 'activated', 'tags', 'description', 'group', ...ALERTING_FIELDS.filter((f) => !f.startsWith('retryStrategy')), 'heartbeat.period', 'heartbeat.periodUnit', 'heartbeat.grace', 'heartbeat.graceUnit'],
  BROWSER: [...COMMON_FIELDS, 'script'],
  MULTI_STEP: [...COMMON_FIELDS, 'script'],
};

function integer(text: string): number | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const n = Number(trimmed);
  // A non-integer is sent as it is typed would be wrong for an Int; NaN marks it for the caller.
  return Number.isInteger(n) ? n : Number.NaN;
}

/** A number field's value for the input: undefined when blank; a non-number is sent as null so the API names the field. */
function intField(text: string): number | null | undefined {
  const n = integer(text);
  return n === undefined ? undefined : Number.isNaN(n) ? null : n;
}

function optionalText(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed ? trimmed : undefined;
}

/** The assertion inputs of a stored check's assertions (kept as they are: the form edits only an API check's). */
function assertionInputs(assertions: readonly AssertionLike[]) {
  return assertions.map((a) => ({ source: a.source, comparison: a.comparison, property: a.property ?? undefined, target: a.target ?? undefined, regex: a.regex ?? undefined }));
}

/** The create/update mutation of a check type (`createTcpCheck`, `updateTcpCheck`). */
export function mutationName(kind: 'create' | 'update', type: FormCheckType): string {
  const name = type === 'MULTI_STEP' ? 'MultiStep' : type === 'HEARTBEAT' ? 'Heartbeat' : type === 'BROWSER' ? 'Browser' : type.charAt(0) + type.slice(1).toLowerCase();
  return `${kind}${name}Check`;
}

/**
 * The input of the type's create/update mutation from the form's values. The API judges validity
 * (its userErrors come back to the fields); blank optional numbers are left out so the API's defaults
 * apply. `editing` sends a cleared group as null (which removes the check from its group). An API
 * check's assertions are the form's rows; other types keep their `existingAssertions` as they are.
 */
export function checkInput(
  values: CheckFormValues, options: { editing?: boolean; existingAssertions?: readonly AssertionLike[]; storedFrequency?: number } = {},
): Record<string, unknown> {
  const { editing = false, existingAssertions = [], storedFrequency } = options;
  const group = values.group ? values.group : editing ? null : undefined;
  const common = {
    name: values.name.trim(),
    activated: values.activated,
    tags: parseTags(values.tags),
    description: editing ? values.description.trim() || null : optionalText(values.description),
    group,
    ...checkAlertingInput(values.alerting, { retries: values.checkType !== 'HEARTBEAT' }),
  };
  const scheduled = { ...common, ...frequencyInput(values.frequency, storedFrequency), locations: values.locations };
  const times = { degradedResponseTime: intField(values.degradedResponseTime), maxResponseTime: intField(values.maxResponseTime) };
  const assertions = assertionInputs(existingAssertions);
  switch (values.checkType) {
    case 'API':
      return { ...scheduled, ...times, request: apiRequestInput(values) };
    case 'URL':
      return { ...scheduled, ...times, request: { url: values.url.trim(), followRedirects: values.followRedirects, skipSSL: values.skipSSL, assertions } };
    case 'TCP':
      return { ...scheduled, ...times, request: { hostname: values.hostname.trim(), port: intField(values.port), data: values.data || undefined, ipFamily: values.ipFamily, assertions } };
    case 'DNS':
      return {
        ...scheduled, ...times,
        request: { query: values.query.trim(), recordType: values.recordType, nameServer: optionalText(values.nameServer), port: intField(values.port), protocol: values.protocol, assertions },
      };
    case 'ICMP':
      return { ...scheduled, ...times, request: { hostname: values.hostname.trim(), ipFamily: values.ipFamily, pingCount: intField(values.pingCount), assertions } };
    case 'HEARTBEAT':
      return { ...common, heartbeat: { period: intField(values.period), periodUnit: values.periodUnit, grace: intField(values.grace), graceUnit: values.graceUnit } };
    case 'BROWSER':
    case 'MULTI_STEP':
      return { ...scheduled, script: values.script };
  }
}

/** A stored check as the form query reads it (each type's request under its own alias). */
export interface StoredCheck extends StoredAlerting {
  checkType: string;
  name: string;
  activated: boolean;
  frequency: number;
  frequencyOffset?: number | null;
  locations: readonly string[];
  tags: readonly string[];
  description?: string | null;
  group?: { id: string } | null;
  degradedResponseTime?: number | null;
  maxResponseTime?: number | null;
  apiRequest?: StoredApiRequest;
  urlRequest?: { url: string; followRedirects: boolean; skipSSL: boolean; assertions: readonly AssertionLike[] };
  tcpRequest?: { hostname: string; port: number; data?: string | null; ipFamily: string; assertions: readonly AssertionLike[] };
  dnsRequest?: { query: string; recordType: string; nameServer?: string | null; port?: number | null; protocol: string; assertions: readonly AssertionLike[] };
  icmpRequest?: { hostname: string; ipFamily: string; pingCount: number; assertions: readonly AssertionLike[] };
  heartbeat?: { period: number; periodUnit: string; grace: number; graceUnit: string };
  script?: string | null;
}

const text = (value: number | string | null | undefined) => (value == null ? '' : String(value));

/** A stored check's values as the form shows them; null for a type the form does not edit. */
export function checkFormValues(check: StoredCheck): CheckFormValues | null {
  if (!isFormCheckType(check.checkType)) return null;
  const values: CheckFormValues = {
    ...EMPTY_CHECK_FORM,
    checkType: check.checkType, name: check.name, activated: check.activated, frequency: frequencyValue(check.frequency, check.frequencyOffset), locations: [...check.locations],
    tags: check.tags.join(', '), description: check.description ?? '', group: check.group?.id ?? '',
    degradedResponseTime: text(check.degradedResponseTime), maxResponseTime: text(check.maxResponseTime),
    assertions: [],
    alerting: alertingFormValues(check),
  };
  if (check.apiRequest) Object.assign(values, apiRequestFormValues(check.apiRequest));
  if (check.urlRequest) Object.assign(values, { url: check.urlRequest.url, followRedirects: check.urlRequest.followRedirects, skipSSL: check.urlRequest.skipSSL });
  if (check.tcpRequest) Object.assign(values, { hostname: check.tcpRequest.hostname, port: text(check.tcpRequest.port), data: check.tcpRequest.data ?? '', ipFamily: check.tcpRequest.ipFamily });
  if (check.dnsRequest) {
    Object.assign(values, {
      query: check.dnsRequest.query, recordType: check.dnsRequest.recordType, nameServer: check.dnsRequest.nameServer ?? '', port: text(check.dnsRequest.port), protocol: check.dnsRequest.protocol,
    });
  }
  if (check.icmpRequest) Object.assign(values, { hostname: check.icmpRequest.hostname, ipFamily: check.icmpRequest.ipFamily, pingCount: text(check.icmpRequest.pingCount) });
  if (check.heartbeat) {
    Object.assign(values, { period: text(check.heartbeat.period), periodUnit: check.heartbeat.periodUnit, grace: text(check.heartbeat.grace), graceUnit: check.heartbeat.graceUnit });
  }
  if (check.checkType === 'BROWSER' || check.checkType === 'MULTI_STEP') values.script = check.script ?? '';
  return values;
}

/** The stored assertions the form keeps when saving (those of the check's request). */
export function storedAssertions(check: StoredCheck): readonly AssertionLike[] {
  return (check.apiRequest ?? check.urlRequest ?? check.tcpRequest ?? check.dnsRequest ?? check.icmpRequest)?.assertions ?? [];
}

/** The controls of each row of an API check's headers, parameters and assertions, by REST path (`request.assertions.1.target`). */
export function rowFields(values: Pick<CheckFormValues, 'headers' | 'queryParameters' | 'assertions'>): string[] {
  const keyValues = (list: 'headers' | 'queryParameters') => values[list].flatMap((_, i) => [`request.${list}.${i}.key`, `request.${list}.${i}.value`]);
  const assertions = values.assertions.flatMap((_, i) => ['source', 'property', 'comparison', 'target'].map((part) => `request.assertions.${i}.${part}`));
  return [...keyValues('headers'), ...keyValues('queryParameters'), ...assertions];
}

/** The form's fields: the type's, and for an API check each row's controls after the URL (the first with an error takes the focus). */
export function checkFormFields(values: CheckFormValues): readonly string[] {
  const fields = CHECK_FORM_FIELDS[values.checkType];
  if (values.checkType !== 'API') return fields;
  const at = fields.indexOf('request.headers');
  return [...fields.slice(0, at), ...rowFields(values), ...fields.slice(at)];
}

/** An error path of a sent header or parameter as the path of its form row (blank rows are not sent). */
function rowPath(path: string, values: CheckFormValues): string {
  const match = /^request\.(headers|queryParameters)\.(\d+)(\..*)?$/.exec(path);
  if (!match) return path;
  const [, list, sent, rest = ''] = match as unknown as [string, 'headers' | 'queryParameters', string, string | undefined];
  const row = sentRowIndexes(values[list])[Number(sent)];
  return row === undefined ? path : `request.${list}.${row}${rest}`;
}

/**
 * A check mutation's userErrors on the form's fields (`groupId`, the REST name of the group, shows on
 * the group field). With the form's values, an API check's row errors show on their row's control.
 */
export function checkFormErrors(errors: readonly UserErrorLike[], type: FormCheckType, values?: CheckFormValues): FieldErrors {
  const renamed = errors.map((e) => (e.field === 'groupId' || e.field?.startsWith('groupId.') ? { ...e, field: `group${e.field.slice('groupId'.length)}` } : e))
    // The frequency select sets frequencyOffset too: its problems show on the select.
    .map((e) => (e.field === 'frequencyOffset' ? { ...e, field: 'frequency' } : e));
  if (type !== 'API' || !values) return fieldErrors(renamed, CHECK_FORM_FIELDS[type]);
  const rowed = renamed.map((e) => (e.field ? { ...e, field: rowPath(e.field, values) } : e));
  return fieldErrors(rowed, checkFormFields({ ...values, checkType: type }));
}
