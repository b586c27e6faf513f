import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsHtml } from '../../src/api/console-routes.js';
import { loadConfig } from '../../src/config.js';
import { createLookout } from '../../src/main.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { getWithHost } from '../support/get-with-host.js';

const DIST = path.resolve('web/dist');
// Not a skip: `npm install` builds the console (the `prepare` script), so a missing build is a broken install.
if (!existsSync(path.join(DIST, 'index.html')) || !existsSync(path.join(DIST, 'graphiql.html'))) {
  throw new Error(`console-serving.test.ts needs the built console in ${DIST}: run \`npm run build:web\` (npm install runs it)`);
}
const INDEX = readFileSync(path.join(DIST, 'index.html'), 'utf8');
const GRAPHIQL = readFileSync(path.join(DIST, 'graphiql.html'), 'utf8');
/** What Chromium sends when it navigates to a page. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const TYPENAME = `/graphql?query=${encodeURIComponent('{ __typename }')}`;

describe('which Accept headers open a page', () => {
  it.each([
    [BROWSER_ACCEPT, true],
    ['text/html', true],
    ['TEXT/HTML; charset=utf-8', true],
    ['application/json, text/html;q=0.5', true],
    ['text/html;q=0', false],
    ['*/*', false],
    ['application/json', false],
    ['application/graphql-response+json, application/json', false],
    [undefined, false],
  ])('reads %j as %s', (accept, opens) => {
    expect(acceptsHtml(accept)).toBe(opens);
  });
});

describe('the console, GraphiQL and the API reference over HTTP', () => {
  let s: TestServer;
  const browser = (pathname: string) => s.raw('GET', pathname, { headers: { accept: BROWSER_ACCEPT } });

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it.each([
    ['the root', '/'],
    ['a deep link of the console', '/checks/00000000-0000-4000-8000-000000000000'],
    ['a deep link with a query string', '/checks?state=failing&q=shop'],
  ])('answers %s to a browser with the console page, never cached', async (_what, pathname) => {
    const res = await browser(pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.text).toBe(INDEX);
  });

  it('serves the hashed files the page names for a year, as immutable', async () => {
    const assets = [...INDEX.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const res = await s.raw('GET', asset);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('content-type'), asset).toMatch(asset.endsWith('.css') ? /text\/css/ : /javascript/);
      expect(res.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
    }
  });

  it('answers the GraphiQL page to a browser opening /graphql', async () => {
    const res = await browser('/graphql');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toBe(GRAPHIQL);
    // Its script is bundled here: nothing is loaded from another origin.
    expect(res.text).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
  });

  it('answers the API reference at /docs with Swagger UI served from this server', async () => {
    const res = await browser('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    for (const file of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/init.js']) {
      expect(res.text).toContain(file);
      const asset = await s.raw('GET', file);
      expect(asset.status, file).toBe(200);
      expect(asset.headers.get('content-type'), file).toMatch(file.endsWith('.css') ? /text\/css/ : /javascript/);
    }
    // The page fetches the description itself, to put its own origin first among the servers.
    expect((await s.raw('GET', '/docs/init.js')).text).toContain("fetch('/openapi.json')");
  });

  it.each([
    ['a missing hashed file', '/assets/missing-0000.js'],
    ['a swagger-ui-dist file the page does not use', '/docs/package.json'],
    ['an unknown REST path, even to a browser', '/v1/no-such-resource'],
    ['an unknown health path, even to a browser', '/health/nothing'],
  ])('answers %s with the usual JSON 404', async (_what, pathname) => {
    const res = await browser(pathname);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it.each([
    ['no Accept header', {}],
    ['Accept: */*', { accept: '*/*' }],
    ['Accept: application/json', { accept: 'application/json' }],
  ])('answers requests with %s as before: / and deep links are JSON 404s', async (_what, headers) => {
    for (const pathname of ['/', '/checks/abc']) {
      const res = await s.raw('GET', pathname, { headers });
      expect(res.status, pathname).toBe(404);
      expect(res.body, pathname).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    const graphql = await s.raw('GET', '/graphql', { headers });
    expect(graphql.headers.get('content-type') ?? '').not.toMatch(/html/);
  });

  it('keeps `/` of a public dashboard\'s custom domain that dashboard, for browsers too', async () => {
    const check = await s.a.request('POST', '/v1/checks/api', { name: 'Storefront', tags: ['web'], locations: ['eu-west-1'], request: { url: 'https://shop.example.test' } });
    expect(check.status).toBe(201);
    const dashboard = await s.a.request('POST', '/v1/dashboards', { customUrl: 'console-domain', customDomain: 'status.console.test', header: 'Shop status', tags: ['web'] });
    expect(dashboard.status).toBe(201);
    const res = await getWithHost(s.url, '/', 'status.console.test', { accept: BROWSER_ACCEPT });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Shop status</title>');
    expect(res.text).not.toBe(INDEX);
  });

  it('still answers operations sent with POST, and with GET carrying Authorization, even from a browser', async () => {
    const post = await s.a.request('POST', '/graphql', { query: '{ __typename }' });
    expect(post.status).toBe(200);
    expect(post.body.data).toEqual({ __typename: 'Query' });
    const get = await s.raw('GET', TYPENAME, { headers: { authorization: `Bearer ${s.a.apiKey}`, accept: BROWSER_ACCEPT } });
    expect(get.status).toBe(200);
    expect(JSON.parse(get.text).data).toEqual({ __typename: 'Query' });
  });

  it.each([
    ['a client', { accept: 'application/json' }],
    ['a browser', { accept: BROWSER_ACCEPT }],
  ])('still refuses a GET operation from %s without a preflight-forcing header (CSRF prevention)', async (_what, headers) => {
    const res = await s.raw('GET', TYPENAME, { headers });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('"data"');
    expect(res.text).not.toBe(GRAPHIQL);
  });

  it('keeps the pages out of the REST contract', async () => {
    const doc = (await s.raw('GET', '/openapi.json')).body as { paths: Record<string, unknown> };
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => /^\/(docs|assets|graphql)(\/|$)/.test(p))).toEqual([]);
  });
});

