import type { DateFilters, DateOperator } from '../domain/maintenance-date-filters.js';

const SQL_OPERATOR: Readonly<Record<DateOperator, string>> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };

/**
 * The ` AND <column> <op> $n` conditions of date filters, their values appended to `params`.
 * `columns` maps each filterable field to its column: constants of the calling repository, never input.
 */
export function dateFilterSql<F extends string>(filters: DateFilters<F>, columns: Readonly<Record<F, string>>, params: unknown[]): string {
  let sql = '';
  for (const field of Object.keys(columns) as F[]) {
    const constraint = filters[field];
    if (!constraint) continue;
    for (const op of Object.keys(SQL_OPERATOR) as DateOperator[]) {
      const value = constraint[op];
      if (value === undefined) continue;
      params.push(value);
      sql += ` AND ${columns[field]} ${SQL_OPERATOR[op]} $${params.length}`;
    }
  }
  return sql;
}
