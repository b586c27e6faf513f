import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../../src/graphql/global-id.js';
import { statusPageInputPath, subscribersInputPath } from '../../src/graphql/resolvers/status-page-mutation-resolvers.js';
import {
  cardRestId, statusPageCardGlobalId, statusPageCardRestIds, statusPageSubscriberGlobalId, statusPageSubscriberRestIds,
} from '../../src/graphql/status-page-ids.js';
import { touchesStatusPage } from '../../src/graphql/subscriptions/status-page-subscription-resolvers.js';
import { BACKENDS } from '../support/backends.js';
import { gql, gqlCounted, gqlData } from '../support/graphql.js';
import { connectGraphqlWs, subscribe } from '../support/graphql-ws-client.js';
import { startSubscriptionLayer } from '../support/subscription-layer.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const PAGES = '/v1/status-pages';
const SERVICES = '/v1/status-pages/services';
const subscriptionsOf = (pageId: string) => `${PAGES}/${pageId}/subscriptions`;

const CARD = 'id cardId name createdAt updatedAt services { serviceId name }';
const PAGE = `id statusPageId name url description customDomain logo logoDark favicon redirectTo defaultTheme isPrivate whiteLabel createdAt updatedAt
  themeColors { light { linkFontColor bodyBackgroundColor } dark { linkFontColor } } cards { ${CARD} } services { serviceId }`;
const SUBSCRIBER = 'id subscriberId type address status createdAt updatedAt';
const ERRORS = 'userErrors { field code message }';

const CREATE_PAGE = `mutation($input: StatusPageInput!) { r: createStatusPage(input: $input) { statusPage { ${PAGE} } ${ERRORS} } }`;
const UPDATE_PAGE = `mutation($id: ID!, $input: StatusPageInput!) { r: updateStatusPage(id: $id, input: $input) { statusPage { ${PAGE} } ${ERRORS} } }`;
const DELETE_PAGE = 'mutation($id: ID!) { r: deleteStatusPage(id: $id) { deletedId userErrors { field } } }';
const ADD_SUBSCRIBERS = `mutation($id: ID!, $input: AddStatusPageSubscribersInput!) { r: addStatusPageSubscribers(statusPageId: $id, input: $input) {
  created skipped status added { subscriber { ${SUBSCRIBER} statusPage { statusPageId } } confirmation confirmationError } ${ERRORS} } }`;
const DELETE_SUBSCRIBER = 'mutation($id: ID!) { r: deleteStatusPageSubscriber(id: $id) { deletedId userErrors { field } } }';

describe('the input paths and ids of status pages', () => {
  it.each([
    ['name', statusPageInputPath, 'name'],
    ['cards.0.name', statusPageInputPath, 'cards.0.name'],
    ['cards.3.services.12.id', statusPageInputPath, 'cards.3.services.12'],
    ['cards.0.id', statusPageInputPath, 'cards.0.id'],
    ['themeColors.light.linkFontColor', statusPageInputPath, 'themeColors.light.linkFontColor'],
    ['subscriptions', subscribersInputPath, 'subscribers'],
    ['subscriptions.4.config', subscribersInputPath, 'subscribers.4.address'],
    ['subscriptions.0.type', subscribersInputPath, 'subscribers.0.type'],
    ['subscriptionsExtra', subscribersInputPath, 'subscriptionsExtra'],
    ['autoVerify', subscribersInputPath, 'autoVerify'],
  ])('maps the REST key %s to its input path', (key, map, path) => {
    expect(map(key)).toBe(path);
  });

  it('reads card and subscriber ids back from their global ids or `statusPageId:id`, and nothing else', () => {
    const [page, child] = [crypto.randomUUID(), crypto.randomUUID()];
    expect(statusPageCardRestIds(statusPageCardGlobalId(page, child))).toEqual({ statusPageId: page, cardId: child });
    expect(statusPageCardRestIds(`${page.toUpperCase()}:${child}`)).toEqual({ statusPageId: page, cardId: child });
    expect(statusPageSubscriberRestIds(statusPageSubscriberGlobalId(page, child))).toEqual({ statusPageId: page, subscriberId: child });
    expect(statusPageSubscriberRestIds(statusPageCardGlobalId(page, child))).toBeNull();
    expect(statusPageCardRestIds(child)).toBeNull();
    expect(statusPageCardRestIds(`${page}:${child}:${child}`)).toBeNull();
    expect(cardRestId(statusPageCardGlobalId(page, child))).toBe(child);
    expect(cardRestId(child.toUpperCase())).toBe(child);
    expect(cardRestId('card-1')).toBeNull();
  });

  it.each<[string, string, string, string | null, boolean]>([
    ['a write of the followed page', 'statusPage', 'p1', 'p1', true],
    ['a write of another page', 'statusPage', 'p2', 'p1', false],
    ['subscribers of the followed page', 'subscription', 'p1', 'p1', true],
    ['subscribers of another page', 'subscription', 'p2', 'p1', false],
    ['a service, which any page may show', 'service', 's1', 'p1', true],
    ['an incident, which may affect any service', 'incident', 'i1', 'p1', true],
    ['a maintenance window, which may affect any service', 'maintenance', '7', 'p1', true],
    ['a dashboard, never on a status page', 'dashboard', 'd1', 'p1', false],
    ['a dashboard, even when no page is followed', 'dashboard', 'd1', null, false],
    ['a write of any page when no page is followed', 'statusPage', 'p2', null, true],
  ])('passes on %s: %s', (_what, subject, subjectId, followed, passes) => {
    const event = { type: 'publicContentChanged' as const, accountId: 'a', version: 1, subject: subject as never, subjectId };
    expect(touchesStatusPage(event, followed)).toBe(passes);
  });
});

