import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api, ApiContext } from './api-context.js';
import { isLookoutError } from '../domain/lookout-error.js';
import { escapeHtml } from './pages/html.js';
import { FAVICON_SVG } from './favicon.js';

/** Browser pages and files: no API key (the pages ask for one), no rate limit, no REST input rules. */
const ROUTE_CONFIG = { public: true, rateLimit: false, inputRules: false } as never;

/**
 * Paths that belong to the API, documents or other pages: an unknown one answers the usual JSON 404,
 * never the console, even to a browser.
 */
const NOT_CONSOLE = /^\/(v\d+|next|graphql|openapi\.json|swagger\.json|health|metrics|status|dashboards|badges|assets|docs|mqtt)(\/|$)/;

/** A file at the root of the built folder (favicon, manifest): one segment with an extension. */
const ROOT_FILE = /^\/[\w-]+(\.[\w-]+)*\.\w+$/;

/** What the swagger-ui-dist package serves under /docs/: the files the page below loads. */
const DOCS_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']);

/**
 * The console, GraphiQL and the API reference load only their own files: scripts from this origin,
 * styles inline too (React and Monaco set them), Monaco's workers, and the API over HTTP and
 * graphql-ws ('self' covers ws: and wss: of the same host). A key in localStorage is worth an XSS.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
  "font-src 'self' data:", "connect-src 'self'", "worker-src 'self' blob:", "object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'",
].join('; ');

/** The API reference: Swagger UI on /openapi.json, authorized with the key the console stored. */
const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lookout API reference</title>
<meta name="color-scheme" content="light dark">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="/docs/swagger-ui.css">
<style>body { margin: 0; } .lookout-docs-bar { font: 14px system-ui, sans-serif; padding: .5em 1em; border-bottom: 1px solid #ddd; } .lookout-docs-bar a { margin-right: 1em; }
html.dark-mode .lookout-docs-bar { border-color: #3b4045; } html.dark-mode .lookout-docs-bar a { color: #7ab7ff; }</style>
</head>
<body>
<nav class="lookout-docs-bar" aria-label="Lookout"><a href="/">Console</a><a href="/graphql">GraphiQL</a><a href="/openapi.json">openapi.json</a></nav>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * Starts Swagger UI. A separate file, not an inline script, so the page's policy allows scripts of this
 * origin only. "Try it out" is authorized with the API key and account the console and GraphiQL keep.
 */
const DOCS_INIT = `(() => {
  // The console's theme (its toggle in localStorage, else the system's), as Swagger UI's dark-mode class.
  const dark = matchMedia('(prefers-color-scheme: dark)');
  const applyTheme = () => {
    const chosen = localStorage.getItem('lookout.theme');
    document.documentElement.classList.toggle('dark-mode', chosen === 'dark' || (chosen !== 'light' && dark.matches));
  };
  applyTheme();
  dark.addEventListener('change', applyTheme);
  addEventListener('storage', (event) => { if (event.key === 'lookout.theme') applyTheme(); });

  const start = (spec) => {
    const ui = SwaggerUIBundle({
      spec,
      dom_id: '#swagger-ui',
      deepLinking: true,
      displayOperationId: true,
      filter: true,
      // Its default sends the document to validator.swagger.io: the reference stays offline.
      validatorUrl: null,
      onComplete: () => {
        const key = localStorage.getItem('lookout.apiKey');
        const account = localStorage.getItem('lookout.accountId');
        if (key) ui.preauthorizeApiKey('bearer', key);
        if (account) ui.preauthorizeApiKey('account', account);
      },
    });
  };
  // "Try it out" calls the origin this page was opened on, first: the document's server is
  // LOOKOUT_PUBLIC_URL, which the page's policy (connect-src 'self') blocks when it is another origin
  // (http://127.0.0.1:4000 against http://localhost:4000, a proxy's name). It stays in the list.
  fetch('/openapi.json').then((res) => {
    if (!res.ok) throw new Error('/openapi.json answered ' + res.status);
    return res.json();
  }).then((spec) => {
    const here = { url: location.origin, description: 'The origin of this page' };
    const bare = (url) => (url.endsWith('/') ? url.slice(0, -1) : url);
    spec.servers = [here, ...(spec.servers || []).filter((server) => bare(server.url) !== location.origin)];
    start(spec);
  }, (err) => {
    document.getElementById('swagger-ui').textContent = 'The API description could not be loaded: ' + err.message;
  });
})();
`;

/** What `/` answers when the console was never built (npm install --ignore-scripts, or a copied tree). */
function notBuiltPage(consoleDir: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Lookout: console not built</title>
<style>body { font: 15px system-ui, sans-serif; margin: 3em auto; max-width: 40em; padding: 0 1em; } code { background: #f2f2f2; padding: .1em .3em; }</style></head>
<body>
<h1>The web console is not built</h1>
<p>This server found no console in <code>${escapeHtml(consoleDir)}</code>. Build it once, then reload:</p>
<pre><code>npm run build:web</code></pre>
<p><code>npm install</code> runs it (the <code>prepare</code> script) unless scripts were skipped.
The API answers meanwhile: <a href="/docs">API reference</a>, <a href="/openapi.json">/openapi.json</a>, <code>/graphql</code>, <code>/v1</code>.</p>
</body>
</html>
`;
}

/** Whether the request's Accept header lists text/html (as a browser's navigation does; `*\/*` does not count). */
export function acceptsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    return type === 'text/html' && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

/** Whether a GET /graphql is a browser opening the page, not an operation (which names `query` or a persisted `extensions`). */
function opensGraphiql(req: FastifyRequest): boolean {
  const query = req.query as Record<string, unknown> | undefined;
  return acceptsHtml(req.headers.accept) && query?.query === undefined && query?.extensions === undefined;
}

/**
 * Serves the browser side of the process: the console (web/dist, built by `npm run build:web`) at `/`
 * and its deep links, its hashed files under /assets/, GraphiQL at GET /graphql to browsers, and the
 * API reference of /openapi.json at /docs (Swagger UI from node_modules). None of it is part of the
 * REST contract (hidden from /openapi.json). Every other request, /graphql operations included, is
 * answered as before: the pages are chosen only for GET requests that accept text/html.
 */
export function consoleRoutes(app: Api, { config, dashboardPages }: ApiContext): void {
  const dir = config.consoleDir;
  const docsDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  if (!existsSync(path.join(dir, 'index.html'))) {
    app.log.warn({ consoleDir: dir }, 'the web console is not built: / answers 503 until `npm run build:web` writes it');
  } else {
    app.log.info({ consoleDir: dir }, 'console ready');
  }
  // sendFile only: each route names its folder, and the console's folder may not exist yet.
  void app.register(fastifyStatic, { root: docsDir, serve: false });

  const page = (reply: FastifyReply, status: number, body: string | Buffer) => reply.code(status)
    .type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    .header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'no-referrer').send(body);

  /** A built page, read at each request (a rebuild is served without a restart); null when it is missing. */
  const built = async (name: string): Promise<Buffer | null> => {
    try {
      return await readFile(path.join(dir, name));
    } catch {
      return null;
    }
  };

  const sendConsole = async (reply: FastifyReply) => {
    const index = await built('index.html');
    return index ? page(reply, 200, index) : page(reply, 503, notBuiltPage(dir));
  };

  // Every request passes here: anything but a GET of a page returns at the first or second test.
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET') return;
    if (req.is404) {
      const pathname = req.url.split('?')[0]!;
      if (NOT_CONSOLE.test(pathname)) return;
      // Files Vite copies to the root of the build (favicon and the like), when they exist.
      if (ROOT_FILE.test(pathname) && !pathname.endsWith('.html')) {
        const file = await stat(path.join(dir, pathname)).catch(() => null);
        if (file?.isFile()) return reply.header('Cache-Control', 'no-cache').sendFile(pathname.slice(1), dir);
        return;
      }
      // A deep link of the console (/checks/…): the app routes it in the browser.
      if (acceptsHtml(req.headers.accept)) return sendConsole(reply);
      return;
    }
    const route = req.routeOptions.url;
    // GRAPHQL_LANDING_PAGE=on chooses Apollo's minimal inline page over GraphiQL.
    if (route === '/graphql' && !config.graphqlLandingPage && opensGraphiql(req)) {
      const graphiql = await built('graphiql.html');
      if (graphiql) return page(reply, 200, graphiql);
      // Not built: Apollo answers as it always did.
      return;
    }
    if (route === '/' && acceptsHtml(req.headers.accept)) {
      // `/` on a public dashboard's custom domain stays that dashboard (public-dashboards-routes.ts).
      const dashboard = await dashboardPages.find({ host: req.hostname }).catch((err: unknown) => {
        if (isLookoutError(err) && err.code === 'NOT_FOUND') return null;
        throw err;
      });
      if (!dashboard) return sendConsole(reply);
    }
  });

  // Vite names these after their content hash: a changed file is a new URL, so they never go stale.
  app.get('/assets/*', { schema: { hide: true }, config: ROUTE_CONFIG }, async (req, reply) =>
    reply.sendFile((req.params as { '*': string })['*'], path.join(dir, 'assets'), { maxAge: '365d', immutable: true }));

  const favicon = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').header('X-Content-Type-Options', 'nosniff').send(FAVICON_SVG);
  app.get('/favicon.svg', { schema: { hide: true }, config: ROUTE_CONFIG }, favicon);
  app.get('/favicon.ico', { schema: { hide: true }, config: ROUTE_CONFIG }, favicon);

  app.get('/docs', { schema: { hide: true }, config: ROUTE_CONFIG }, async (_req, reply) => page(reply, 200, DOCS_PAGE));
  app.get('/docs/init.js', { schema: { hide: true }, config: ROUTE_CONFIG }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(DOCS_INIT));
  app.get('/docs/:file', { schema: { hide: true }, config: ROUTE_CONFIG }, async (req, reply) => {
    const { file } = req.params as { file: string };
    if (!DOCS_FILES.has(file)) return reply.callNotFound();
    // The package's version is in its path under node_modules only: revalidate rather than keep for long.
    return reply.sendFile(file, docsDir, { maxAge: '1h' });
  });
}
