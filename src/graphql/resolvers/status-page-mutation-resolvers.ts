import type { AddStatusPageSubscribersInput, MutationResolvers, Resolvers, StatusPageCardInput, StatusPageInput } from '../__generated__/resolvers-types.js';
import { requireRestId, toGlobalId } from '../global-id.js';
import { statusPageServiceRestId } from '../status-page-incident-ids.js';
import { cardRestId, statusPageRestId, statusPageSubscriberGlobalId, statusPageSubscriberRestIds } from '../status-page-ids.js';
import type { AddStatusPageSubscribersPayloadParent, RestStatusPage, RestSubscriptionBulkResult } from '../status-page-types.js';
import { TOO_MANY_ERRORS, withUserErrors, type UserError } from '../user-errors.js';
import { primePage } from './status-page-resolvers.js';
import { clearStatusPageLoaders } from '../clear-status-page-loaders.js';

const PAGES = '/v1/status-pages';

/** The REST ids a mutation acts on; an id that cannot be one names nothing the caller has (NOT_FOUND). */
const pageIdOf = (id: string) => requireRestId(statusPageRestId(id), 'Status page', id);
const subscriberIdsOf = (id: string) => requireRestId(statusPageSubscriberRestIds(id), 'Status page subscriber', id);

/**
 * The input path of a key the REST API names in a status page's 400: a card's service is REST's `{id}`
 * object but the input's bare id (`cards.0.services.1.id` is `cards.0.services.1`).
 */
export function statusPageInputPath(restKey: string): string {
  return restKey.replace(/^(cards\.\d+\.services\.\d+)\.id$/, '$1');
}

/**
 * The input path of a key the REST API names in a bulk subscription's 400: REST's `subscriptions` are
 * the input's `subscribers`, and each one's `config` its `address`.
 */
export function subscribersInputPath(restKey: string): string {
  return restKey.replace(/^subscriptions(?=\.|$)/, 'subscribers').replace(/^(subscribers\.\d+)\.config$/, '$1.address');
}

const underInput = (errors: UserError[], path: (key: string) => string) =>
  errors.map((e) => (e.field && e.code !== TOO_MANY_ERRORS ? { ...e, field: path(e.field) } : e));

/**
 * A card as REST takes it: its id and its services' ids as REST ids (`services: [{id}]`). An id that
 * can be neither is sent as given: the REST API names it in its 400, as it does an unknown service.
 */
function restCard(card: StatusPageCardInput): Record<string, unknown> {
  const { id, services, ...fields } = card;
  return {
    ...fields,
    ...(id == null ? {} : { id: cardRestId(id) ?? id }),
    ...(services === undefined ? {} : { services: services && services.map((s) => ({ id: statusPageServiceRestId(s) ?? s })) }),
  };
}

/** A page's fields as REST takes them: given fields only (null clears where REST says so), cards converted. */
function pageBody(input: StatusPageInput): Record<string, unknown> {
  const { cards, ...fields } = input;
  return cards == null ? fields : { ...fields, cards: cards.map(restCard) };
}

/** The stored cards as an update sends them back to keep them: each with its id and its services' ids. */
const keptCards = (page: RestStatusPage) => page.cards.map((c) => ({ id: c.id, name: c.name, services: c.services.map((s) => ({ id: s.id })) }));

/** Whatever was read before a write may show what it changed (a deleted page leaves its windows): forgotten. */
const afterWrite = clearStatusPageLoaders;

/** The bulk answer as the payload shows it: each added subscriber without its webhook secret. */
function addedOf(pageId: string, result: RestSubscriptionBulkResult): AddStatusPageSubscribersPayloadParent {
  return {
    created: result.created,
    skipped: result.skipped,
    status: result.status,
    added: result.subscriptions.map(({ id, type, address, status, created_at, updated_at, confirmation, confirmationError }) => ({
      subscriber: { id, type, address, status, created_at, updated_at, statusPageId: pageId },
      confirmation,
      confirmationError,
    })),
    userErrors: [],
  };
}

function subscriptionsBody(input: AddStatusPageSubscribersInput): Record<string, unknown> {
  const { subscribers, ...fields } = input;
  return { ...fields, subscriptions: subscribers && subscribers.map(({ address, ...s }) => ({ ...s, config: address })) };
}

const mutation: MutationResolvers = {
  createStatusPage: async (_root, { input }, ctx) => {
    // REST requires cards: a page created without any shows none.
    const body = { cards: [], ...pageBody(input) };
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestStatusPage>('POST', PAGES, body)).body);
    if (!value) return { statusPage: null, userErrors: underInput(userErrors, statusPageInputPath) };
    afterWrite(ctx);
    return { statusPage: primePage(ctx, value), userErrors: [] };
  },
  updateStatusPage: async (_root, { id, input }, ctx) => {
    const restId = pageIdOf(id);
    const body = pageBody(input);
    // REST takes name, url and cards on every update: what the input leaves out is sent back as stored.
    if (input.name == null || input.url == null || input.cards == null) {
      const stored = (await ctx.rest.get<RestStatusPage>(`${PAGES}/${restId}`)).body;
      body.name = input.name ?? stored.name;
      body.url = input.url ?? stored.url;
      body.cards = input.cards == null ? keptCards(stored) : body.cards;
    }
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestStatusPage>('PUT', `${PAGES}/${restId}`, body)).body);
    if (!value) return { statusPage: null, userErrors: underInput(userErrors, statusPageInputPath) };
    afterWrite(ctx);
    return { statusPage: primePage(ctx, value), userErrors: [] };
  },
  deleteStatusPage: async (_root, { id }, ctx) => {
    const restId = pageIdOf(id);
    await ctx.rest.send('DELETE', `${PAGES}/${restId}`);
    afterWrite(ctx);
    return { deletedId: toGlobalId('StatusPage', restId), userErrors: [] };
  },
  addStatusPageSubscribers: async (_root, { statusPageId, input }, ctx) => {
    const restId = pageIdOf(statusPageId);
    const { value, userErrors } = await withUserErrors(async () =>
      (await ctx.rest.send<RestSubscriptionBulkResult>('POST', `${PAGES}/${restId}/subscriptions/bulk`, subscriptionsBody(input))).body);
    if (!value) return { created: null, skipped: null, status: null, added: [], userErrors: underInput(userErrors, subscribersInputPath) };
    afterWrite(ctx);
    return addedOf(restId, value);
  },
  deleteStatusPageSubscriber: async (_root, { id }, ctx) => {
    const { statusPageId, subscriberId } = subscriberIdsOf(id);
    await ctx.rest.send('DELETE', `${PAGES}/${statusPageId}/subscriptions/${subscriberId}`);
    afterWrite(ctx);
    return { deletedId: statusPageSubscriberGlobalId(statusPageId, subscriberId), userErrors: [] };
  },
};

/** Status page and subscriber mutations: create, update and delete of pages, adding and removing subscribers. */
export const statusPageMutationResolvers: Resolvers = { Mutation: mutation };
