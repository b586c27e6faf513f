import type { Queryable } from './db.js';
import { newestFirstPage, type NewestFirstCursor } from './newest-first-page.js';
import type { StatusPageServiceRow } from './status-page-services-repository.js';

/** A stored status page (never its password hash: `has_password` says whether there is one). */
export interface StatusPageRow {
  id: string;
  account_id: string;
  name: string;
  url: string;
  custom_domain: string | null;
  description: string | null;
  theme_colors: Record<string, any> | null;
  logo: string | null;
  logo_dark: string | null;
  favicon: string | null;
  redirect_to: string | null;
  default_theme: string;
  is_private: boolean;
  has_password: boolean;
  /** Moves on with every password change: public sessions remember it and end when it differs. */
  password_version: number;
  created_at: Date;
  updated_at: Date | null;
}

/** The fields of a page a write sets (besides the password). */
export interface StatusPageValues {
  name: string;
  url: string;
  customDomain: string | null;
  description: string | null;
  themeColors: Record<string, any> | null;
  logo: string | null;
  logoDark: string | null;
  favicon: string | null;
  redirectTo: string | null;
  defaultTheme: string;
  isPrivate: boolean;
}

/** A card of a page, in its order (`position` from 0). */
export interface StatusPageCardRow {
  id: string;
  status_page_id: string;
  name: string;
  position: number;
  created_at: Date;
  updated_at: Date | null;
}

/** A card with the services it shows, in their order. */
export interface StatusPageCardWithServices extends StatusPageCardRow {
  services: StatusPageServiceRow[];
}

/** A card as a write stores it: `touched` marks a kept card whose name, place or services changed. */
export interface CardValues {
  id: string;
  name: string;
  serviceIds: readonly string[];
  touched: boolean;
}

/** Which unique field a write collided on, across all accounts. */
export type TakenField = 'url' | 'customDomain';
/** A write's outcome: the stored row, or the unique field another page holds already (nothing written). */
export type PageWrite = { row: StatusPageRow; taken?: undefined } | { row?: undefined; taken: TakenField };

const COLUMNS = `id, account_id, name, url, custom_domain, description, theme_colors, logo, logo_dark, favicon, redirect_to,
  default_theme, is_private, password_hash IS NOT NULL AS has_password, password_version, created_at, updated_at`;
const CARD_COLUMNS = 'id, status_page_id, name, position, created_at, updated_at';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The unique field a unique violation is about (constraint names of migration 011), else undefined. */
function takenField(err: unknown): TakenField | undefined {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  if (!e || e.code !== '23505') return undefined;
  const names = `${String(e.constraint ?? '')} ${String(e.message ?? '')}`;
  if (names.includes('status_pages_url_key')) return 'url';
  if (names.includes('status_pages_custom_domain_key')) return 'customDomain';
  return undefined;
}

/** Runs a write whose unique violations on url or custom domain are answered, not thrown. */
async function guarded(write: () => Promise<StatusPageRow[]>): Promise<PageWrite> {
  try {
    const [row] = await write();
    return { row: row! };
  } catch (err) {
    const taken = takenField(err);
    if (taken) return { taken };
    throw err;
  }
}

const valueParams = (v: StatusPageValues) => [
  v.name, v.url, v.customDomain, v.description, v.themeColors === null ? null : JSON.stringify(v.themeColors),
  v.logo, v.logoDark, v.favicon, v.redirectTo, v.defaultTheme, v.isPrivate,
];

/**
 * Status pages and their cards. Account-scoped in every statement except the public lookups
 * (`findByUrl`, `findByCustomDomain`, `passwordOf`), which find a page for a visitor of any account.
 */