describe.each(BACKENDS)('GraphQL status pages, cards and subscribers on $name', (backend) => {
  let s: TestServer;
  let api: string;
  let web: string;
  let theirs: string;
  let slugs = 0;
  const sockets: Client[] = [];
  /** A url slug no other test of this file uses. */
  const slug = (prefix = 'gql') => `${prefix}-${backend.name}-${++slugs}`;

  beforeAll(async () => {
    s = await startTestServer({ backend });
    api = (await s.a.request('POST', SERVICES, { name: 'API' })).body.id;
    web = (await s.a.request('POST', SERVICES, { name: 'Website' })).body.id;
    theirs = (await s.b.request('POST', SERVICES, { name: 'Theirs' })).body.id;
  });
  afterAll(async () => {
    await Promise.all(sockets.map((c) => c.dispose()));
    await s?.close();
  });

  const count = async (table: string) => (await s.lookout.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const counts = () => Promise.all(['status_pages', 'status_page_cards', 'status_page_card_services', 'status_page_subscriptions'].map(count));
  const restPage = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const res = await client.request('POST', PAGES, { name: 'Acme status', url: slug(), cards: [], ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const counted = (client: TestClient, query: string, variables?: Record<string, unknown>) => gqlCounted(s, client, query, variables);
  const ok = gqlData;

  describe('queries, relations and mutations', () => {
    it('creates a page whose cards name services by global and REST id, and reads it back in every direction', async () => {
      const url = slug('acme');
      const created = await ok(s.a, CREATE_PAGE, { input: {
        name: 'Acme status', url, description: 'How Acme is doing', defaultTheme: 'DARK', logo: 'https://acme.example/logo.png',
        themeColors: { light: { linkFontColor: '#FF0000' } },
        cards: [{ name: 'Core', services: [toGlobalId('StatusPageService', api), web] }, { name: 'Empty' }],
      } });
      expect(created.r.userErrors).toEqual([]);
      const page = created.r.statusPage;
      expect(page).toMatchObject({
        id: toGlobalId('StatusPage', page.statusPageId), name: 'Acme status', url, description: 'How Acme is doing', defaultTheme: 'DARK',
        isPrivate: false, whiteLabel: false, customDomain: null, logo: 'https://acme.example/logo.png', logoDark: null, updatedAt: null,
        themeColors: { light: { linkFontColor: '#FF0000', bodyBackgroundColor: null }, dark: null },
        services: [{ serviceId: api }, { serviceId: web }],
      });
      expect(page.cards.map((c: any) => [c.name, c.services.map((x: any) => x.name)])).toEqual([['Core', ['API', 'Website']], ['Empty', []]]);
      const [core] = page.cards;
      expect(core.id).toBe(statusPageCardGlobalId(page.statusPageId, core.cardId));
      const rest = (await s.a.request('GET', `${PAGES}/${page.statusPageId}`)).body;
      expect(rest.cards.map((c: any) => c.id)).toEqual(page.cards.map((c: any) => c.cardId));

      const read = await ok(s.a, `query($id: ID!, $rest: ID!, $card: ID!, $svc: ID!) {
        byGlobal: statusPage(id: $id) { ${PAGE} }
        byRest: statusPage(id: $rest) { statusPageId }
        card: node(id: $card) { ... on StatusPageCard { name page { statusPageId cards { cardId } } services { name statusPages { statusPageId } } } }
        service: statusPageService(id: $svc) { statusPages { statusPageId cards { name } } }
      }`, { id: page.id, rest: page.statusPageId.toUpperCase(), card: core.id, svc: web });
      expect(read.byGlobal).toEqual(page);
      expect(read.byRest).toEqual({ statusPageId: page.statusPageId });
      expect(read.card.page).toEqual({ statusPageId: page.statusPageId, cards: page.cards.map((c: any) => ({ cardId: c.cardId })) });
      expect(read.card.services[0].statusPages).toContainEqual({ statusPageId: page.statusPageId });
      expect(read.service.statusPages).toContainEqual({ statusPageId: page.statusPageId, cards: [{ name: 'Core' }, { name: 'Empty' }] });
    });

    it('updates only what the input names, keeping name, url and cards (with their ids) that it leaves out', async () => {
      const stored = await restPage(s.a, { name: 'Kept', description: 'Old', cards: [{ name: 'One', services: [{ id: api }] }, { name: 'Two' }] });
      const id = toGlobalId('StatusPage', stored.id);
      const described = await ok(s.a, UPDATE_PAGE, { id, input: { description: 'New', defaultTheme: 'LIGHT' } });
      expect(described.r.userErrors).toEqual([]);
      expect(described.r.statusPage).toMatchObject({ name: 'Kept', url: stored.url, description: 'New', defaultTheme: 'LIGHT', updatedAt: expect.any(String) });
      expect(described.r.statusPage.cards.map((c: any) => [c.cardId, c.name, c.services.map((x: any) => x.serviceId)]))
        .toEqual(stored.cards.map((c: any) => [c.id, c.name, c.services.map((x: any) => x.id)]));

      const [one] = stored.cards;
      const recarded = await ok(s.a, UPDATE_PAGE, { id: stored.id, input: {
        description: null,
        cards: [{ id: statusPageCardGlobalId(stored.id, one.id), name: 'One, renamed', services: [web, toGlobalId('StatusPageService', api)] }, { name: 'Three' }],
      } });
      expect(recarded.r.statusPage.description).toBeNull();
      expect(recarded.r.statusPage.cards.map((c: any) => [c.name, c.services.map((x: any) => x.name)])).toEqual([['One, renamed', ['Website', 'API']], ['Three', []]]);
      expect(recarded.r.statusPage.cards[0].cardId).toBe(one.id);
      const rest = (await s.a.request('GET', `${PAGES}/${stored.id}`)).body;
      expect(rest.cards.map((c: any) => c.name)).toEqual(['One, renamed', 'Three']);
      expect(rest.name).toBe('Kept');
    });

    it('answers a url another account took with CONFLICT, and keeps the page as it was', async () => {
      const taken = (await restPage(s.b)).url;
      const mine = await restPage(s.a);
      const before = await counts();
      const created = await gql(s.a, CREATE_PAGE, { input: { name: 'Copy', url: taken } });
      expect(created.errors?.[0]?.extensions?.code).toBe('CONFLICT');
      const moved = await gql(s.a, UPDATE_PAGE, { id: mine.id, input: { url: taken } });
      expect(moved.errors?.[0]?.extensions?.code).toBe('CONFLICT');
      expect(await counts()).toEqual(before);
      expect((await s.a.request('GET', `${PAGES}/${mine.id}`)).body.url).toBe(mine.url);
    });

    it('deletes a page, after which it, its cards and its subscribers read as null, and its services stay', async () => {
      const page = await restPage(s.a, { cards: [{ name: 'Gone soon', services: [{ id: api }] }] });
      await s.a.request('POST', `${subscriptionsOf(page.id)}/bulk`, { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'gone@example.com' }] });
      const subscriber = (await s.a.request('GET', subscriptionsOf(page.id))).body[0];
      const id = toGlobalId('StatusPage', page.id);
      expect((await ok(s.a, DELETE_PAGE, { id })).r).toEqual({ deletedId: id, userErrors: [] });
      const ids = [id, statusPageCardGlobalId(page.id, page.cards[0].id), statusPageSubscriberGlobalId(page.id, subscriber.id)];
      expect(await ok(s.a, 'query($id: ID!, $ids: [ID!]!) { statusPage(id: $id) { id } nodes(ids: $ids) { id } }', { id, ids }))
        .toEqual({ statusPage: null, nodes: [null, null, null] });
      expect((await s.a.request('GET', `${PAGES}/${page.id}`)).status).toBe(404);
      expect((await s.a.request('GET', `${SERVICES}/${api}`)).status).toBe(200);
    });

    it('pages through status pages, newest first, as a connection over the REST cursor list', async () => {
      for (let i = 0; i < 3; i++) await restPage(s.a, { name: `Paged ${i}` });
      const restIds = (await s.a.request('GET', `${PAGES}?limit=100`)).body.entries.map((e: any) => e.id);
      const seen: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page: any = (await ok(s.a, 'query($after: String) { statusPages(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { statusPageId } } }', { after })).statusPages;
        expect(page.totalCount).toBeNull();
        seen.push(...page.nodes.map((n: any) => n.statusPageId));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      expect(seen).toEqual(restIds);
    });

    it('lists the checks whose incident automation names a service, and the service of a check walks back to them', async () => {
      const service = (await s.a.request('POST', SERVICES, { name: 'Automated' })).body.id;
      const check = async (name: string, triggerIncident?: Record<string, unknown>) => {
        const res = await s.a.request('POST', '/v1/checks/api', { name, request: { url: 'https://example.test' }, triggerIncident });
        expect(res.status).toBe(201);
        return res.body.id;
      };
      const named = [await check('Names it', { serviceId: service, name: 'Down' }), await check('Names it too', { serviceId: service.toUpperCase(), name: 'Down' })];
      await check('Names another', { serviceId: web, name: 'Down' });
      await check('Names none');
      const res = await ok(s.a, `query($id: ID!) { statusPageService(id: $id) { checks { checkId name triggerIncident { service { serviceId } } } } }`, { id: toGlobalId('StatusPageService', service) });
      expect(res.statusPageService.checks.map((c: any) => c.checkId).sort()).toEqual([...named].sort());
      for (const c of res.statusPageService.checks) expect(c.triggerIncident.service).toEqual({ serviceId: service });
    });
  });

  describe('subscribers', () => {
    let page: any;
    beforeAll(async () => {
      page = await restPage(s.a, { name: 'Subscribed' });
    });

    it('adds subscribers in bulk, lists them under the page, skips those it has, and never shows a secret', async () => {
      const input = { autoVerify: true, subscribers: [{ type: 'EMAIL', address: 'Ops@Example.com' }, { type: 'WEBHOOK', address: 'https://hooks.example/status' }] };
      const added = await ok(s.a, ADD_SUBSCRIBERS, { id: toGlobalId('StatusPage', page.id), input });
      expect(added.r).toMatchObject({ created: 2, skipped: 0, status: 'VERIFIED', userErrors: [] });
      expect(added.r.added.map((a: any) => [a.subscriber.type, a.subscriber.address, a.subscriber.status, a.confirmation, a.confirmationError, a.subscriber.statusPage]))
        .toEqual([
          ['EMAIL', 'Ops@Example.com', 'VERIFIED', 'NOT_NEEDED', null, { statusPageId: page.id }],
          ['WEBHOOK', 'https://hooks.example/status', 'VERIFIED', 'NOT_NEEDED', null, { statusPageId: page.id }],
        ]);
      const secrets = await s.lookout.store.db.query<{ webhook_secret: string }>('SELECT webhook_secret FROM status_page_subscriptions WHERE webhook_secret IS NOT NULL');
      expect(secrets.length).toBeGreaterThan(0);
      const listed = await gql(s.a, `query($id: ID!) { statusPage(id: $id) { subscribers { ${SUBSCRIBER} statusPage { statusPageId } } } }`, { id: page.id });
      for (const answer of [JSON.stringify(added), JSON.stringify(listed)]) {
        for (const { webhook_secret } of secrets) expect(answer).not.toContain(webhook_secret);
      }
      const restList = (await s.a.request('GET', subscriptionsOf(page.id))).body;
      expect(listed.data.statusPage.subscribers).toEqual(restList.map((r: any) => ({
        id: statusPageSubscriberGlobalId(page.id, r.id), subscriberId: r.id, type: r.type, address: r.address, status: r.status,
        createdAt: r.created_at, updatedAt: r.updated_at, statusPage: { statusPageId: page.id },
      })));

      const again = await ok(s.a, ADD_SUBSCRIBERS, { id: page.id, input: { autoVerify: true, subscribers: [{ type: 'EMAIL', address: 'ops@example.com' }] } });
      expect(again.r).toMatchObject({ created: 0, skipped: 1, added: [] });
    });

    it('removes a subscriber named by its global id or `statusPageId:subscriberId`', async () => {
      await s.a.request('POST', `${subscriptionsOf(page.id)}/bulk`, { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'one@example.com' }, { type: 'EMAIL', config: 'two@example.com' }] });
      const list = (await s.a.request('GET', subscriptionsOf(page.id))).body;
      const [one, two] = list.filter((r: any) => r.address.endsWith('@example.com') && ['one@example.com', 'two@example.com'].includes(r.address));
      const byGlobal = statusPageSubscriberGlobalId(page.id, one.id);
      expect((await ok(s.a, DELETE_SUBSCRIBER, { id: byGlobal })).r).toEqual({ deletedId: byGlobal, userErrors: [] });
      expect((await ok(s.a, DELETE_SUBSCRIBER, { id: `${page.id}:${two.id}` })).r.deletedId).toBe(statusPageSubscriberGlobalId(page.id, two.id));
      const left = (await s.a.request('GET', subscriptionsOf(page.id))).body.map((r: any) => r.id);
      expect(left).not.toContain(one.id);
      expect(left).not.toContain(two.id);
      expect((await ok(s.a, 'query($id: ID!) { node(id: $id) { id } }', { id: byGlobal })).node).toBeNull();
    });

    it('answers subscribers needing a confirmation mail while mail is not configured with CONFLICT, writing nothing', async () => {
      const before = await counts();
      const res = await gql(s.a, ADD_SUBSCRIBERS, { id: page.id, input: { subscribers: [{ type: 'EMAIL', address: 'confirm-me@example.com' }] } });
      expect(res.errors?.[0]?.extensions?.code).toBe('CONFLICT');
      expect(await counts()).toEqual(before);
    });
  });

  describe('node(id) and federation', () => {
    let ids: Record<string, string>;
    beforeAll(async () => {
      const page = await restPage(s.a, { name: 'Node page', cards: [{ name: 'Node card', services: [{ id: api }] }] });
      await s.a.request('POST', `${subscriptionsOf(page.id)}/bulk`, { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'node@example.com' }] });
      const subscriber = (await s.a.request('GET', subscriptionsOf(page.id))).body[0];
      ids = {
        StatusPage: toGlobalId('StatusPage', page.id),
        StatusPageCard: statusPageCardGlobalId(page.id, page.cards[0].id),
        StatusPageSubscriber: statusPageSubscriberGlobalId(page.id, subscriber.id),
      };
    });

    it('round-trips every new type through node, nodes and _entities', async () => {
      for (const [type, id] of Object.entries(ids)) {
        expect((await ok(s.a, 'query($id: ID!) { node(id: $id) { __typename id } }', { id })).node).toEqual({ __typename: type, id });
      }
      const many = await ok(s.a, 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids: Object.values(ids) });
      expect(many.nodes).toEqual(Object.entries(ids).map(([__typename, id]) => ({ __typename, id })));
      const entities = await ok(s.a, `query($r: [_Any!]!) { _entities(representations: $r) {
        __typename ... on StatusPage { name } ... on StatusPageCard { name page { name } } ... on StatusPageSubscriber { address statusPage { name } } } }`,
      { r: Object.entries(ids).map(([__typename, id]) => ({ __typename, id })) });
      expect(entities._entities).toEqual([
        { __typename: 'StatusPage', name: 'Node page' },
        { __typename: 'StatusPageCard', name: 'Node card', page: { name: 'Node page' } },
        { __typename: 'StatusPageSubscriber', address: 'node@example.com', statusPage: { name: 'Node page' } },
      ]);
    });

    it('keys every new node type by id in the published subgraph SDL', async () => {
      const sdl = (await ok(s.a, '{ _service { sdl } }'))._service.sdl as string;
      const keyed = [...sdl.matchAll(/^type (\w+)[^{]*@key\(fields: "id"\)/gm)].map((m) => m[1]);
      expect(keyed).toEqual(expect.arrayContaining(['StatusPage', 'StatusPageCard', 'StatusPageSubscriber']));
    });

    it.each([
      ['a page id under the card type', () => ({ __typename: 'StatusPageCard', id: ids.StatusPage })],
      ['a card id without its page', () => ({ __typename: 'StatusPageCard', id: toGlobalId('StatusPageCard', UNKNOWN) })],
      ['an unknown page', () => ({ __typename: 'StatusPage', id: toGlobalId('StatusPage', UNKNOWN) })],
      ['a subscriber of an unknown page', () => ({ __typename: 'StatusPageSubscriber', id: statusPageSubscriberGlobalId(UNKNOWN, UNKNOWN) })],
    ])('resolves the entity of %s to null', async (_name, representation) => {
      expect((await ok(s.a, 'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [representation()] }))._entities).toEqual([null]);
    });
  });

  describe('bad input', () => {
    let target: any;
    beforeAll(async () => {
      target = await restPage(s.a, { name: 'Target', cards: [{ name: 'Card', services: [{ id: api }] }] });
    });

    const valid = () => ({ name: 'Valid', url: slug('valid') });
    /** [what, mutation, variables, the fields its userErrors name, the payload's object]. */
    const BAD: [string, string, () => Record<string, unknown>, string[], string][] = [
      ['a page without any field', CREATE_PAGE, () => ({ input: {} }), ['name', 'url'], 'statusPage'],
      ['a blank name', CREATE_PAGE, () => ({ input: { ...valid(), name: '   ' } }), ['name'], 'statusPage'],
      ['a url with upper-case letters', CREATE_PAGE, () => ({ input: { ...valid(), url: 'Acme' } }), ['url'], 'statusPage'],
      ['a description over 500 characters', CREATE_PAGE, () => ({ input: { ...valid(), description: 'x'.repeat(501) } }), ['description'], 'statusPage'],
      ['a logo that is no http URL', CREATE_PAGE, () => ({ input: { ...valid(), logo: 'ftp://acme.example/logo.png' } }), ['logo'], 'statusPage'],
      ['a theme colour that is no colour', CREATE_PAGE, () => ({ input: { ...valid(), themeColors: { light: { linkFontColor: 'red' } } } }), ['themeColors.light.linkFontColor'], 'statusPage'],
      ['a private page without password', CREATE_PAGE, () => ({ input: { ...valid(), isPrivate: true } }), ['password'], 'statusPage'],
      ['a card without a name', CREATE_PAGE, () => ({ input: { ...valid(), cards: [{ services: [api] }] } }), ['cards.0.name'], 'statusPage'],
      ['a card service that can be no service', CREATE_PAGE, () => ({ input: { ...valid(), cards: [{ name: 'C', services: ['not-an-id'] }] } }), ['cards.0.services.0'], 'statusPage'],
      ['an unknown card service after a known one', CREATE_PAGE, () => ({ input: { ...valid(), cards: [{ name: 'C' }, { name: 'D', services: [api, UNKNOWN] }] } }), ['cards.1.services.1'], 'statusPage'],
      ["another account's service on a card", CREATE_PAGE, () => ({ input: { ...valid(), cards: [{ name: 'C', services: [toGlobalId('StatusPageService', theirs)] }] } }), ['cards.0.services.0'], 'statusPage'],
      ['a service twice on one card', CREATE_PAGE, () => ({ input: { ...valid(), cards: [{ name: 'C', services: [api, toGlobalId('StatusPageService', api)] }] } }), ['cards.0.services.1'], 'statusPage'],
      ['a page renamed to nothing', UPDATE_PAGE, () => ({ id: target.id, input: { name: '' } }), ['name'], 'statusPage'],
      ['a page given a card of an unknown service', UPDATE_PAGE, () => ({ id: target.id, input: { cards: [{ name: 'C', services: [UNKNOWN] }] } }), ['cards.0.services.0'], 'statusPage'],
      ['a page made private without password', UPDATE_PAGE, () => ({ id: target.id, input: { isPrivate: true } }), ['password'], 'statusPage'],
      ['a long name and a long description at once', UPDATE_PAGE, () => ({ id: target.id, input: { name: 'x'.repeat(256), description: 'x'.repeat(501) } }), ['name', 'description'], 'statusPage'],
      ['no subscribers', ADD_SUBSCRIBERS, () => ({ id: target.id, input: { subscribers: [] } }), ['subscribers'], 'created'],
      ['subscribers left out', ADD_SUBSCRIBERS, () => ({ id: target.id, input: { autoVerify: true } }), ['subscribers'], 'created'],
      ['an address without @', ADD_SUBSCRIBERS, () => ({ id: target.id, input: { autoVerify: true, subscribers: [{ type: 'EMAIL', address: 'ops.example.com' }] } }), ['subscribers.0.address'], 'created'],
      ['a webhook on ftp after a good one', ADD_SUBSCRIBERS, () => ({ id: target.id, input: { autoVerify: true, subscribers: [{ type: 'EMAIL', address: 'fine@example.com' }, { type: 'WEBHOOK', address: 'ftp://hooks.example/x' }] } }), ['subscribers.1.address'], 'created'],
      ['a subscriber without a type', ADD_SUBSCRIBERS, () => ({ id: target.id, input: { autoVerify: true, subscribers: [{ address: 'ops@example.com' }] } }), ['subscribers.0.type'], 'created'],
    ];

    it.each(BAD)('%s gives one userError per bad field, on its input path, and writes nothing', async (_what, mutation, variables, fields, object) => {
      const before = await counts();
      const stored = (await s.a.request('GET', `${PAGES}/${target.id}`)).body;
      const res = await gql(s.a, mutation, variables());
      expect(res.errors).toBeUndefined();
      expect(res.data.r[object]).toBeNull();
      expect(res.data.r.userErrors.map((e: any) => e.field).sort()).toEqual([...fields].sort());
      for (const e of res.data.r.userErrors) expect(e).toEqual({ field: expect.any(String), code: 'BAD_USER_INPUT', message: expect.any(String) });
      expect(await counts()).toEqual(before);
      expect((await s.a.request('GET', `${PAGES}/${target.id}`)).body).toEqual(stored);
    });

    it.each([
      ['an unknown default theme', CREATE_PAGE, { input: { name: 'x', url: 'x', defaultTheme: 'PURPLE' } }],
      ['an unknown subscriber type', ADD_SUBSCRIBERS, { id: UNKNOWN, input: { subscribers: [{ type: 'SMS', address: '+15550100' }] } }],
      ['an unknown input field', CREATE_PAGE, { input: { name: 'x', url: 'x', colour: 'red' } }],
    ])('rejects %s before any REST call', async (_what, mutation, variables) => {
      const before = await counts();
      const { res, count: calls } = await counted(s.a, mutation, variables);
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(calls).toBe(0);
      expect(await counts()).toEqual(before);
    });
  });

  describe('accounts', () => {
    let mine: any;
    let subscriber: string;
    beforeAll(async () => {
      mine = await restPage(s.a, { name: 'Private to a', cards: [{ name: 'Card', services: [{ id: api }] }] });
      await s.a.request('POST', `${subscriptionsOf(mine.id)}/bulk`, { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'mine@example.com' }] });
      subscriber = statusPageSubscriberGlobalId(mine.id, (await s.a.request('GET', subscriptionsOf(mine.id))).body[0].id);
    });

    it('reads nothing of another account: its ids are null everywhere and its pages are not listed', async () => {
      const res = await ok(s.b, `query($page: ID!, $card: ID!, $sub: ID!) {
        statusPage(id: $page) { id } nodes(ids: [$page, $card, $sub]) { id }
        statusPages(first: 100) { nodes { statusPageId } }
        statusPageServices(first: 100) { nodes { serviceId statusPages { statusPageId } checks { checkId } } }
      }`, { page: toGlobalId('StatusPage', mine.id), card: statusPageCardGlobalId(mine.id, mine.cards[0].id), sub: subscriber });
      expect(res).toMatchObject({ statusPage: null, nodes: [null, null, null] });
      expect(res.statusPages.nodes.map((n: any) => n.statusPageId)).not.toContain(mine.id);
      expect(res.statusPageServices.nodes).toEqual([{ serviceId: theirs, statusPages: expect.any(Array), checks: [] }]);
      for (const p of res.statusPageServices.nodes[0].statusPages) expect(p.statusPageId).not.toBe(mine.id);
    });

    it.each<[string, string, () => Record<string, unknown>]>([
      ['updateStatusPage', UPDATE_PAGE, () => ({ id: mine.id, input: { name: 'Taken' } })],
      ['deleteStatusPage', DELETE_PAGE, () => ({ id: toGlobalId('StatusPage', mine.id) })],
      ['addStatusPageSubscribers', ADD_SUBSCRIBERS, () => ({ id: mine.id, input: { autoVerify: true, subscribers: [{ type: 'EMAIL', address: 'sneaky@example.com' }] } })],
      ['deleteStatusPageSubscriber', DELETE_SUBSCRIBER, () => ({ id: subscriber })],
    ])("%s of another account's id is NOT_FOUND and changes nothing", async (_name, mutation, variables) => {
      const before = await counts();
      const page = (await s.a.request('GET', `${PAGES}/${mine.id}`)).body;
      const res = await gql(s.b, mutation, variables());
      expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(await counts()).toEqual(before);
      expect((await s.a.request('GET', `${PAGES}/${mine.id}`)).body).toEqual(page);
    });

    it('answers an id that can name nothing with NOT_FOUND, before any REST call', async () => {
      for (const mutation of ['deleteStatusPage(id: "nope")', `deleteStatusPageSubscriber(id: "${UNKNOWN}")`, 'updateStatusPage(id: "nope", input: {name: "x"})',
        `addStatusPageSubscribers(statusPageId: "${toGlobalId('StatusPageService', api)}", input: {})`]) {
        const { res, count: calls } = await counted(s.a, `mutation { r: ${mutation} { userErrors { field } } }`);
        expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
        expect(calls).toBe(0);
      }
    });
  });

  describe('batching', () => {
    const pages: string[] = [];
    beforeAll(async () => {
      const services = (await Promise.all(Array.from({ length: 6 }, (_, i) => s.a.request('POST', SERVICES, { name: `Batched ${i}` })))).map((r) => r.body.id);
      for (let i = 0; i < 5; i++) {
        const page = await restPage(s.a, { name: `Batched page ${i}`, cards: [
          { name: 'First', services: [{ id: services[i] }, { id: services[i + 1] }] }, { name: 'Second', services: [{ id: services[(i + 2) % 6] }] },
        ] });
        pages.push(page.id);
        await s.a.request('POST', `${subscriptionsOf(page.id)}/bulk`, { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: `batched${i}@example.com` }] });
        await s.a.request('POST', '/v1/checks/api', { name: `Batched check ${i}`, request: { url: 'https://example.test' }, triggerIncident: { serviceId: services[i], name: 'x' } });
      }
    });

    it.each([
      ['pages with cards, their services, the pages showing each service and the checks naming it', 3,
        '{ statusPages(first: 100) { nodes { name cards { page { name } services { name statusPages { name } checks { name } } } services { statusPages { cards { name } } } } } }'],
      ['checks with the service of their automation, the pages showing it and the checks naming it', 4,
        '{ checks(first: 50) { nodes { name triggerIncident { service { name statusPages { name cards { services { checks { name } } } } } } } } }'],
    ])('answers %s with %i REST calls, as counted by the service', async (_what, calls, query) => {
      const { res, count } = await counted(s.a, query);
      expect(res.errors).toBeUndefined();
      expect(res.extensions?.cost?.restCalls).toBe(calls);
      expect(count).toBe(calls);
    });

    it('loads several pages by id with one call, one page with one call, and each page\'s subscribers with one call', async () => {
      const many = await counted(s.a, 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on StatusPage { name } } }', { ids: pages.map((id) => toGlobalId('StatusPage', id)) });
      expect(many.res.data.nodes.map((n: any) => n.name)).toEqual(pages.map((_, i) => `Batched page ${i}`));
      expect(many.count).toBe(1);
      const one = await counted(s.a, `{ statusPage(id: "${pages[0]}") { name cards { page { name } } } }`);
      expect(one.res.data.statusPage.name).toBe('Batched page 0');
      expect(one.count).toBe(1);
      const subscribers = await counted(s.a, `query($ids: [ID!]!) { nodes(ids: $ids) { ... on StatusPage { subscribers { address statusPage { name } } } } }`, { ids: pages.map((id) => toGlobalId('StatusPage', id)) });
      expect(subscribers.res.data.nodes.map((n: any) => n.subscribers.map((x: any) => x.address))).toEqual(pages.map((_, i) => [`batched${i}@example.com`]));
      expect(subscribers.count).toBe(1 + pages.length);
      expect(subscribers.res.extensions?.cost?.restCalls).toBe(1 + pages.length);
    });
  });

  describe('statusPageChanged over graphql-ws', () => {
    const EVENTS = 'subscription($id: ID) { statusPageChanged(statusPageId: $id) { subject subjectId version statusPage { statusPageId name } } }';
    const connect = async (c: TestClient) => {
      const client = await connectGraphqlWs(s.url, { authorization: `Bearer ${c.apiKey}`, accountId: c.accountId });
      sockets.push(client);
      return client;
    };

    it("streams the caller's status page changes only, another account's never, with the page read afresh", async () => {
      const monitor = s.lookout.graphqlSubscriptions!.monitor;
      const page = await restPage(s.a, { name: 'Streamed' });
      const aSub = await subscribe(await connect(s.a), monitor, EVENTS);
      const bSub = await subscribe(await connect(s.b), monitor, EVENTS);
      await ok(s.a, UPDATE_PAGE, { id: page.id, input: { name: 'Streamed, renamed' } });
      const theirs2 = await restPage(s.b, { name: 'Theirs' });
      // b's own write came after a's: had a's reached b, it would have come first.
      expect((await bSub.next()).data.statusPageChanged).toMatchObject({ subject: 'STATUS_PAGE', subjectId: theirs2.id, statusPage: { name: 'Theirs' } });
      const event = (await aSub.next()).data.statusPageChanged;
      expect(event).toEqual({ subject: 'STATUS_PAGE', subjectId: page.id, version: expect.any(Number), statusPage: { statusPageId: page.id, name: 'Streamed, renamed' } });
      await ok(s.a, DELETE_PAGE, { id: page.id });
      const deleted = (await aSub.next()).data.statusPageChanged;
      expect(deleted).toMatchObject({ subject: 'STATUS_PAGE', subjectId: page.id, statusPage: null });
      expect(deleted.version).toBeGreaterThan(event.version);
      aSub.dispose();
      bSub.dispose();
    });

    it('narrows to one page (by global or REST id): its own writes and subscribers, and the account\'s service, incident and maintenance changes', async () => {
      const monitor = s.lookout.graphqlSubscriptions!.monitor;
      const [watched, other] = [await restPage(s.a, { name: 'Watched' }), await restPage(s.a, { name: 'Other' })];
      const client = await connect(s.a);
      const byGlobal = await subscribe(client, monitor, EVENTS, { id: toGlobalId('StatusPage', watched.id) });
      const byRest = await subscribe(client, monitor, EVENTS, { id: watched.id.toUpperCase() });
      await s.a.request('PUT', `${PAGES}/${other.id}`, { name: 'Other, renamed', url: other.url, cards: [] });
      await s.a.request('POST', '/v1/dashboards', {});
      await s.a.request('POST', `${subscriptionsOf(other.id)}/bulk`, { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'other@example.com' }] });
      await s.a.request('PUT', `${SERVICES}/${web}`, { name: 'Website (renamed)' });
      const incident = (await s.a.request('POST', '/v1/status-pages/incidents', { name: 'Outage', severity: 'MINOR', services: [{ id: api }], incidentUpdates: [] })).body.id;
      const start = Date.now() + 86_400_000;
      const windowId = (await s.a.request('POST', '/v1/maintenance-windows', { name: 'Upgrade', startsAt: new Date(start).toISOString(), endsAt: new Date(start + 3_600_000).toISOString() })).body.id;
      await s.a.request('POST', `${subscriptionsOf(watched.id)}/bulk`, { autoVerify: true, subscriptions: [{ type: 'EMAIL', config: 'watcher@example.com' }] });
      await s.a.request('PUT', `${PAGES}/${watched.id}`, { name: 'Watched, renamed', url: watched.url, cards: [] });
      for (const sub of [byGlobal, byRest]) {
        // The page is read when each event is executed: only the last event is sure to show it renamed.
        expect((await sub.next()).data.statusPageChanged).toMatchObject({ subject: 'SERVICE', subjectId: web, statusPage: { statusPageId: watched.id } });
        expect((await sub.next()).data.statusPageChanged).toMatchObject({ subject: 'INCIDENT', subjectId: incident, statusPage: { statusPageId: watched.id } });
        expect((await sub.next()).data.statusPageChanged).toMatchObject({ subject: 'MAINTENANCE', subjectId: String(windowId), statusPage: { statusPageId: watched.id } });
        expect((await sub.next()).data.statusPageChanged).toMatchObject({ subject: 'SUBSCRIPTION', subjectId: watched.id, statusPage: { statusPageId: watched.id } });
        expect((await sub.next()).data.statusPageChanged).toMatchObject({ subject: 'STATUS_PAGE', subjectId: watched.id, statusPage: { name: 'Watched, renamed' } });
        sub.dispose();
      }
      await s.a.request('PUT', `${SERVICES}/${web}`, { name: 'Website' });
    });

    it('is served by a separately deployed subscription layer too: the event\'s own fields, and the page as BACKEND_UNAVAILABLE there', async () => {
      const layer = await startSubscriptionLayer(s);
      try {
        const client = await connectGraphqlWs(layer.url, { authorization: `Bearer ${s.a.apiKey}`, accountId: s.a.accountId });
        sockets.push(client);
        const sub = await subscribe(client, layer.subscriptions.monitor, 'subscription { statusPageChanged { subject subjectId statusPage { name } } }');
        const page = await restPage(s.a, { name: 'Via the layer' });
        const { data, errors } = await sub.next();
        expect(data.statusPageChanged).toEqual({ subject: 'STATUS_PAGE', subjectId: page.id, statusPage: null });
        expect(errors).toEqual([expect.objectContaining({ path: ['statusPageChanged', 'statusPage'], extensions: expect.objectContaining({ code: 'BACKEND_UNAVAILABLE' }) })]);
        sub.dispose();
      } finally {
        await layer.close();
      }
    });

    it.each([['garbage', 'not-a-page'], ["a service's global id", toGlobalId('StatusPageService', UNKNOWN)]])(
      'refuses %s as the statusPageId with BAD_USER_INPUT', async (_what, id) => {
        const client = await connect(s.a);
        const errors = await new Promise<unknown>((resolve) => {
          client.subscribe({ query: EVENTS, variables: { id } }, { next: (v) => resolve(v.errors), error: resolve, complete: () => resolve(null) });
        });
        expect(errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
      },
    );
  });
});
