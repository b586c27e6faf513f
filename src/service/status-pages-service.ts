import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { StatusPageBodyType } from '../contract/status-page-schemas.js';
import { LookoutError, assertValid, notFound, type Issue } from '../domain/lookout-error.js';
import { mergeUpdate, object, value, type Shape } from '../domain/merge-update.js';
import { cardIssues, customDomainIssue, customDomainOf, pageLinkIssue, privacyIssue, statusPageUrlIssue } from '../domain/status-page-issues.js';
import { THEME_COLOR_KEYS, type DefaultTheme } from '../domain/status-page-theme.js';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import type { Repositories } from '../store/repositories.js';
import type { StatusPageServiceRow } from '../store/status-page-services-repository.js';
import type { CardValues, StatusPageCardRow, StatusPageRow, StatusPageValues, TakenField } from '../store/status-pages-repository.js';
import { toServiceView } from './status-page-incident-service.js';
import { pagePasswordMatches, hashPagePassword } from './status-page-password.js';
import { createPublicWrite } from './status-page-public-write.js';

type Card = StatusPageCardRow & { services: StatusPageServiceRow[] };

function toCardView(card: Card) {
  return {
    id: card.id, name: card.name, services: card.services.map((s) => toServiceView(s)),
    created_at: card.created_at.toISOString(), updated_at: card.updated_at?.toISOString() ?? null,
  };
}

function toStatusPageView(row: StatusPageRow, cards: Card[]) {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    url: row.url,
    description: row.description,
    customDomain: row.custom_domain,
    themeColors: row.theme_colors,
    logo: row.logo,
    logoDark: row.logo_dark,
    favicon: row.favicon,
    redirectTo: row.redirect_to,
    defaultTheme: row.default_theme as DefaultTheme,
    isPrivate: row.is_private,
    whiteLabel: false,
    projectBindings: [] as Record<string, unknown>[],
    cards: cards.map(toCardView),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at?.toISOString() ?? null,
  };
}
export type StatusPageView = ReturnType<typeof toStatusPageView>;

/** Pages with their cards and the cards' services, in the order of `rows`. */
async function pageViews(repos: Repositories, rows: StatusPageRow[]): Promise<StatusPageView[]> {
  const ids = rows.map((r) => r.id);
  const [cards, services] = await Promise.all([repos.statusPages.cardsOf(ids), repos.statusPages.cardServicesOf(ids)]);
  const withServices = cards.map((card) => ({ ...card, services: services.filter((s) => s.card_id === card.id) }));
  return rows.map((row) => toStatusPageView(row, withServices.filter((c) => c.status_page_id === row.id)));
}

async function readPage(repos: Repositories, accountId: string, id: string): Promise<StatusPageView> {
  const row = await repos.statusPages.get(accountId, id);
  if (!row) throw notFound('Status page', id);
  return (await pageViews(repos, [row]))[0]!;
}

const palette = object(Object.fromEntries(THEME_COLOR_KEYS.map((key) => [key, value()])), 'absent', { nullClears: true });
/**
 * How PUT merges over a stored page (merge-update.ts): absent keeps; null keeps the name, url,
 * defaultTheme and isPrivate and clears the others (they are "string or null" in the API);
 * themeColors sent in part merge key by key. Cards and password are handled on their own.
 */
const PAGE_SHAPE: Shape = {
  name: value(),
  url: value(),
  description: value(null, { nullClears: true }),
  customDomain: value(null, { nullClears: true }),
  themeColors: object({ light: palette, dark: palette }, null, { nullClears: true }),
  logo: value(null, { nullClears: true }),
  logoDark: value(null, { nullClears: true }),
  favicon: value(null, { nullClears: true }),
  redirectTo: value(null, { nullClears: true }),
  defaultTheme: value('AUTO'),
  isPrivate: value(false),
};
const LINKS = ['logo', 'logoDark', 'favicon', 'redirectTo'] as const;

/** The page fields of a body or a stored row, in the API's names. */
type PageFields = Omit<StatusPageValues, 'themeColors'> & { themeColors: Record<string, any> | null };

const storedFields = (row: StatusPageRow): PageFields => ({
  name: row.name, url: row.url, description: row.description, customDomain: row.custom_domain, themeColors: row.theme_colors,
  logo: row.logo, logoDark: row.logo_dark, favicon: row.favicon, redirectTo: row.redirect_to,
  defaultTheme: row.default_theme, isPrivate: row.is_private,
});

