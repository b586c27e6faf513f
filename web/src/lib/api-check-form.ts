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
  expectedStatus: string;
}

/** The form's fields by the REST paths userErrors name (`request.url`), so each error lands on its field. */
export const API_CHECK_FORM_FIELDS = [
  'name', 'request.method', 'request.url', 'request.assertions', 'frequency', 'locations', 'tags', 'degradedResponseTime', 'maxResponseTime', 'activated',
] as const;

/** A new check's starting values. */
export const EMPTY_API_CHECK_FORM: ApiCheckFormValues = {
  name: '', method: 'GET', url: '', frequency: '10', locations: [], tags: '', degradedResponseTime: '', maxResponseTime: '', activated: true, expectedStatus: '200',
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

/**
 * The ApiCheckInput of the form's values. The API judges validity (its userErrors come back to the
 * fields); blank optional numbers are left out so the API's defaults apply. An expected status adds
 * a STATUS_CODE EQUALS assertion.
 */
export function apiCheckInput(values: ApiCheckFormValues, existingAssertions: readonly AssertionLike[] = []) {
  const expected = values.expectedStatus.trim();
  // Editing keeps the check's other assertions: the form only owns the expected status.
  const kept = existingAssertions.filter((a) => !isStatusEquals(a)).map((a) => ({
    source: a.source, comparison: a.comparison, property: a.property ?? undefined, target: a.target ?? undefined, regex: a.regex ?? undefined,
  }));
  return {
    name: values.name.trim(),
    activated: values.activated,
    frequency: integer(values.frequency),
    locations: values.locations,
    tags: parseTags(values.tags),
    degradedResponseTime: integer(values.degradedResponseTime),
    maxResponseTime: integer(values.maxResponseTime),
    request: {
      method: values.method as 'GET' | 'POST' | 'PUT' | 'HEAD' | 'DELETE' | 'PATCH',
      url: values.url.trim(),
      assertions: [...kept, ...(expected ? [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: expected }] : [])],
    },
  };
}

/** An assertion as the API stores it (schema Assertion). */
export interface AssertionLike {
  source: string;
  comparison: string;
  property?: string | null;
  target?: string | null;
  regex?: string | null;
}

function isStatusEquals(a: AssertionLike): boolean {
  return a.source === 'STATUS_CODE' && a.comparison === 'EQUALS';
}

/** A stored API check's values as the form shows them. */
export function apiCheckFormValues(check: {
  name: string; activated: boolean; frequency: number; locations: readonly string[]; tags: readonly string[];
  degradedResponseTime?: number | null; maxResponseTime?: number | null;
  request: { method: string; url: string; assertions: readonly AssertionLike[] };
}): ApiCheckFormValues {
  const status = check.request.assertions.find(isStatusEquals);
  return {
    name: check.name, method: check.request.method, url: check.request.url, frequency: String(check.frequency), locations: [...check.locations],
    tags: check.tags.join(', '), degradedResponseTime: check.degradedResponseTime == null ? '' : String(check.degradedResponseTime),
    maxResponseTime: check.maxResponseTime == null ? '' : String(check.maxResponseTime), activated: check.activated, expectedStatus: status?.target ?? '',
  };
}
