import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { omitEmpty } from '../support/omit-empty.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const DASHBOARDS = '/v1/dashboards';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
/** The service's own host in these tests (LOOKOUT_PUBLIC_URL): no dashboard may claim it. */
const OWN_HOST = 'lookout.example.test';

/** Every field with the real API's defaults, as a dashboard created with only a custom URL reads. */
const DEFAULTS = {
  customDomain: null, logo: null, favicon: null, link: null, description: null, header: null, width: 'FULL', refreshRate: 60, paginate: true,
  paginationRate: 60, checksPerPage: 15, useTagsAndOperator: false, hideTags: false, enableIncidents: false, expandChecks: false, showHeader: true,
  customCSS: null, isPrivate: false, showP95: true, showP99: true, showCheckRunLinks: false, tags: [],
};

/** A dashboard with every field set away from its default. */
const FULL = {
  customUrl: 'acme-full', customDomain: 'Status.Acme.test', logo: 'https://cdn.acme.test/logo.png', favicon: 'https://cdn.acme.test/favicon.ico',
  link: 'https://acme.test/', description: 'Everything we run', header: 'ACME status', width: '960PX', refreshRate: 300, paginate: false,
  paginationRate: 30, checksPerPage: 20, useTagsAndOperator: true, hideTags: true, enableIncidents: true, expandChecks: true, showHeader: false,
  customCSS: 'body { background: #101418 }', isPrivate: false, showP95: false, showP99: false, showCheckRunLinks: true, tags: ['prod', 'api'],
};

