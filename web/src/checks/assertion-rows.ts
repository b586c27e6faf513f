/** An assertion as the API stores it (schema Assertion). */
export interface AssertionLike {
  source: string;
  comparison: string;
  property?: string | null;
  target?: string | null;
  regex?: string | null;
}

/** The assertion sources an API check understands (schema AssertionSource, as the REST API allows them on API checks). */
export const API_ASSERTION_SOURCES = ['STATUS_CODE', 'RESPONSE_TIME', 'JSON_BODY', 'TEXT_BODY', 'HEADERS'] as const;

/** How each source is named in the source picker. */
export const ASSERTION_SOURCE_LABELS: Record<string, string> = {
  STATUS_CODE: 'Status code', RESPONSE_TIME: 'Response time (ms)', JSON_BODY: 'JSON body', TEXT_BODY: 'Text body', HEADERS: 'Header',
  RESPONSE_DATA: 'Response data', RESPONSE_CODE: 'Response code', TEXT_ANSWER: 'Text answer', JSON_ANSWER: 'JSON answer', LATENCY: 'Latency', JSON_RESPONSE: 'JSON response',
};

/** The schema's AssertionComparison values, with how the picker names them. */
export const ASSERTION_COMPARISON_LABELS = {
  EQUALS: 'equals', NOT_EQUALS: 'does not equal', LESS_THAN: 'less than', GREATER_THAN: 'greater than', CONTAINS: 'contains', NOT_CONTAINS: 'does not contain',
  IS_EMPTY: 'is empty', NOT_EMPTY: 'is not empty', IS_NULL: 'is null', NOT_NULL: 'is not null',
  HAS_KEY: 'has key', NOT_HAS_KEY: 'lacks key', HAS_VALUE: 'has value', NOT_HAS_VALUE: 'lacks value',
} as const;
export const ASSERTION_COMPARISONS = Object.keys(ASSERTION_COMPARISON_LABELS) as (keyof typeof ASSERTION_COMPARISON_LABELS)[];

/** One assertion as the form holds it: text as typed. `regex` is not edited but kept, so saving never drops it. */
export interface AssertionRow {
  source: string;
  property: string;
  comparison: string;
  target: string;
  regex: string;
}

/** A new API check's assertion, and the row "Add assertion" appends. */
export const NEW_API_ASSERTION: AssertionRow = { source: 'STATUS_CODE', property: '', comparison: 'EQUALS', target: '200', regex: '' };

const PROPERTY_SOURCES: Record<string, string> = {
  JSON_BODY: 'JSON path', HEADERS: 'Header name', LATENCY: 'Statistic', JSON_ANSWER: 'JSON path', JSON_RESPONSE: 'JSON path',
};
const NO_TARGET_COMPARISONS = new Set(['IS_EMPTY', 'NOT_EMPTY', 'IS_NULL', 'NOT_NULL']);

/** What a source's property means (`JSON path`), or undefined for a source that reads none. */
export function propertyMeaning(source: string): string | undefined {
  return PROPERTY_SOURCES[source];
}

/** Whether a row shows its property: when the source reads one, or when it holds a value (never hidden yet sent). */
export function showsProperty(row: AssertionRow): boolean {
  return propertyMeaning(row.source) !== undefined || row.property !== '';
}

/** Whether a row shows its target: unless the comparison needs none (`IS_EMPTY`) and it is empty. */
export function showsTarget(row: AssertionRow): boolean {
  return !NO_TARGET_COMPARISONS.has(row.comparison) || row.target !== '';
}

/** Stored assertions as rows, in their order (so `request.assertions.N` names row N). */
export function assertionRows(assertions: readonly AssertionLike[]): AssertionRow[] {
  return assertions.map((a) => ({ source: a.source, property: a.property ?? '', comparison: a.comparison, target: a.target ?? '', regex: a.regex ?? '' }));
}

/** The AssertionInputs of the rows, one per row in order; blank optional parts left out. */
export function assertionInputs(rows: readonly AssertionRow[]) {
  return rows.map((row) => ({
    source: row.source,
    comparison: row.comparison,
    property: row.property.trim() || undefined,
    target: row.target === '' ? undefined : row.target,
    regex: row.regex || undefined,
  }));
}
