import type { Queryable } from './db.js';

/** The settings of a dashboard as the API names them (every field present: defaults already filled). */
export interface DashboardValues {
  customUrl: string;
  customDomain: string | null;
  logo: string | null;
  favicon: string | null;
  link: string | null;
  description: string | null;
  header: string | null;
  width: string;
  refreshRate: number;
  paginate: boolean;
  paginationRate: number;
  checksPerPage: number;
  useTagsAndOperator: boolean;
  hideTags: boolean;
  enableIncidents: boolean;
  expandChecks: boolean;
  showHeader: boolean;
  customCSS: string | null;
  isPrivate: boolean;
  showP95: boolean;
  showP99: boolean;
  showCheckRunLinks: boolean;
  tags: string[];
}

/** A stored dashboard: its values, its account and its times. */
export interface DashboardRow extends DashboardValues {
  id: string;
  accountId: string;
  createdAt: Date;
  updatedAt: Date | null;
}

/** A dashboard found by its public address, with its account's public content version. */
export interface PublicDashboardRow extends DashboardRow {
  version: number;
}

/** The field of another dashboard's value a write would take. */
export type TakenField = 'customUrl' | 'customDomain';

/** Columns in the order of VALUE_KEYS. */
const COLUMN_OF: Record<keyof DashboardValues, string> = {
  customUrl: 'custom_url', customDomain: 'custom_domain', logo: 'logo', favicon: 'favicon', link: 'link', description: 'description',
  header: 'header', width: 'width', refreshRate: 'refresh_rate', paginate: 'paginate', paginationRate: 'pagination_rate',
  checksPerPage: 'checks_per_page', useTagsAndOperator: 'use_tags_and_operator', hideTags: 'hide_tags', enableIncidents: 'enable_incidents',
  expandChecks: 'expand_checks', showHeader: 'show_header', customCSS: 'custom_css', isPrivate: 'is_private', showP95: 'show_p95',
  showP99: 'show_p99', showCheckRunLinks: 'show_check_run_links', tags: 'tags',
};
const VALUE_KEYS = Object.keys(COLUMN_OF) as (keyof DashboardValues)[];

/** Every column, aliased to the row's camelCase names. */
const SELECT = ['d.id', 'd.account_id AS "accountId"', 'd.created_at AS "createdAt"', 'd.updated_at AS "updatedAt"',
  ...VALUE_KEYS.map((k) => `d.${COLUMN_OF[k]} AS "${k}"`)].join(', ');

/** Which unique index a violation names, as the field that is taken. */
const INDEX_FIELD: Record<string, TakenField> = { dashboards_custom_url_key: 'customUrl', dashboards_custom_domain_key: 'customDomain' };

function takenField(err: unknown): TakenField | undefined {
  if (typeof err !== 'object' || err === null || (err as { code?: unknown }).code !== '23505') return undefined;
  return INDEX_FIELD[String((err as { constraint?: unknown }).constraint)];
}

/**
 * Dashboards. Writes and reads by id are scoped to one account; the look-ups of the public pages
 * and of uniqueness (custom URLs and domains are unique across accounts) are not.
 */
