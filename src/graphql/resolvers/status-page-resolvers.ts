import type { PublicContentSubject, Resolvers } from '../__generated__/resolvers-types.js';
import { cursorConnection } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import { codedError } from '../errors.js';
import { isUuid, toGlobalId } from '../global-id.js';
import type { NodeType } from '../node-type.js';
import type { RestCheck } from '../rest-types.js';
import type { RestStatusPageService } from '../status-page-incident-types.js';
import { statusPageCardGlobalId, statusPageCardRestIds, statusPageRestId, statusPageSubscriberGlobalId, statusPageSubscriberRestIds } from '../status-page-ids.js';
import type { RestStatusPage, RestStatusPagePage, StatusPageCardParent } from '../status-page-types.js';

/**
 * The loaders of an operation, or of the event an event type is executed for (createEventContexts); a
 * subscription layer configured without REST access has none, and cannot follow links.
 */
export function loadersOf(ctx: object): GraphqlContext['loaders'] {
  const loaders = (ctx as Partial<GraphqlContext>).loaders;
  if (!loaders) throw codedError('BACKEND_UNAVAILABLE', 'This subscription layer has no REST access: event links cannot be followed');
  return loaders;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Services read inside a page: primed, so a service's own fields and relations never read it again. */
export function primeServices(ctx: object, services: readonly RestStatusPageService[]): RestStatusPageService[] {
  const loaders = (ctx as Partial<GraphqlContext>).loaders?.statusPageIncidents;
  if (loaders) for (const s of services) loaders.serviceById.prime(s.id.toLowerCase(), s);
  return [...services];
}

/** A page read some other way (a list, a write's answer) primed for every later read of it in the operation. */
export function primePage(ctx: object, page: RestStatusPage): RestStatusPage {
  loadersOf(ctx).statusPages.pageById.prime(page.id.toLowerCase(), page);
  return page;
}

/** Every service a page shows, each once, in the order of its cards. */
export function servicesOfPage(page: RestStatusPage): RestStatusPageService[] {
  const seen = new Map<string, RestStatusPageService>();
  for (const card of page.cards) for (const s of card.services) if (!seen.has(s.id.toLowerCase())) seen.set(s.id.toLowerCase(), s);
  return [...seen.values()];
}

const cardOf = (page: RestStatusPage, card: RestStatusPage['cards'][number]): StatusPageCardParent => ({ ...card, statusPageId: page.id });

/** The account's checks, primed once per operation for every later `check(id)`. */
const primedChecks = new WeakSet<object>();
async function accountChecks(ctx: GraphqlContext): Promise<RestCheck[]> {
  const all = await ctx.loaders.statusPages.allChecks();
  if (!primedChecks.has(all)) {
    primedChecks.add(all);
    for (const c of all) ctx.loaders.checkById.prime(c.id, c);
  }
  return all;
}

/** The event's subject as the schema spells it. */
const SUBJECTS: Record<string, PublicContentSubject> = {
  statusPage: 'STATUS_PAGE', service: 'SERVICE', incident: 'INCIDENT', maintenance: 'MAINTENANCE', subscription: 'SUBSCRIPTION', check: 'CHECK',
};

/** Node types of this module: pages, cards and subscribers (whose ids carry their page's). */
export const statusPageNodeTypes: NodeType[] = [
  {
    idType: 'StatusPage',
    fetch: (ctx, restId) => (isUuid(restId) ? ctx.loaders.statusPages.pageById.load(restId) : Promise.resolve(null)),
    typeName: () => 'StatusPage',
  },
  {
    idType: 'StatusPageCard',
    fetch: async (ctx, restId) => {
      const ids = statusPageCardRestIds(restId);
      const page = ids && await ctx.loaders.statusPages.pageById.load(ids.statusPageId);
      const card = page?.cards.find((c) => same(c.id, ids!.cardId));
      return page && card ? cardOf(page, card) : null;
    },
    typeName: () => 'StatusPageCard',
  },
  {
    idType: 'StatusPageSubscriber',
    fetch: async (ctx, restId) => {
      const ids = statusPageSubscriberRestIds(restId);
      const subscribers = ids && await ctx.loaders.statusPages.subscribersOf.load(ids.statusPageId);
      return subscribers?.find((s) => same(s.id, ids!.subscriberId)) ?? null;
    },
    typeName: () => 'StatusPageSubscriber',
  },
];

/**
 * Status pages, their cards and subscribers: the types, one by id, the cursor list, the relations
 * (page → cards → services, page → subscribers, card and subscriber → page, service → the pages
 * showing it and the checks whose incident automation names it) and the `statusPageChanged` event type.
 */
export const statusPageResolvers: Resolvers = {
  StatusPage: {
    id: (p) => toGlobalId('StatusPage', p.id),
    statusPageId: (p) => p.id,
    // Cards carry their services whole: walking page → card → service → page costs nothing more.
    cards: (p, _args, ctx) => {
      primePage(ctx, p);
      return p.cards.map((c) => cardOf(p, c));
    },
    services: (p, _args, ctx) => primeServices(ctx, servicesOfPage(p)),
    subscribers: async (p, _args, ctx) => (await ctx.loaders.statusPages.subscribersOf.load(p.id)) ?? [],
    createdAt: (p) => p.created_at,
    updatedAt: (p) => p.updated_at,
  },
  StatusPageCard: {
    id: (c) => statusPageCardGlobalId(c.statusPageId, c.id),
    cardId: (c) => c.id,
    services: (c, _args, ctx) => primeServices(ctx, c.services),
    page: (c, _args, ctx) => ctx.loaders.statusPages.pageById.load(c.statusPageId),
    createdAt: (c) => c.created_at,
    updatedAt: (c) => c.updated_at,
  },
  StatusPageSubscriber: {
    id: (s) => statusPageSubscriberGlobalId(s.statusPageId, s.id),
    subscriberId: (s) => s.id,
    statusPage: (s, _args, ctx) => ctx.loaders.statusPages.pageById.load(s.statusPageId),
    createdAt: (s) => s.created_at,
    updatedAt: (s) => s.updated_at,
  },
  StatusPageService: {
    // Batched: every service of the operation filters the one walk of the account's pages (or checks).
    statusPages: async (s, _args, ctx) => (await ctx.loaders.statusPages.allPages())
      .filter((p) => p.cards.some((c) => c.services.some((svc) => same(svc.id, s.id)))),
    checks: async (s, _args, ctx) => (await accountChecks(ctx))
      .filter((c) => c.triggerIncident != null && same(c.triggerIncident.serviceId, s.id)),
  },
  StatusPageChangeEvent: {
    subject: (e) => SUBJECTS[e.subject]!,
    statusPage: (e, _args, ctx) => {
      const pageId = e.subject === 'statusPage' || e.subject === 'subscription' ? e.subjectId : e.followedStatusPageId;
      return pageId ? loadersOf(ctx).statusPages.pageById.load(pageId) : null;
    },
  },
  Query: {
    statusPage: (_root, { id }, ctx) => {
      const restId = statusPageRestId(id);
      return restId === null ? null : ctx.loaders.statusPages.pageById.load(restId);
    },
    statusPages: (_root, { first, after }, ctx) =>
      cursorConnection(first, after, async (cursor, limit) => {
        const page = (await ctx.rest.get<RestStatusPagePage>('/v1/status-pages', { limit, nextId: cursor ?? undefined })).body;
        for (const p of page.entries) primePage(ctx, p);
        return { items: page.entries, next: page.nextId };
      }),
  },
};
