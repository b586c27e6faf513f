import { assertionInputs, assertionRows, NEW_API_ASSERTION, type AssertionLike, type AssertionRow } from './assertion-rows.js';

export type { AssertionLike } from './assertion-rows.js';

/** A request header or query parameter as the form holds it; `locked` is not edited but kept. */
export interface KeyValueRow {
  key: string;
  value: string;
  locked?: boolean;
}

/** The schema's BodyType values, with how the picker names them. */
export const BODY_TYPE_LABELS = { NONE: 'No body', JSON: 'JSON', FORM: 'Form (URL-encoded)', RAW: 'Raw text', GRAPHQL: 'GraphQL' } as const;
export const BODY_TYPES = Object.keys(BODY_TYPE_LABELS) as (keyof typeof BODY_TYPE_LABELS)[];

/** What the API-check form holds: text as typed, so a half-typed value is never lost. */
export interface ApiCheckFormValues {
  name: string;
  method: string;
  url: string;
  frequency: string;
  locations: string[];
  tags: string;
  degradedResponseTime: string;
  maxResponseTime: string;
  activated: boolean;
  headers: KeyValueRow[];
  queryParameters: KeyValueRow[];
  bodyType: string;
  body: string;
  assertions: AssertionRow[];
}

/** The form's fields by the REST paths userErrors name (`request.url`), so each error lands on its field. */
export const API_CHECK_FORM_FIELDS = [
  'name', 'request.method', 'request.url', 'request.headers', 'request.queryParameters', 'request.bodyType', 'request.body', 'request.assertions',
  'frequency', 'locations', 'tags', 'degradedResponseTime', 'maxResponseTime', 'activated',
] as const;

/** A new check's starting values: one assertion, status code equals 200. */
export const EMPTY_API_CHECK_FORM: ApiCheckFormValues = {
  name: '', method: 'GET', url: '', frequency: '10', locations: [], tags: '', degradedResponseTime: '', maxResponseTime: '', activated: true,
  headers: [], queryParameters: [], bodyType: 'NONE', body: '', assertions: [NEW_API_ASSERTION],
};

/** Comma- or whitespace-separated tags, trimmed, without empties or duplicates. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(/[,\s]+/).map((t) => t.trim()).filter(Boolean))];
}

function integer(text: string): number | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const n = Number(trimmed);
  return Number.isInteger(n) ? n : undefined;
}

const isBlank = (row: KeyValueRow) => !row.key.trim() && !row.value;

/** The rows sent as KeyValueInputs: all but the blank ones (no name, no value), keys trimmed. */
export function keyValueInputs(rows: readonly KeyValueRow[]) {
  return rows.filter((row) => !isBlank(row)).map((row) => ({ key: row.key.trim(), value: row.value, ...(row.locked ? { locked: true } : {}) }));
}

/** For each sent entry, the form row it came from (blank rows are not sent), so `request.headers.N` names the right row. */
export function sentRowIndexes(rows: readonly KeyValueRow[]): number[] {
  return rows.flatMap((row, index) => (isBlank(row) ? [] : [index]));
}

/** The ApiRequestInput of the form's request fields: every assertion row in order, headers and parameters without blank rows. */
export function apiRequestInput(values: Pick<ApiCheckFormValues, 'method' | 'url' | 'headers' | 'queryParameters' | 'bodyType' | 'body' | 'assertions'>) {
  return {
    method: values.method as 'GET' | 'POST' | 'PUT' | 'HEAD' | 'DELETE' | 'PATCH',
    url: values.url.trim(),
    headers: keyValueInputs(values.headers),
    queryParameters: keyValueInputs(values.queryParameters),
    bodyType: values.bodyType,
    // An emptied body is sent as null so an edit clears the stored one.
    body: values.body === '' ? null : values.body,
    assertions: assertionInputs(values.assertions),
  };
}

/**
 * The ApiCheckInput of the form's values. The API judges validity (its userErrors come back to the
 * fields); blank optional numbers are left out so the API's defaults apply.
 */
export function apiCheckInput(values: ApiCheckFormValues) {
  return {
    name: values.name.trim(),
    activated: values.activated,
    frequency: integer(values.frequency),
    locations: values.locations,
    tags: parseTags(values.tags),
    degradedResponseTime: integer(values.degradedResponseTime),
    maxResponseTime: integer(values.maxResponseTime),
    request: apiRequestInput(values),
  };
}

/** A stored API request (schema ApiRequest) as the form query reads it. */
export interface StoredApiRequest {
  method: string;
  url: string;
  body?: string | null;
  bodyType?: string | null;
  headers?: readonly KeyValueRow[] | null;
  queryParameters?: readonly KeyValueRow[] | null;
  assertions: readonly AssertionLike[];
}

const keyValueRows = (rows: readonly KeyValueRow[] | null | undefined): KeyValueRow[] =>
  (rows ?? []).map((row) => ({ key: row.key, value: row.value, ...(row.locked ? { locked: true } : {}) }));

/** A stored request's fields as the form shows them: every header, parameter and assertion as a row. */
export function apiRequestFormValues(request: StoredApiRequest): Pick<ApiCheckFormValues, 'method' | 'url' | 'headers' | 'queryParameters' | 'bodyType' | 'body' | 'assertions'> {
  return {
    method: request.method, url: request.url, headers: keyValueRows(request.headers), queryParameters: keyValueRows(request.queryParameters),
    bodyType: request.bodyType ?? 'NONE', body: request.body ?? '', assertions: assertionRows(request.assertions),
  };
}

/** A stored API check's values as the form shows them. */
export function apiCheckFormValues(check: {
  name: string; activated: boolean; frequency: number; locations: readonly string[]; tags: readonly string[];
  degradedResponseTime?: number | null; maxResponseTime?: number | null;
  request: StoredApiRequest;
}): ApiCheckFormValues {
  return {
    name: check.name, frequency: String(check.frequency), locations: [...check.locations],
    tags: check.tags.join(', '), degradedResponseTime: check.degradedResponseTime == null ? '' : String(check.degradedResponseTime),
    maxResponseTime: check.maxResponseTime == null ? '' : String(check.maxResponseTime), activated: check.activated,
    ...apiRequestFormValues(check.request),
  };
}