/** Palettes and colours without the nulls a body may carry (null there means "not set"). */
function cleanTheme(theme: Record<string, any> | null | undefined): Record<string, any> | null {
  if (!theme) return null;
  const out: Record<string, Record<string, string>> = {};
  for (const mode of ['light', 'dark'] as const) {
    const colours = theme[mode] as Record<string, string | null> | null | undefined;
    if (colours) out[mode] = Object.fromEntries(Object.entries(colours).filter(([, v]) => v != null)) as Record<string, string>;
  }
  return out;
}

/** The values a page write stores: "" means none for the custom domain and links, the domain lower-cased. */
function toValues(f: { [K in keyof PageFields]?: PageFields[K] | null }): StatusPageValues {
  const orNull = (v: string | null | undefined) => (v ? v : null);
  return {
    name: f.name!,
    url: f.url!,
    description: f.description ?? null,
    customDomain: f.customDomain ? customDomainOf(f.customDomain) : null,
    themeColors: cleanTheme(f.themeColors),
    logo: orNull(f.logo),
    logoDark: orNull(f.logoDark),
    favicon: orNull(f.favicon),
    redirectTo: orNull(f.redirectTo),
    defaultTheme: f.defaultTheme ?? 'AUTO',
    isPrivate: f.isPrivate ?? false,
  };
}

/** Issues of the page's own fields (not its cards). */
function valueIssues(v: StatusPageValues, hasPassword: boolean): Issue[] {
  const issues = [statusPageUrlIssue(v.url), v.customDomain === null ? undefined : customDomainIssue(v.customDomain)];
  for (const key of LINKS) if (v[key] !== null) issues.push(pageLinkIssue(key, v[key]!));
  issues.push(privacyIssue(v.isPrivate, hasPassword));
  return issues.filter((i): i is Issue => i !== undefined);
}

function taken(field: TakenField, v: StatusPageValues, by = 'another status page'): LookoutError {
  const [what, sent] = field === 'url' ? ['url', v.url] : ['customDomain', v.customDomain];
  return new LookoutError('CONFLICT', `"${what}" ${JSON.stringify(sent)} is taken by ${by} (of this or another account): choose another`, {
    attributes: { key: what },
  });
}

/** One host serves one thing: a custom domain a dashboard is served on is taken for status pages too. */
async function refuseDashboardDomain(tx: Repositories, v: StatusPageValues): Promise<void> {
  if (v.customDomain && (await tx.customDomains.dashboardHas(v.customDomain))) throw taken('customDomain', v, 'a dashboard');
}

const badCursor = () => new LookoutError('VALIDATION', '"nextId" is not a cursor of this list', { issues: [{ key: 'nextId', message: 'is unknown' }], source: 'query' });

/**
 * The cards to store, or the issues of the cards sent: services must be the account's (held
 * until the transaction ends, so that a concurrent service delete waits and then sees them used);
 * on update, card ids must be this page's.
 */
async function cardsToStore(tx: Repositories, accountId: string, cards: StatusPageBodyType['cards'], page?: StatusPageRow): Promise<{ issues: Issue[]; cards: CardValues[] }> {
  const serviceIds = cards.flatMap((c) => (c.services ?? []).map((s) => s.id));
  const known = new Set((await tx.statusPageServices.getMany(accountId, serviceIds)).map((s) => s.id));
  const stored = page ? await tx.statusPages.cardsOf([page.id]) : [];
  const storedServices = page ? await tx.statusPages.cardServicesOf([page.id]) : [];
  const issues = cardIssues(cards, known, page && { id: page.id, cardIds: new Set(stored.map((c) => c.id)) });
  const values = cards.map((card, position) => {
    const id = page && card.id ? card.id.toLowerCase() : randomUUID();
    const ids = (card.services ?? []).map((s) => s.id.toLowerCase());
    const before = stored.find((c) => c.id === id);
    const servicesBefore = storedServices.filter((s) => s.card_id === id).map((s) => s.id);
    const touched = before !== undefined && (before.name !== card.name || before.position !== position || servicesBefore.join() !== ids.join());
    return { id, name: card.name, serviceIds: ids, touched };
  });
  return { issues, cards: values };
}