export function createStatusPagesRepository(db: Queryable) {
  /** The cards of each page, in their order. */
  async function cardsOf(pageIds: readonly string[]): Promise<StatusPageCardRow[]> {
    if (pageIds.length === 0) return [];
    return db.query<StatusPageCardRow>(
      `SELECT ${CARD_COLUMNS} FROM status_page_cards WHERE status_page_id = ANY($1::uuid[]) ORDER BY status_page_id, position`,
      [pageIds],
    );
  }

  /** The services each card of these pages shows, in their order. */
  async function cardServicesOf(pageIds: readonly string[]): Promise<(StatusPageServiceRow & { card_id: string })[]> {
    if (pageIds.length === 0) return [];
    return db.query<StatusPageServiceRow & { card_id: string }>(
      `SELECT l.card_id, s.id, s.account_id, s.name, s.auto_incident, s.created_at, s.updated_at
       FROM status_page_cards c JOIN status_page_card_services l ON l.card_id = c.id JOIN status_page_services s ON s.id = l.service_id
       WHERE c.status_page_id = ANY($1::uuid[]) ORDER BY l.card_id, l.position`,
      [pageIds],
    );
  }

  return {
    /** One page; `lock` holds its row until the transaction ends (writes of the page and its cards). */
    async get(accountId: string, id: string, lock = false): Promise<StatusPageRow | undefined> {
      const [row] = await db.query<StatusPageRow>(
        `SELECT ${COLUMNS} FROM status_pages WHERE account_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [accountId, id],
      );
      return row;
    },

    /** A page of pages, newest first, after the cursor (created_at, id). */
    list(accountId: string, limit: number, after?: NewestFirstCursor): Promise<StatusPageRow[]> {
      return newestFirstPage<StatusPageRow>(db, 'status_pages', COLUMNS, accountId, limit, after);
    },

    /** Inserts a page (`passwordHash` null: none); a url or custom domain another page holds is answered as `taken`. */
    insert(accountId: string, id: string, v: StatusPageValues, passwordHash: string | null): Promise<PageWrite> {
      return guarded(() => db.query<StatusPageRow>(
        `INSERT INTO status_pages (id, account_id, name, url, custom_domain, description, theme_colors, logo, logo_dark, favicon,
           redirect_to, default_theme, is_private, password_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $13, $14) RETURNING ${COLUMNS}`,
        [id, accountId, ...valueParams(v), passwordHash],
      ));
    },

    /**
     * Rewrites a page the caller holds locked. `passwordHash` undefined keeps the stored password;
     * a new one also moves `password_version` on (ending every public session).
     */
    update(accountId: string, id: string, v: StatusPageValues, passwordHash?: string): Promise<PageWrite> {
      return guarded(() => db.query<StatusPageRow>(
        `UPDATE status_pages SET name = $3, url = $4, custom_domain = $5, description = $6, theme_colors = $7::jsonb, logo = $8,
           logo_dark = $9, favicon = $10, redirect_to = $11, default_theme = $12, is_private = $13,
           password_hash = coalesce($14, password_hash),
           password_version = password_version + CASE WHEN $14::text IS NULL THEN 0 ELSE 1 END,
           updated_at = now()
         WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [accountId, id, ...valueParams(v), passwordHash ?? null],
      ));
    },

    /** Removes a page with its cards and subscribers. */
    async delete(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM status_pages WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
      return rows.length > 0;
    },

    cardsOf,
    cardServicesOf,

    /** A page's cards with their services, in their order: what its public page shows. */
    async listCards(pageId: string): Promise<StatusPageCardWithServices[]> {
      const [cards, services] = await Promise.all([cardsOf([pageId]), cardServicesOf([pageId])]);
      return cards.map((card) => ({ ...card, services: services.filter((s) => s.card_id === card.id).map(({ card_id: _, ...s }) => s) }));
    },

    /**
     * Makes `cards` (ids already checked to be new or this page's, services the account's) the page's
     * cards in this order: cards not listed go, listed ones keep their id and creation time.
     */
    async replaceCards(pageId: string, cards: readonly CardValues[]): Promise<void> {
      const ids = cards.map((c) => c.id);
      await db.query('DELETE FROM status_page_cards WHERE status_page_id = $1 AND NOT (id = ANY($2::uuid[]))', [pageId, ids]);
      if (cards.length === 0) return;
      await db.query(
        `INSERT INTO status_page_cards (id, status_page_id, name, position, updated_at)
         SELECT c.id, $1, c.name, c.position::int - 1, CASE WHEN c.touched THEN now() END
         FROM unnest($2::uuid[], $3::text[], $4::boolean[]) WITH ORDINALITY AS c(id, name, touched, position)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, position = EXCLUDED.position,
           updated_at = coalesce(EXCLUDED.updated_at, status_page_cards.updated_at)
         WHERE status_page_cards.status_page_id = EXCLUDED.status_page_id`,
        [pageId, ids, cards.map((c) => c.name), cards.map((c) => c.touched)],
      );
      await db.query('DELETE FROM status_page_card_services WHERE card_id = ANY($1::uuid[])', [ids]);
      const links = cards.flatMap((c) => c.serviceIds.map((serviceId, position) => ({ cardId: c.id, serviceId, position })));
      if (links.length === 0) return;
      await db.query(
        `INSERT INTO status_page_card_services (card_id, service_id, position)
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[])`,
        [links.map((l) => l.cardId), links.map((l) => l.serviceId), links.map((l) => l.position)],
      );
    },

    /** The page whose `url` slug this is, of any account (public pages). */
    async findByUrl(url: string): Promise<StatusPageRow | undefined> {
      const [row] = await db.query<StatusPageRow>(`SELECT ${COLUMNS} FROM status_pages WHERE url = $1`, [url]);
      return row;
    },

    /** The page served on this host name (any case), of any account (public pages). */
    async findByCustomDomain(host: string): Promise<StatusPageRow | undefined> {
      const [row] = await db.query<StatusPageRow>(`SELECT ${COLUMNS} FROM status_pages WHERE custom_domain = lower($1)`, [host]);
      return row;
    },

    /**
     * The account's pages whose cards show any of these services, oldest first (at most `limit`):
     * whom an incident on them concerns, and what a service delete would take away from.
     */
    async pagesShowingServices(accountId: string, serviceIds: readonly string[], limit = 1000): Promise<StatusPageRow[]> {
      if (serviceIds.length === 0) return [];
      return db.query<StatusPageRow>(
        `SELECT ${COLUMNS} FROM status_pages p WHERE p.account_id = $1 AND EXISTS (
           SELECT 1 FROM status_page_cards c JOIN status_page_card_services l ON l.card_id = c.id
           WHERE c.status_page_id = p.id AND l.service_id = ANY($2::uuid[]))
         ORDER BY p.created_at, p.id LIMIT $3`,
        [accountId, serviceIds, limit],
      );
    },

    /** The stored password hash and version of a page of any account; undefined for an unknown page. */
    async passwordOf(pageId: string): Promise<{ password_hash: string | null; password_version: number } | undefined> {
      if (!UUID.test(pageId)) return undefined;
      const [row] = await db.query<{ password_hash: string | null; password_version: number }>(
        'SELECT password_hash, password_version FROM status_pages WHERE id = $1',
        [pageId],
      );
      return row;
    },
  };
}
export type StatusPagesRepository = ReturnType<typeof createStatusPagesRepository>;