describe.each(BACKENDS)('dashboards over REST ($name)', (backend) => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startTestServer({ backend, config: { publicUrl: `https://${OWN_HOST}` } });
  });
  afterAll(async () => s?.close());

  const count = async () => (await s.lookout.store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM dashboards'))[0]!.n;
  const version = (accountId: string) => s.lookout.store.publicContentVersions.get(accountId);
  const create = async (client: TestClient, body: Record<string, unknown>) => {
    const res = await client.request('POST', DASHBOARDS, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, any> & { dashboardId: string };
  };
  const remove = (client: TestClient, id: string) => client.request('DELETE', `${DASHBOARDS}/${id}`);

  it('creates a dashboard with the real API\'s defaults, then reads, lists, updates and deletes it', async () => {
    const created = await s.a.request('POST', DASHBOARDS, { customUrl: 'acme-status' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ dashboardId: expect.any(String), customUrl: 'acme-status', ...DEFAULTS, created_at: expect.any(String), updated_at: null });
    const id = created.body.dashboardId as string;
    expect((await s.a.request('GET', `${DASHBOARDS}/${id}`)).body).toEqual(created.body);

    const list = await s.a.request('GET', DASHBOARDS);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created.body]);
    expect(list.headers.get('content-range')).toBe('0-0/1');

    const updated = await s.a.request('PUT', `${DASHBOARDS}/${id}`, { header: 'ACME', tags: ['prod'], refreshRate: 600, width: null, customUrl: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...created.body, header: 'ACME', tags: ['prod'], refreshRate: 600, updated_at: expect.any(String) });
    expect((await s.a.request('GET', `${DASHBOARDS}/${id}`)).body).toEqual(updated.body);

    // "" removes an optional text; [] empties the tags; absent keeps.
    const cleared = await s.a.request('PUT', `${DASHBOARDS}/${id}`, { header: '', tags: [] });
    expect(cleared.body).toMatchObject({ header: null, tags: [], refreshRate: 600, customUrl: 'acme-status' });

    expect((await remove(s.a, id)).status).toBe(204);
    expect((await s.a.request('GET', `${DASHBOARDS}/${id}`)).status).toBe(404);
    expect((await remove(s.a, id)).status).toBe(404);
    expect((await s.a.request('PUT', `${DASHBOARDS}/${id}`, { header: 'x' })).status).toBe(404);
    expect(await count()).toBe(0);
  });

  it('echoes every field it accepted, as sent', async () => {
    const created = await create(s.a, FULL);
    expect(created).toEqual({ dashboardId: expect.any(String), ...FULL, created_at: expect.any(String), updated_at: null });
    await remove(s.a, created.dashboardId);
  });

  it('gives a dashboard created without a custom URL a random one, and an empty body every default', async () => {
    const first = await create(s.a, {});
    const second = await create(s.a, { customUrl: null });
    expect(first).toMatchObject(DEFAULTS);
    expect(first.customUrl).toMatch(/^dashboard-[0-9a-f]{12}$/);
    expect(second.customUrl).toMatch(/^dashboard-[0-9a-f]{12}$/);
    expect(second.customUrl).not.toBe(first.customUrl);
    await remove(s.a, first.dashboardId);
    await remove(s.a, second.dashboardId);
  });

  it('changes nothing when a read is sent back, whole or with its zero values dropped (omitempty)', async () => {
    const created = await create(s.a, FULL);
    const path = `${DASHBOARDS}/${created.dashboardId}`;
    const stable = ({ updated_at: _u, ...rest }: Record<string, unknown>) => rest;
    for (const body of [created, omitEmpty(created)]) {
      const put = await s.a.request('PUT', path, body);
      expect(put.status).toBe(200);
      expect(stable(put.body)).toEqual(stable(created));
    }
    await remove(s.a, created.dashboardId);
  });

  it('pages the list oldest first with Content-Range', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(s.a, { customUrl: `paged-${i}` })).dashboardId);
    const first = await s.a.request('GET', `${DASHBOARDS}?limit=2`);
    expect(first.body.map((d: { dashboardId: string }) => d.dashboardId)).toEqual(ids.slice(0, 2));
    expect(first.headers.get('content-range')).toBe('0-1/3');
    const second = await s.a.request('GET', `${DASHBOARDS}?limit=2&page=2`);
    expect(second.body.map((d: { dashboardId: string }) => d.dashboardId)).toEqual(ids.slice(2));
    expect(second.headers.get('content-range')).toBe('2-2/3');
    const past = await s.a.request('GET', `${DASHBOARDS}?limit=2&page=3`);
    expect(past.body).toEqual([]);
    expect(past.headers.get('content-range')).toBe('*/3');
    for (const query of ['limit=0', 'limit=101', 'page=0']) {
      const res = await s.a.request('GET', `${DASHBOARDS}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.validation).toMatchObject({ source: 'query', keys: [query.split('=')[0]] });
    }
    for (const id of ids) await remove(s.a, id);
  });

  describe('bad input gets a 400 naming the field and writes nothing', () => {
    let storedId: string;
    let stored: Record<string, unknown>;
    beforeAll(async () => {
      stored = await create(s.a, { customUrl: 'kept-as-is', header: 'Kept' });
      storedId = stored.dashboardId as string;
    });

    it.each<[string, Record<string, unknown>, string[]]>([
      ['a custom URL with capitals', { customUrl: 'Acme' }, ['customUrl']],
      ['a custom URL with a space', { customUrl: 'acme status' }, ['customUrl']],
      ['an empty custom URL', { customUrl: '' }, ['customUrl']],
      ['a custom URL ending in a hyphen', { customUrl: 'acme-' }, ['customUrl']],
      ['a custom URL of 64 characters', { customUrl: 'a'.repeat(64) }, ['customUrl']],
      ['a custom URL that is a number', { customUrl: 42 }, ['customUrl']],
      ['a custom domain without a dot', { customDomain: 'localhost' }, ['customDomain']],
      ['a custom domain with a scheme', { customDomain: 'https://status.acme.test' }, ['customDomain']],
      ['a custom domain with a port', { customDomain: 'status.acme.test:8080' }, ['customDomain']],
      ['a custom domain that is an IP address', { customDomain: '10.0.0.1' }, ['customDomain']],
      ['the service\'s own host as custom domain', { customDomain: OWN_HOST.toUpperCase() }, ['customDomain']],
      ['a logo that is not a URL', { logo: 'logo.png' }, ['logo']],
      ['a javascript: logo', { logo: 'javascript:alert(1)' }, ['logo']],
      ['an ftp favicon', { favicon: 'ftp://acme.test/favicon.ico' }, ['favicon']],
      ['a link with a data: URL', { link: 'data:text/html,hi' }, ['link']],
      ['a logo URL over 2048 characters', { logo: `https://acme.test/${'a'.repeat(2048)}` }, ['logo']],
      ['a description over 500 characters', { description: 'x'.repeat(501) }, ['description']],
      ['a header over 255 characters', { header: 'x'.repeat(256) }, ['header']],
      ['an unknown width', { width: 'HALF' }, ['width']],
      ['a lower-case width', { width: 'full' }, ['width']],
      ['a refresh rate of 30', { refreshRate: 30 }, ['refreshRate']],
      ['a refresh rate sent as text', { refreshRate: '60' }, ['refreshRate']],
      ['a pagination rate of 45', { paginationRate: 45 }, ['paginationRate']],
      ['0 checks per page', { checksPerPage: 0 }, ['checksPerPage']],
      ['21 checks per page', { checksPerPage: 21 }, ['checksPerPage']],
      ['a fraction of checks per page', { checksPerPage: 1.5 }, ['checksPerPage']],
      ['paginate as text', { paginate: 'yes' }, ['paginate']],
      ['showP95 as a number', { showP95: 1 }, ['showP95']],
      ['custom CSS over 10,000 characters', { customCSS: 'x'.repeat(10_001) }, ['customCSS']],
      ['custom CSS that closes its <style> element', { customCSS: 'a{}</style><script>alert(1)</script>' }, ['customCSS']],
      ['a private dashboard (viewer keys are not built)', { isPrivate: true }, ['isPrivate']],
      ['51 tags', { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, ['tags']],
      ['an empty tag', { tags: ['prod', ''] }, ['tags.1']],
      ['a blank tag', { tags: ['   '] }, ['tags.0']],
      ['tags as a string', { tags: 'prod' }, ['tags']],
      ['several bad fields at once', { width: 'HALF', refreshRate: 1, logo: 'nope', checksPerPage: 99 }, ['logo', 'width', 'refreshRate', 'checksPerPage']],
    ])('%s', async (_name, body, keys) => {
      const before = await count();
      const versionBefore = await version(s.a.accountId);
      for (const [method, path, extra] of [['POST', DASHBOARDS, { customUrl: 'never-written' }], ['PUT', `${DASHBOARDS}/${storedId}`, {}]] as const) {
        const res = await s.a.request(method, path, { ...extra, ...body });
        expect(res.status, `${method} ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', validation: { source: 'payload' } });
        expect([...res.body.validation.keys].sort(), method).toEqual([...keys].sort());
      }
      expect(await count()).toBe(before);
      expect(await version(s.a.accountId)).toBe(versionBefore);
      expect((await s.a.request('GET', `${DASHBOARDS}/${storedId}`)).body).toEqual(stored);
    });

    it('answers a malformed id with a 400 naming it, and an unknown one with 404', async () => {
      const bad = await s.a.request('GET', `${DASHBOARDS}/nope`);
      expect(bad.status).toBe(400);
      expect(bad.body.validation).toMatchObject({ source: 'params', keys: ['dashboardId'] });
      for (const method of ['GET', 'PUT', 'DELETE']) {
        expect((await s.a.request(method, `${DASHBOARDS}/${UNKNOWN}`, method === 'PUT' ? {} : undefined)).status, method).toBe(404);
      }
    });
  });

  describe('custom URLs and custom domains are unique across accounts', () => {
    it('refuses another account\'s custom URL, and a custom domain in any case, with 409 naming the field', async () => {
      const mine = await create(s.a, { customUrl: 'shared-name', customDomain: 'status.shared.test' });
      const before = await count();
      const versionBefore = await version(s.b.accountId);
      for (const [body, key] of [
        [{ customUrl: 'shared-name' }, 'customUrl'],
        [{ customUrl: 'other-name', customDomain: 'STATUS.Shared.test' }, 'customDomain'],
      ] as const) {
        const res = await s.b.request('POST', DASHBOARDS, body);
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict', attributes: { key } });
        expect(res.body.message).toContain(`"${key}"`);
        expect(res.body.message).toContain('unique across all accounts');
      }
      expect(await count()).toBe(before);
      expect(await version(s.b.accountId)).toBe(versionBefore);

      // An update may not take them either; keeping one's own values is no conflict.
      const theirs = await create(s.b, { customUrl: 'theirs' });
      const taken = await s.b.request('PUT', `${DASHBOARDS}/${theirs.dashboardId}`, { customUrl: 'shared-name' });
      expect(taken.status).toBe(409);
      expect(taken.body.attributes).toEqual({ key: 'customUrl' });
      expect((await s.b.request('GET', `${DASHBOARDS}/${theirs.dashboardId}`)).body.customUrl).toBe('theirs');
      const same = await s.a.request('PUT', `${DASHBOARDS}/${mine.dashboardId}`, { customUrl: 'shared-name', customDomain: 'Status.Shared.TEST' });
      expect(same.status).toBe(200);
      expect(same.body.customDomain).toBe('Status.Shared.TEST');

      // Once deleted, the name is free again.
      await remove(s.a, mine.dashboardId);
      const reused = await create(s.b, { customUrl: 'shared-name', customDomain: 'status.shared.test' });
      await remove(s.b, reused.dashboardId);
      await remove(s.b, theirs.dashboardId);
    });

    it('lets one of two concurrent creates of the same custom URL through and answers the other 409', async () => {
      const before = await count();
      const clients = [s.a, s.b, s.a, s.b];
      const answers = await Promise.all(clients.map((client, i) => client.request('POST', DASHBOARDS, { customUrl: 'raced', header: `try ${i}` })));
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
      expect(await count()).toBe(before + 1);
      const won = answers.findIndex((r) => r.status === 201);
      await remove(clients[won]!, answers[won]!.body.dashboardId);
    });

    it('maps the unique index to the field when a write gets past the check (a concurrent write)', async () => {
      const mine = await create(s.a, { customUrl: 'indexed', customDomain: 'indexed.acme.test' });
      const values = { ...DEFAULTS, customUrl: 'indexed', customDomain: null } as never;
      expect(await s.lookout.store.dashboards.insert(s.b.accountId, crypto.randomUUID(), values)).toEqual({ taken: 'customUrl' });
      const domain = { ...DEFAULTS, customUrl: 'other-indexed', customDomain: 'INDEXED.acme.test' } as never;
      expect(await s.lookout.store.dashboards.insert(s.b.accountId, crypto.randomUUID(), domain)).toEqual({ taken: 'customDomain' });
      await remove(s.a, mine.dashboardId);
    });
  });

  it('keeps each account\'s dashboards to itself', async () => {
    const mine = await create(s.a, { customUrl: 'private-to-a', header: 'A' });
    const path = `${DASHBOARDS}/${mine.dashboardId}`;
    for (const [method, body] of [['GET'], ['PUT', { header: 'B was here' }], ['DELETE']] as const) {
      const res = await s.b.request(method, path, body);
      expect(res.status, method).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    expect((await s.b.request('GET', DASHBOARDS)).body).toEqual([]);
    expect((await s.a.request('GET', path)).body).toEqual(mine);
    await remove(s.a, mine.dashboardId);
  });

  it('never shows account B\'s checks on account A\'s dashboard, even with the same tags', async () => {
    const ours = await s.a.request('POST', '/v1/checks/api', { name: 'Ours', tags: ['shop'], request: { url: 'https://a.example.test' } });
    const theirs = await s.b.request('POST', '/v1/checks/api', { name: 'Theirs', tags: ['shop'], request: { url: 'https://b.example.test' } });
    expect([ours.status, theirs.status]).toEqual([201, 201]);
    const tagged = await create(s.a, { customUrl: 'a-shop', tags: ['shop'] });
    const all = await create(s.a, { customUrl: 'a-all' });
    for (const customUrl of ['a-shop', 'a-all']) {
      const data = await s.raw('GET', `/dashboards/${customUrl}/data.json`);
      expect(data.status).toBe(200);
      expect(data.body.checks.map((c: { name: string }) => c.name), customUrl).toEqual(['Ours']);
      const page = await s.raw('GET', `/dashboards/${customUrl}`);
      expect(page.text).toContain('Ours');
      expect(page.text).not.toContain('Theirs');
    }
    await remove(s.a, tagged.dashboardId);
    await remove(s.a, all.dashboardId);
    await s.a.request('DELETE', `/v1/checks/${ours.body.id}`);
    await s.b.request('DELETE', `/v1/checks/${theirs.body.id}`);
  });

  it('moves the public content version on with each write and announces it after commit, never on a refused write', async () => {
    const changes: { version: number; subject: string; subjectId: string }[] = [];
    const off = s.lookout.bus.subscribe('publicContentChanged', (e) => {
      if (e.accountId === s.a.accountId) changes.push({ version: e.version, subject: e.subject, subjectId: e.subjectId });
    });
    try {
      const start = await version(s.a.accountId);
      const otherBefore = await version(s.b.accountId);
      const created = await create(s.a, { customUrl: 'versioned' });
      await s.a.request('PUT', `${DASHBOARDS}/${created.dashboardId}`, { header: 'v2' });
      expect((await s.a.request('PUT', `${DASHBOARDS}/${created.dashboardId}`, { isPrivate: true })).status).toBe(400);
      expect((await s.b.request('POST', DASHBOARDS, { customUrl: 'versioned' })).status).toBe(409);
      await remove(s.a, created.dashboardId);
      expect(await version(s.a.accountId)).toBe(start + 3);
      expect(await version(s.b.accountId)).toBe(otherBefore);
      const subject = { subject: 'dashboard', subjectId: created.dashboardId };
      await expect.poll(() => changes).toEqual([
        { version: start + 1, ...subject }, { version: start + 2, ...subject }, { version: start + 3, ...subject },
      ]);
    } finally {
      off();
    }
  });

  it('describes its routes with operation ids, tags and the 409 they can answer', async () => {
    const doc = (await s.raw('GET', '/openapi.json')).body;
    expect(doc.paths[DASHBOARDS].post).toMatchObject({ operationId: 'createDashboard', tags: ['Dashboards'] });
    expect(doc.paths[DASHBOARDS].post.responses['409']).toBeDefined();
    expect(doc.paths[`${DASHBOARDS}/{dashboardId}`].put.responses['409']).toBeDefined();
    expect(doc.paths['/dashboards/{customUrl}'].get).toMatchObject({ operationId: 'getDashboardPage', security: [] });
    expect(doc.components.schemas.Dashboard.required).toContain('dashboardId');
  });
});