/** What the status pages service needs. */
export interface StatusPagesServiceOptions {
  store: Store;
  /** Where `publicContentChanged` goes after each write commits; none in unit uses. */
  bus?: EventBus;
  logger?: Logger;
}

/**
 * Status pages with their cards. Every write runs in one transaction, writes nothing when refused
 * (every bad key named in one 400), moves the account's public content version on and, after
 * commit, publishes `publicContentChanged` (subject `statusPage`). Another account's page answers
 * like an unknown one. `url` and `customDomain` are unique across all accounts (409 naming them),
 * under concurrent writes too: the unique indexes decide.
 */
export function createStatusPagesService({ store, bus, logger }: StatusPagesServiceOptions) {
  const publicWrite = createPublicWrite({ store, bus, logger });
  const changed = (view: { id: string }) => ({ subject: 'statusPage' as const, subjectId: view.id });

  return {
    async list(accountId: string, limit: number, nextId?: string) {
      let after: { createdAt: Date; id: string } | undefined;
      if (nextId) {
        const cursor = await store.statusPages.get(accountId, nextId);
        if (!cursor) throw badCursor();
        after = { createdAt: cursor.created_at, id: cursor.id };
      }
      const rows = await store.statusPages.list(accountId, limit + 1, after);
      const page = rows.slice(0, limit);
      return { length: page.length, entries: await pageViews(store, page), nextId: rows.length > limit ? page[page.length - 1]!.id : null };
    },

    get: (accountId: string, id: string) => readPage(store, accountId, id),

    async create(accountId: string, body: StatusPageBodyType): Promise<StatusPageView> {
      return publicWrite(accountId, async (tx) => {
        const values = toValues(body);
        const cards = await cardsToStore(tx, accountId, body.cards);
        assertValid([...valueIssues(values, Boolean(body.password)), ...cards.issues]);
        await refuseDashboardDomain(tx, values);
        const id = randomUUID();
        const written = await tx.statusPages.insert(accountId, id, values, body.password ? await hashPagePassword(body.password) : null);
        if (written.taken) throw taken(written.taken, values);
        await tx.statusPages.replaceCards(id, cards.cards);
        return readPage(tx, accountId, id);
      }, changed);
    },

    /**
     * PUT: the same body as POST. Cards replace the stored ones (a card sent with its id is kept);
     * other fields merge by PAGE_SHAPE. A password sent that is the stored one changes nothing;
     * another one is stored and moves `password_version` on.
     */
    async update(accountId: string, id: string, body: StatusPageBodyType): Promise<StatusPageView> {
      return publicWrite(accountId, async (tx) => {
        const row = await tx.statusPages.get(accountId, id, true);
        if (!row) throw notFound('Status page', id);
        const { cards: _cards, password, ...fields } = body;
        const values = toValues(mergeUpdate(storedFields(row), fields, PAGE_SHAPE));
        const cards = await cardsToStore(tx, accountId, body.cards, row);
        assertValid([...valueIssues(values, row.has_password || Boolean(password)), ...cards.issues]);
        await refuseDashboardDomain(tx, values);
        let passwordHash: string | undefined;
        if (password && !(await pagePasswordMatches(password, (await tx.statusPages.passwordOf(id))?.password_hash))) {
          passwordHash = await hashPagePassword(password);
        }
        const written = await tx.statusPages.update(accountId, id, values, passwordHash);
        if (written.taken) throw taken(written.taken, values);
        await tx.statusPages.replaceCards(id, cards.cards);
        return readPage(tx, accountId, id);
      }, changed);
    },

    /** Removes the page with its cards and subscribers (the services stay: other pages may show them). */
    async delete(accountId: string, id: string): Promise<void> {
      await publicWrite(accountId, async (tx) => {
        if (!(await tx.statusPages.delete(accountId, id))) throw notFound('Status page', id);
        return { id };
      }, changed);
    },

    /**
     * Whether `password` is the shared password of the page `pageId` (of any account): what a
     * visitor's login checks. Timing-safe, and as slow for an unknown page or a page without password.
     */
    async verifyPagePassword(pageId: string, password: string): Promise<boolean> {
      const row = await store.statusPages.passwordOf(pageId);
      return pagePasswordMatches(password, row?.password_hash);
    },
  };
}
export type StatusPagesService = ReturnType<typeof createStatusPagesService>;