export function createDashboardsRepository(db: Queryable) {
  return {
    /** One dashboard; `lock` holds its row until the transaction ends. */
    async get(accountId: string, id: string, lock = false): Promise<DashboardRow | undefined> {
      const [row] = await db.query<DashboardRow>(`SELECT ${SELECT} FROM dashboards d WHERE d.account_id = $1 AND d.id = $2${lock ? ' FOR UPDATE' : ''}`, [accountId, id]);
      return row;
    },

    /** A page of the account's dashboards, oldest first, and how many there are. */
    async list(accountId: string, page: number, limit: number): Promise<{ rows: DashboardRow[]; total: number }> {
      const rows = await db.query<DashboardRow & { total: number }>(
        `SELECT ${SELECT}, count(*) OVER ()::int AS total FROM dashboards d WHERE d.account_id = $1
         ORDER BY d.created_at, d.id LIMIT $2 OFFSET $3`,
        [accountId, limit, (page - 1) * limit],
      );
      if (rows.length > 0) return { rows: rows.map(({ total: _t, ...row }) => row), total: rows[0]!.total };
      const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM dashboards WHERE account_id = $1', [accountId]);
      return { rows: [], total: count?.n ?? 0 };
    },

    /**
     * Which of `customUrl` and `customDomain` another dashboard (of any account; `exceptId` is the
     * one being updated) has already; the domain compared without regard to case.
     */
    async taken(v: { customUrl: string; customDomain: string | null }, exceptId?: string): Promise<TakenField[]> {
      const rows = await db.query<{ url: boolean; domain: boolean }>(
        `SELECT custom_url = $1 AS url, $2::text IS NOT NULL AND lower(custom_domain) = lower($2::text) AS domain
         FROM dashboards WHERE (custom_url = $1 OR ($2::text IS NOT NULL AND lower(custom_domain) = lower($2::text)))
           AND ($3::uuid IS NULL OR id <> $3::uuid)`,
        [v.customUrl, v.customDomain, exceptId ?? null],
      );
      const fields: TakenField[] = [];
      if (rows.some((r) => r.url)) fields.push('customUrl');
      if (rows.some((r) => r.domain)) fields.push('customDomain');
      return fields;
    },

    /** Inserts a dashboard, or names the unique field another dashboard took first. */
    async insert(accountId: string, id: string, v: DashboardValues): Promise<{ row: DashboardRow } | { taken: TakenField }> {
      const columns = VALUE_KEYS.map((k) => COLUMN_OF[k]);
      try {
        const [row] = await db.query<DashboardRow>(
          `INSERT INTO dashboards AS d (id, account_id, ${columns.join(', ')}) VALUES ($1, $2, ${columns.map((_c, i) => `$${i + 3}`).join(', ')})
           RETURNING ${SELECT}`,
          [id, accountId, ...VALUE_KEYS.map((k) => v[k])],
        );
        return { row: row! };
      } catch (err) {
        const taken = takenField(err);
        if (taken) return { taken };
        throw err;
      }
    },

    /** Replaces a dashboard's values; undefined when the account has no such dashboard. */
    async update(accountId: string, id: string, v: DashboardValues): Promise<{ row: DashboardRow } | { taken: TakenField } | undefined> {
      const sets = VALUE_KEYS.map((k, i) => `${COLUMN_OF[k]} = $${i + 3}`);
      try {
        const [row] = await db.query<DashboardRow>(
          `UPDATE dashboards AS d SET ${sets.join(', ')}, updated_at = now() WHERE d.account_id = $1 AND d.id = $2 RETURNING ${SELECT}`,
          [accountId, id, ...VALUE_KEYS.map((k) => v[k])],
        );
        return row && { row };
      } catch (err) {
        const taken = takenField(err);
        if (taken) return { taken };
        throw err;
      }
    },

    async delete(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM dashboards WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
      return rows.length > 0;
    },

    /**
     * The dashboard at a public address (its custom URL, or a host that is its custom domain, in any
     * case), across accounts, with its account's public content version (0 before any public write).
     */
    async findPublic(at: { customUrl: string } | { host: string }): Promise<PublicDashboardRow | undefined> {
      const where = 'customUrl' in at ? 'd.custom_url = $1' : 'd.custom_domain IS NOT NULL AND lower(d.custom_domain) = lower($1)';
      const [row] = await db.query<DashboardRow & { version: string | null }>(
        `SELECT ${SELECT}, v.version FROM dashboards d LEFT JOIN public_content_versions v ON v.account_id = d.account_id WHERE ${where}`,
        ['customUrl' in at ? at.customUrl : at.host],
      );
      return row && { ...row, version: Number(row.version ?? 0) };
    },
  };
}
export type DashboardsRepository = ReturnType<typeof createDashboardsRepository>;