describe('a server whose console is not built', () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'lookout-console-'));
  const logs: Array<{ level: number; msg: string; consoleDir?: string }> = [];
  let lookout: Awaited<ReturnType<typeof createLookout>>;
  let url: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs.push(JSON.parse(String(chunk)));
        done();
      },
    });
    lookout = await createLookout({
      config: { port: 0, host: '127.0.0.1', runnerEnabled: false, bootstrapAccountId: undefined, bootstrapApiKey: undefined, consoleDir: empty },
      storeOptions: {},
      logger: pino({ level: 'warn' }, sink),
    });
    url = (await lookout.listen()).replace('[::1]', '127.0.0.1');
  });
  afterAll(async () => {
    await lookout?.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it('warns at start, naming the folder and the command that builds it', () => {
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, consoleDir: empty, msg: expect.stringContaining('npm run build:web') }));
  });

  it.each(['/', '/checks/abc'])('answers %s to a browser with a 503 page saying how to build the console', async (pathname) => {
    const res = await fetch(url + pathname, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('npm run build:web');
    expect(text).toContain(empty);
  });

  it('keeps serving the API and the API reference', async () => {
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await fetch(`${url}/docs`, { headers: { accept: BROWSER_ACCEPT } })).status).toBe(200);
    const graphiql = await fetch(`${url}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
    expect(await graphiql.text()).not.toContain('graphiql-root');
  });

  it('serves the console once it is built, without a restart, with the files of its folder\'s root', async () => {
    writeFileSync(path.join(empty, 'index.html'), '<!doctype html><title>Built later</title>');
    writeFileSync(path.join(empty, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const res = await fetch(`${url}/checks/abc`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Built later');
    const icon = await fetch(`${url}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    // Not in the folder: the server's own icon answers what browsers ask for when a page names none.
    const ico = await fetch(`${url}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toMatch(/image\/svg\+xml/);
  });
});

describe('the LOOKOUT_CONSOLE_DIR setting', () => {
  it('defaults to web/dist of this installation', () => {
    expect(loadConfig({}).consoleDir).toBe(DIST);
  });

  it('takes an existing folder', () => {
    expect(loadConfig({ LOOKOUT_CONSOLE_DIR: DIST }).consoleDir).toBe(DIST);
  });

  it.each([
    ['a missing folder', '/no/such/console/folder'],
    ['a file', path.join(DIST, 'index.html')],
  ])('refuses %s, naming the setting', (_what, value) => {
    expect(() => loadConfig({ LOOKOUT_CONSOLE_DIR: value })).toThrow(`LOOKOUT_CONSOLE_DIR must be an existing folder (the output of npm run build:web), got "${value}"`);
  });
});
