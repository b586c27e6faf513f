import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStatusPagesService } from '../../src/service/status-pages-service.js';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const PAGES = '/v1/status-pages';
const SERVICES = '/v1/status-pages/services';
const pageOf = (id: string) => `${PAGES}/${id}`;

const LIGHT = {
  bodyBackgroundColor: '#F9FAFB', headerBackgroundColor: '#fff', headerFontColor: '#151A1E', titleFontColor: '#212930',
  bodyFontColor: '#475766', bodyFontColorMuted: '#60758a', navigationFontColor: '#151A1E', linkFontColor: '#FF0000',
  cardBackgroundColor: '#FFFFFF', borderColor: '#E1E7ED', primaryButtonBackgroundColor: '#0075FF', primaryButtonFontColor: '#FFF',
};

describe.each(BACKENDS)('status pages with cards and theme over REST ($name)', (backend) => {
  let s: TestServer;
  let api: string;
  let web: string;
  let theirs: string;
  let slugs = 0;
  /** A url slug no other test of this file uses. */
  const slug = (prefix = 'page') => `${prefix}-${++slugs}`;

  beforeAll(async () => {
    s = await startTestServer({ backend });
    api = (await s.a.request('POST', SERVICES, { name: 'API' })).body.id;
    web = (await s.a.request('POST', SERVICES, { name: 'Website' })).body.id;
    theirs = (await s.b.request('POST', SERVICES, { name: 'Theirs' })).body.id;
  });
  afterAll(async () => s?.close());

  const count = async (table: string) => (await s.lookout.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const counts = async () => Promise.all(['status_pages', 'status_page_cards', 'status_page_card_services'].map(count));
  const createPage = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const res = await client.request('POST', PAGES, { name: 'Acme status', url: slug(), cards: [], ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };

  it('creates a page with cards and theme, reads, lists and deletes it', async () => {
    const url = slug('acme');
    const created = await s.a.request('POST', PAGES, {
      name: 'Acme status',
      url,
      description: 'How Acme is doing',
      customDomain: 'Status.Acme.example',
      themeColors: { light: LIGHT, dark: { linkFontColor: '#abc' } },
      logo: 'https://acme.example/logo.png',
      logoDark: null,
      favicon: 'http://acme.example/favicon.ico',
      redirectTo: 'https://acme.example',
      defaultTheme: 'DARK',
      cards: [
        { name: 'Core', services: [{ id: web }, { id: api.toUpperCase() }] },
        { name: 'Empty', id: UNKNOWN, statusPageId: UNKNOWN },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      accountId: s.a.accountId,
      name: 'Acme status',
      url,
      description: 'How Acme is doing',
      customDomain: 'status.acme.example',
      themeColors: { light: LIGHT, dark: { linkFontColor: '#abc' } },
      logo: 'https://acme.example/logo.png',
      logoDark: null,
      favicon: 'http://acme.example/favicon.ico',
      redirectTo: 'https://acme.example',
      defaultTheme: 'DARK',
      isPrivate: false,
      whiteLabel: false,
      projectBindings: [],
      cards: [
        {
          id: expect.any(String), name: 'Core', created_at: expect.any(String), updated_at: null,
          services: [expect.objectContaining({ id: web, name: 'Website', accountId: s.a.accountId }), expect.objectContaining({ id: api, name: 'API' })],
        },
        { id: expect.any(String), name: 'Empty', services: [], created_at: expect.any(String), updated_at: null },
      ],
      created_at: expect.any(String),
      updated_at: null,
    });
    // Card ids on create name nothing yet: they are new cards.
    expect(created.body.cards[1].id).not.toBe(UNKNOWN);
    const id = created.body.id as string;
    expect((await s.a.request('GET', pageOf(id))).body).toEqual(created.body);
    const list = await s.a.request('GET', PAGES);
    expect(list.body.entries.find((p: { id: string }) => p.id === id)).toEqual(created.body);

    expect((await s.a.request('DELETE', pageOf(id))).status).toBe(204);
    expect((await s.a.request('GET', pageOf(id))).status).toBe(404);
    expect((await s.a.request('DELETE', pageOf(id))).status).toBe(404);
    expect((await s.a.request('PUT', pageOf(id), { name: 'x', url, cards: [] })).status).toBe(404);
    // The services stay; the page's cards go with it.
    expect((await s.a.request('GET', `${SERVICES}/${api}`)).status).toBe(200);
    expect(await count('status_page_cards')).toBe(0);
  });

  it('fills defaults: AUTO theme, public, no description, theme, domain or links', async () => {
    const page = await createPage(s.a, { name: 'Bare' });
    expect(page).toMatchObject({
      description: null, customDomain: null, themeColors: null, logo: null, logoDark: null, favicon: null, redirectTo: null,
      defaultTheme: 'AUTO', isPrivate: false, cards: [],
    });
    // "" means none for the custom domain and the links.
    const blank = await createPage(s.a, { customDomain: '', logo: '', redirectTo: '' });
    expect(blank).toMatchObject({ customDomain: null, logo: null, redirectTo: null });
    await s.a.request('DELETE', pageOf(page.id));
    await s.a.request('DELETE', pageOf(blank.id));
  });

  it('updates with the create body: cards sent with their id are kept, others added or removed; absent keeps, null clears', async () => {
    const page = await createPage(s.a, {
      description: 'before', logo: 'https://acme.example/a.png', customDomain: 'keep.acme.example', defaultTheme: 'LIGHT',
      themeColors: { light: { linkFontColor: '#111111', borderColor: '#222' }, dark: { borderColor: '#333' } },
      cards: [{ name: 'One', services: [{ id: api }] }, { name: 'Two', services: [{ id: web }] }, { name: 'Three' }],
    });
    const [one, two, three] = page.cards as { id: string; created_at: string }[];
    const res = await s.a.request('PUT', pageOf(page.id), {
      name: 'Renamed',
      url: page.url,
      description: null,
      logo: undefined,
      themeColors: { light: { linkFontColor: '#444444' }, dark: null },
      cards: [
        { id: three!.id, statusPageId: page.id, name: 'Three' },
        { name: 'New', services: [{ id: api }, { id: web }] },
        { id: one!.id.toUpperCase(), name: 'One', services: [{ id: api }] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Renamed', description: null, logo: 'https://acme.example/a.png', customDomain: 'keep.acme.example', defaultTheme: 'LIGHT',
      themeColors: { light: { linkFontColor: '#444444', borderColor: '#222' } },
      updated_at: expect.any(String),
    });
    expect(res.body.themeColors.dark).toBeUndefined();
    const cards = res.body.cards as { id: string; name: string; services: { id: string }[]; created_at: string; updated_at: string | null }[];
    expect(cards.map((c) => c.name)).toEqual(['Three', 'New', 'One']);
    expect(cards[0]).toMatchObject({ id: three!.id, created_at: three!.created_at, updated_at: expect.any(String) });
    expect(cards[1]!.services.map((x) => x.id)).toEqual([api, web]);
    expect(cards[1]!.id).not.toBe(two!.id);
    expect(cards[2]).toMatchObject({ id: one!.id, created_at: one!.created_at });
    expect(cards.map((c) => c.id)).not.toContain(two!.id);
    expect((await s.a.request('GET', pageOf(page.id))).body).toEqual(res.body);

    // A read sent back changes nothing but updated_at.
    const again = await s.a.request('PUT', pageOf(page.id), res.body);
    expect(again.status).toBe(200);
    expect({ ...again.body, updated_at: null }).toEqual({ ...res.body, updated_at: null });

    // null clears the nullable fields.
    const cleared = await s.a.request('PUT', pageOf(page.id), { name: 'Renamed', url: page.url, cards: [], customDomain: null, logo: null, themeColors: null });
    expect(cleared.body).toMatchObject({ customDomain: null, logo: null, themeColors: null, cards: [] });
    await s.a.request('DELETE', pageOf(page.id));
  });

  it('pages status pages newest first with nextId', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createPage(s.a, { name: `Page ${i}` })).id);
    const seen: string[] = [];
    let nextId: string | null = null;
    let pages = 0;
    do {
      const query: string = nextId ? `?limit=2&nextId=${nextId}` : '?limit=2';
      const page = await s.a.request('GET', `${PAGES}${query}`);
      expect(page.status).toBe(200);
      expect(page.body.length).toBe(page.body.entries.length);
      seen.push(...page.body.entries.map((e: { id: string }) => e.id));
      nextId = page.body.nextId;
      pages++;
    } while (nextId);
    expect(seen).toEqual([...ids].reverse());
    expect(pages).toBe(3);
    expect((await s.a.request('GET', PAGES)).body.length).toBe(5);

    const mine = ids[0]!;
    for (const query of [`nextId=${UNKNOWN}`, 'limit=0', 'limit=101', 'nextId=nope']) {
      const res = await s.a.request('GET', `${PAGES}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.validation).toMatchObject({ source: 'query', keys: [query.split('=')[0]] });
    }
    const theirCursor = await s.b.request('GET', `${PAGES}?nextId=${mine}`);
    expect(theirCursor.status).toBe(400);
    for (const id of ids) await s.a.request('DELETE', pageOf(id));
  });

  it('keeps url and custom domain unique across accounts, answering 409 naming the field and writing nothing', async () => {
    const mine = await createPage(s.a, { url: 'shared-name', customDomain: 'status.shared.example' });
    const before = await counts();
    const sameUrl = await s.b.request('POST', PAGES, { name: 'Theirs', url: 'shared-name', cards: [] });
    expect(sameUrl.status).toBe(409);
    expect(sameUrl.body).toMatchObject({ statusCode: 409, error: 'Conflict', attributes: { key: 'url' } });
    expect(sameUrl.body.message).toContain('"url"');
    const sameDomain = await s.b.request('POST', PAGES, { name: 'Theirs', url: 'their-page', customDomain: 'STATUS.shared.example', cards: [] });
    expect(sameDomain.status).toBe(409);
    expect(sameDomain.body).toMatchObject({ attributes: { key: 'customDomain' } });
    expect(sameDomain.body.message).toContain('"customDomain"');
    expect(await counts()).toEqual(before);

    const other = await createPage(s.b, { url: 'their-page' });
    const moved = await s.b.request('PUT', pageOf(other.id), { name: 'Theirs', url: 'shared-name', cards: [] });
    expect(moved.status).toBe(409);
    expect(moved.body.attributes).toEqual({ key: 'url' });
    expect((await s.b.request('GET', pageOf(other.id))).body).toEqual(other);
    // A page keeps its own url and domain on update.
    expect((await s.a.request('PUT', pageOf(mine.id), { name: 'Mine', url: 'shared-name', customDomain: 'status.shared.example', cards: [] })).status).toBe(200);
    await s.a.request('DELETE', pageOf(mine.id));
    await s.b.request('DELETE', pageOf(other.id));
  });

  it('lets exactly one of two concurrent creates of the same url win', async () => {
    const before = await count('status_pages');
    const [first, second] = await Promise.all([
      s.a.request('POST', PAGES, { name: 'One', url: 'race', cards: [{ name: 'c', services: [{ id: api }] }] }),
      s.b.request('POST', PAGES, { name: 'Two', url: 'race', cards: [{ name: 'c' }] }),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const loser = first.status === 409 ? first : second;
    expect(loser.body.attributes).toEqual({ key: 'url' });
    expect(await count('status_pages')).toBe(before + 1);
    const winner = first.status === 201 ? [s.a, first] as const : [s.b, second] as const;
    await winner[0].request('DELETE', pageOf(winner[1].body.id));
  });

  it('keeps the password of a private page write-only and checks it in constant time', async () => {
    const pages = s.lookout.store.statusPages;
    const refused = await s.a.request('POST', PAGES, { name: 'Private', url: slug(), cards: [], isPrivate: true });
    expect(refused.status).toBe(400);
    expect(refused.body.validation.keys).toEqual(['password']);
    const tooShort = await s.a.request('POST', PAGES, { name: 'Private', url: slug(), cards: [], isPrivate: true, password: 'hunter2' });
    expect(tooShort.body.validation.keys).toEqual(['password']);
    expect(tooShort.text).not.toContain('hunter2');

    const page = await createPage(s.a, { isPrivate: true, password: 'correct horse' });
    expect(page.isPrivate).toBe(true);
    expect(JSON.stringify(page)).not.toContain('correct horse');
    expect(page).not.toHaveProperty('password');
    const read = await s.a.request('GET', pageOf(page.id));
    expect(read.text).not.toContain('correct horse');
    const [stored] = await s.lookout.store.db.query<{ password_hash: string }>('SELECT password_hash FROM status_pages WHERE id = $1', [page.id]);
    expect(stored!.password_hash).toMatch(/^scrypt\$/);
    expect(stored!.password_hash).not.toContain('correct horse');

    const service = createStatusPagesService({ store: s.lookout.store });
    expect(await service.verifyPagePassword(page.id, 'correct horse')).toBe(true);
    expect(await service.verifyPagePassword(page.id, 'correct horse!')).toBe(false);
    expect(await service.verifyPagePassword(UNKNOWN, 'correct horse')).toBe(false);
    expect(await service.verifyPagePassword('not-a-page', 'correct horse')).toBe(false);
    const version = (await pages.findByUrl(page.url))!.password_version;

    // Sending the same password again (a tool applying its whole config) keeps sessions; a new one ends them.
    const body = { name: page.name, url: page.url, cards: [] };
    await s.a.request('PUT', pageOf(page.id), { ...body, password: 'correct horse' });
    expect((await pages.findByUrl(page.url))!.password_version).toBe(version);
    await s.a.request('PUT', pageOf(page.id), { ...body, password: 'battery staple' });
    expect((await pages.findByUrl(page.url))!.password_version).toBe(version + 1);
    expect(await service.verifyPagePassword(page.id, 'battery staple')).toBe(true);
    expect(await service.verifyPagePassword(page.id, 'correct horse')).toBe(false);

    // Public, then private again: the stored password still counts.
    expect((await s.a.request('PUT', pageOf(page.id), { ...body, isPrivate: false })).body.isPrivate).toBe(false);
    expect((await s.a.request('PUT', pageOf(page.id), { ...body, isPrivate: true })).body.isPrivate).toBe(true);
    const publicOne = await createPage(s.a);
    const noPassword = await s.a.request('PUT', pageOf(publicOne.id), { ...body, url: publicOne.url, isPrivate: true });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.validation.keys).toEqual(['password']);
    expect(await service.verifyPagePassword(publicOne.id, '')).toBe(false);
    await s.a.request('DELETE', pageOf(page.id));
    await s.a.request('DELETE', pageOf(publicOne.id));
  });

  it('finds pages for visitors by url and custom domain, with their cards, and the pages showing services', async () => {
    const pages = s.lookout.store.statusPages;
    const page = await createPage(s.a, { customDomain: 'status.find.example', cards: [{ name: 'Core', services: [{ id: web }, { id: api }] }] });
    const other = await createPage(s.a, { cards: [{ name: 'Other', services: [{ id: api }] }] });
    const bare = await createPage(s.a);
    expect(await pages.findByUrl(page.url)).toMatchObject({ id: page.id, account_id: s.a.accountId, is_private: false, password_version: 0 });
    expect(await pages.findByUrl(page.url)).not.toHaveProperty('password_hash');
    expect(await pages.findByCustomDomain('Status.Find.Example')).toMatchObject({ id: page.id });
    expect(await pages.findByUrl('no-such-page')).toBeUndefined();
    expect(await pages.findByCustomDomain('nowhere.example')).toBeUndefined();
    const cards = await pages.listCards(page.id);
    expect(cards).toMatchObject([{ name: 'Core', position: 0, services: [{ id: web, name: 'Website' }, { id: api, name: 'API' }] }]);
    expect((await pages.pagesShowingServices(s.a.accountId, [api])).map((p) => p.id)).toEqual([page.id, other.id]);
    expect((await pages.pagesShowingServices(s.a.accountId, [web])).map((p) => p.id)).toEqual([page.id]);
    expect(await pages.pagesShowingServices(s.b.accountId, [api])).toEqual([]);
    for (const p of [page, other, bare]) await s.a.request('DELETE', pageOf(p.id));
  });

  it('refuses to delete a service a card shows, with 409 naming the page', async () => {
    const service = (await s.a.request('POST', SERVICES, { name: 'Shown' })).body.id as string;
    const page = await createPage(s.a, { name: 'Shows it', cards: [{ name: 'Core', services: [{ id: service }] }] });
    const res = await s.a.request('DELETE', `${SERVICES}/${service}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain(page.id);
    expect(res.body.message).toContain('Shows it');
    expect(res.body.attributes).toEqual({ statusPageIds: [page.id] });
    await s.a.request('PUT', pageOf(page.id), { name: 'Shows it', url: page.url, cards: [{ name: 'Core' }] });
    expect((await s.a.request('DELETE', `${SERVICES}/${service}`)).status).toBe(204);
    await s.a.request('DELETE', pageOf(page.id));
  });

  it("keeps each account's pages to itself", async () => {
    const mine = await createPage(s.a, { cards: [{ name: 'Core', services: [{ id: api }] }] });
    for (const [method, path, body] of [
      ['GET', pageOf(mine.id)], ['PUT', pageOf(mine.id), { name: 'mine now', url: slug(), cards: [] }], ['DELETE', pageOf(mine.id)],
    ] as [string, string, unknown?][]) {
      const res = await s.b.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const borrowing = await s.b.request('POST', PAGES, { name: 'Borrowing', url: slug(), cards: [{ name: 'c', services: [{ id: api }] }] });
    expect(borrowing.status).toBe(400);
    expect(borrowing.body.validation.keys).toEqual(['cards.0.services.0.id']);
    expect((await s.b.request('GET', PAGES)).body).toEqual({ length: 0, entries: [], nextId: null });
    expect((await s.a.request('GET', pageOf(mine.id))).body).toEqual(mine);
    await s.a.request('DELETE', pageOf(mine.id));
  });

  it('moves the public content version on with each write and tells the bus after commit, never on a refused write', async () => {
    const version = () => s.lookout.store.publicContentVersions.get(s.a.accountId);
    const changes: { version: number; subject: string; subjectId: string }[] = [];
    const off = s.lookout.bus.subscribe('publicContentChanged', (e) => {
      if (e.accountId === s.a.accountId) changes.push({ version: e.version, subject: e.subject, subjectId: e.subjectId });
    });
    try {
      const start = await version();
      const page = await createPage(s.a);
      await s.a.request('PUT', pageOf(page.id), { name: 'Changed', url: page.url, cards: [] });
      expect((await s.a.request('PUT', pageOf(page.id), { name: 'Changed', url: 'Not A Slug', cards: [] })).status).toBe(400);
      await s.a.request('DELETE', pageOf(page.id));
      expect(await version()).toBe(start + 3);
      await expect.poll(() => changes.slice(-3)).toEqual([1, 2, 3].map((n) => ({ version: start + n, subject: 'statusPage', subjectId: page.id })));
    } finally {
      off();
    }
  });

  describe('bad input gets a 400 naming the key and writes nothing', () => {
    let pageId: string;
    let otherPageCard: string;
    let page: Record<string, any>;
    beforeAll(async () => {
      page = await createPage(s.a, { name: 'Target', cards: [{ name: 'Core', services: [{ id: api }] }] });
      pageId = page.id;
      otherPageCard = (await createPage(s.a, { cards: [{ name: 'Elsewhere' }] })).cards[0].id;
    });

    const valid = () => ({ name: 'Page', url: 'valid-slug', cards: [] as unknown[] });
    const put = (body: Record<string, unknown>) => (): [string, string, unknown] => ['PUT', pageOf(pageId), { name: 'Target', url: page.url, cards: [], ...body }];
    const post = (body: Record<string, unknown>) => (): [string, string, unknown] => ['POST', PAGES, { ...valid(), ...body }];
    it.each<[string, () => [string, string, unknown], string[]]>([
      ['a page without any field', () => ['POST', PAGES, {}], ['name', 'url', 'cards']],
      ['a blank name', post({ name: '  ' }), ['name']],
      ['a name over 255', post({ name: 'x'.repeat(256) }), ['name']],
      ['an upper-case url', post({ url: 'Acme' }), ['url']],
      ['a url with an underscore', post({ url: 'acme_status' }), ['url']],
      ['a url starting with a hyphen', post({ url: '-acme' }), ['url']],
      ['a url with a dot', post({ url: 'acme.status' }), ['url']],
      ['a url over 63 characters', post({ url: 'a'.repeat(64) }), ['url']],
      ['an empty url', post({ url: '' }), ['url']],
      ['a description over 500', post({ description: 'x'.repeat(501) }), ['description']],
      ['a custom domain with a scheme', post({ customDomain: 'https://status.acme.example' }), ['customDomain']],
      ['a custom domain with a port', post({ customDomain: 'status.acme.example:8080' }), ['customDomain']],
      ['a custom domain of one label', post({ customDomain: 'localhost' }), ['customDomain']],
      ['a custom domain that is an IP address', post({ customDomain: '192.0.2.1' }), ['customDomain']],
      ['a custom domain with a trailing dot', post({ customDomain: 'status.acme.example.' }), ['customDomain']],
      ['a colour without #', post({ themeColors: { light: { borderColor: 'FFFFFF' } } }), ['themeColors.light.borderColor']],
      ['a colour of 5 digits', post({ themeColors: { dark: { linkFontColor: '#12345' } } }), ['themeColors.dark.linkFontColor']],
      ['a colour by name', post({ themeColors: { light: { bodyFontColor: 'red' } } }), ['themeColors.light.bodyFontColor']],
      ['a palette that is a string', post({ themeColors: { light: '#fff' } }), ['themeColors.light']],
      ['an unknown defaultTheme', post({ defaultTheme: 'SEPIA' }), ['defaultTheme']],
      ['a lower-case defaultTheme', post({ defaultTheme: 'dark' }), ['defaultTheme']],
      ['a logo on ftp', post({ logo: 'ftp://acme.example/logo.png' }), ['logo']],
      ['a favicon that is no URL', post({ favicon: 'favicon.ico' }), ['favicon']],
      ['a redirectTo with javascript', post({ redirectTo: 'javascript:alert(1)' }), ['redirectTo']],
      ['a dark logo that is a number', post({ logoDark: 7 }), ['logoDark']],
      ['isPrivate as text', post({ isPrivate: 'yes' }), ['isPrivate']],
      ['a password under 8 characters', post({ password: 'short' }), ['password']],
      ['cards that is an object', post({ cards: { name: 'Core' } }), ['cards']],
      ['a card without a name', post({ cards: [{ services: [] }] }), ['cards.0.name']],
      ['a card service id that is not a UUID', post({ cards: [{ name: 'c', services: [{ id: 'api' }] }] }), ['cards.0.services.0.id']],
      ['an unknown card service', () => post({ cards: [{ name: 'c' }, { name: 'd', services: [{ id: api }, { id: UNKNOWN }] }] })(), ['cards.1.services.1.id']],
      ["another account's service", () => post({ cards: [{ name: 'c', services: [{ id: theirs }] }] })(), ['cards.0.services.0.id']],
      ['a service twice in a card', () => post({ cards: [{ name: 'c', services: [{ id: api }, { id: api.toUpperCase() }] }] })(), ['cards.0.services.1.id']],
      ['every bad key at once', () => post({ url: 'Bad', customDomain: 'bad', logo: 'bad', isPrivate: true, cards: [{ name: 'c', services: [{ id: UNKNOWN }] }] })(),
        ['url', 'customDomain', 'logo', 'password', 'cards.0.services.0.id']],
      ['a PUT naming a card of another page', () => put({ cards: [{ id: otherPageCard, name: 'Stolen' }] })(), ['cards.0.id']],
      ['a PUT naming an unknown card', () => put({ cards: [{ id: UNKNOWN, name: 'New?' }] })(), ['cards.0.id']],
      ['a PUT naming a card twice', () => put({ cards: [{ id: page.cards[0].id, name: 'A' }, { id: page.cards[0].id, name: 'B' }] })(), ['cards.1.id']],
      ['a PUT with another statusPageId', () => put({ cards: [{ id: page.cards[0].id, statusPageId: UNKNOWN, name: 'Core' }] })(), ['cards.0.statusPageId']],
      ['a PUT without cards', () => ['PUT', pageOf(pageId), { name: 'Target', url: page.url }], ['cards']],
      ['a PUT making the page private without a password', () => put({ isPrivate: true })(), ['password']],
      ['a PUT with a bad custom domain', () => put({ customDomain: 'not a domain' })(), ['customDomain']],
    ])('%s', async (_name, call, keys) => {
      const [method, path, body] = call();
      const before = await counts();
      const pageBefore = (await s.a.request('GET', pageOf(pageId))).body;
      const res = await s.a.request(method, path, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', validation: { source: 'payload' } });
      expect(res.body.validation.keys).toEqual(keys);
      expect(await counts()).toEqual(before);
      expect((await s.a.request('GET', pageOf(pageId))).body).toEqual(pageBefore);
    });

    it('answers malformed ids with a 400 naming them', async () => {
      const res = await s.a.request('GET', pageOf('nope'));
      expect(res.status).toBe(400);
      expect(res.body.validation).toMatchObject({ source: 'params', keys: ['statusPageId'] });
    });
  });

  it('describes its routes with operation ids, tags and the 409 of writes', async () => {
    const doc = (await s.raw('GET', '/openapi.json')).body;
    expect(doc.paths[PAGES].post.operationId).toBe('createStatusPage');
    expect(doc.paths[`${PAGES}/{statusPageId}`].put.operationId).toBe('updateStatusPage');
    expect(doc.paths[`${PAGES}/{statusPageId}`].put.responses['409']).toBeTruthy();
    expect(doc.paths[`${PAGES}/{statusPageId}`].get.tags).toEqual(['Status pages']);
    expect(doc.paths[PAGES].post.description).toContain('lower-case hex is accepted too');
    expect(doc.components.schemas.StatusPage.properties).not.toHaveProperty('password');
  });
});
