import type { Issue } from './lookout-error.js';
// The year 0000 parses, but the store cannot take it (before-year-one-issue.ts).
import { FIRST_INSTANT_MS } from './before-year-one-issue.js';

/** The comparison operators a date constraint takes (`startsAt[gte]=…`), as the real API names them. */
export const DATE_OPERATORS = ['gt', 'gte', 'lt', 'lte'] as const;
export type DateOperator = (typeof DATE_OPERATORS)[number];

/** One field's constraint: each operator at most once; all of them must hold. */
export type DateConstraint = Partial<Record<DateOperator, Date>>;

/** The constraints of a list query, by field name. */
export type DateFilters<F extends string> = Partial<Record<F, DateConstraint>>;

// A date-time with a zone (Z or an offset), or a bare calendar date read as midnight UTC.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// `field[op]` as query strings write an object (`qs`, axios, the real API's clients); `field.op` as
// error keys and some clients write it.
const BRACKETS = /^([A-Za-z_][A-Za-z0-9_]*)\[([^\]]*)\]$/;
const DOTTED = /^([A-Za-z_][A-Za-z0-9_]*)\.(.*)$/;

const isOperator = (op: string): op is DateOperator => (DATE_OPERATORS as readonly string[]).includes(op);

function parseDate(text: string): Date | null {
  const date = DATE.exec(text);
  if (date) {
    const d = new Date(`${text}T00:00:00Z`);
    // Reject days a month lacks (2025-02-30), which Date would roll over.
    return Number.isNaN(d.getTime()) || d.getUTCDate() !== Number(date[3]) || d.getTime() < FIRST_INSTANT_MS ? null : d;
  }
  if (!DATE_TIME.test(text)) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) || d.getTime() < FIRST_INSTANT_MS ? null : d;
}

/**
 * Date constraints read from a parsed query string (`{"startsAt[gt]": "2025-01-01T00:00:00Z", …}`)
 * for the given `fields`, and the issues of those that cannot be read, each keyed `<field>.<op>`
 * (e.g. `startsAt.gt`). A value is an ISO 8601 date-time with a zone, or a date (YYYY-MM-DD, read as
 * midnight UTC). Refused: an operator other than gt, gte, lt, lte; a value given more than once or
 * not a date; the bare field (`startsAt=…`), which names no comparison. Keys of other names are
 * left alone (they are the route's other parameters). Never throws, whatever the query holds.
 */
export function parseDateFilters<F extends string>(query: unknown, fields: readonly F[]): { filters: DateFilters<F>; issues: Issue[] } {
  const filters: DateFilters<F> = {};
  const issues: Issue[] = [];
  if (query === null || typeof query !== 'object') return { filters, issues };
  const known = new Set<string>(fields);
  for (const [key, raw] of Object.entries(query as Record<string, unknown>)) {
    if (known.has(key)) {
      issues.push({ key, message: `needs an operator: ${DATE_OPERATORS.map((op) => `${key}[${op}]`).join(', ')}` });
      continue;
    }
    const match = BRACKETS.exec(key) ?? DOTTED.exec(key);
    if (!match || !known.has(match[1]!)) continue;
    const field = match[1] as F;
    const op = match[2]!;
    const issueKey = `${field}.${op}`;
    if (!isOperator(op)) {
      issues.push({ key: issueKey, message: `is not an operator: use ${DATE_OPERATORS.join(', ')}` });
      continue;
    }
    const constraint = (filters[field] ??= {});
    if (Array.isArray(raw) || constraint[op] !== undefined) {
      issues.push({ key: issueKey, message: 'is given more than once' });
      continue;
    }
    const date = typeof raw === 'string' ? parseDate(raw) : null;
    if (!date) {
      issues.push({ key: issueKey, message: 'must be an ISO 8601 date-time with a zone (2025-01-01T00:00:00Z) or a date (2025-01-01)' });
      continue;
    }
    constraint[op] = date;
  }
  return issues.length > 0 ? { filters: {}, issues } : { filters, issues };
}
