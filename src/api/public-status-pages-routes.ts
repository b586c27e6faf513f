import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api, ApiContext } from './api-context.js';
import { publicSecurityHeaders } from './public-security-headers.js';
import { createTryLimiter } from './create-try-limiter.js';
import { openEventStream, type EventStream } from './open-event-stream.js';
import { statusPageAtom, statusPageRss } from './pages/status-page-feeds.js';
import {
  incidentBlock, maintenanceBlock, passwordPromptHtml, serviceNamesOf, statusPageContent, statusPageDocument,
  statusPageHistoryHtml, statusPageHtml, subscribeOutcomeHtml, type StatusPageHtmlOptions,
} from './pages/status-page-html.js';
import { html } from './pages/html.js';
import { statuspageIncidents, statuspageStatus, statuspageSummary, type StatuspagePage } from './pages/statuspage-json.js';
import { PAGE_SESSION_MS } from '../domain/page-session.js';
import type { FoundPage } from '../service/public-status-page-service.js';
import { pagePasswordMatches } from '../service/status-page-password.js';

const COOKIE = 'lookout_status_session';
/** Comment lines keep idle event streams open through proxies that close silent connections. */
const HEARTBEAT_MS = 20_000;
/** Subscription requests per client address and page, per minute. */
const FORM_POSTS_PER_MINUTE = 10;
/** Wrong passwords per client address and page before that pair waits out PASSWORD_LOCK_MS. */
const PASSWORD_TRIES = 10;
const PASSWORD_LOCK_MS = 15 * 60_000;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const HOST = /^[a-z0-9.-]{1,253}$/;

/** What a public request is about: the page, its links' prefix and the rest of the path. */
interface Target {
  found: FoundPage;
  base: string;
}

type Handler = (req: FastifyRequest, reply: FastifyReply, target: Target, params: Record<string, string>) => Promise<unknown>;

function cookieOf(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/**
 * Public status pages, no API key: `/status/{url}` and the same paths on a page's custom domain
 * (Host header). HTML, Statuspage-compatible JSON, RSS/Atom feeds and a server-sent event stream
 * that tells open pages to refresh their content when anything they show changes, in any process.
 * Long by design: one route table: every public path of a page (by URL or custom domain) shares the page lookup, the ETag and compression helpers and the event-stream registry; each handler is a few lines.
 */
export function publicStatusPagesRoutes(app: Api, ctx: ApiContext): void {
  const pages = ctx.publicStatusPages;
  const passwordTries = createTryLimiter({ max: PASSWORD_TRIES, windowMs: PASSWORD_LOCK_MS });
  const formPosts = createTryLimiter({ max: FORM_POSTS_PER_MINUTE, windowMs: 60_000 });
  const streams = new Map<string, Set<EventStream>>();
  const unsubscribe = ctx.bus.subscribe('publicContentChanged', (event) => {
    for (const stream of streams.get(event.accountId) ?? []) stream.send({ event: 'change', data: event.version });
  });
  app.addHook('preClose', async () => {
    unsubscribe();
    for (const set of [...streams.values()]) for (const stream of [...set]) stream.end();
    streams.clear();
  });

  const look = (target: Target, now: Date): StatusPageHtmlOptions => {
    const p = target.found.page;
    return {
      look: {
        name: p.name, description: p.description, logo: p.logo, logoDark: p.logo_dark, favicon: p.favicon, redirectTo: p.redirect_to,
        defaultTheme: p.default_theme, themeColors: p.theme_colors, isPrivate: p.is_private, subscribable: Boolean(ctx.config.smtpUrl),
      },
      base: target.base,
      version: target.found.version,
      now,
    };
  };
  const ownOrigin = new URL(ctx.config.publicUrl).origin;
  /**
   * The page's address in documents and feeds: its custom domain, or its path under LOOKOUT_PUBLIC_URL,
   * never the request's Host header, so what is built (and cached) once per page is the same for every
   * Host a request names.
   */
  const pageUrl = (req: FastifyRequest, target: Target): string =>
    target.base === '' ? `${req.protocol === 'https' ? 'https' : 'http'}://${target.found.page.custom_domain}` : `${ownOrigin}${target.base}`;
  const pageRef = (req: FastifyRequest, target: Target): StatuspagePage => ({
    id: target.found.page.id,
    name: target.found.page.name,
    url: pageUrl(req, target),
    updatedAt: target.found.page.updated_at ?? target.found.page.created_at,
  });
  const sendHtml = (reply: FastifyReply, target: Target, body: string) =>
    publicSecurityHeaders(reply, 'html').header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').header('x-content-version', String(target.found.version)).send(body);
  /**
   * Sends a body built once per version and minute as bytes, gzipped when the client takes it:
   * encoding a 100 KB page to UTF-8 on every answer was most of the cost of serving it.
   */
  const sendEncoded = async (req: FastifyRequest, reply: FastifyReply, target: Target, name: string, contentType: string, build: () => Promise<string>) => {
    const body = await target.found.memo(name, async () => encodeBody(await build()));
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    void reply.header('content-type', contentType).header('cache-control', 'no-cache').header('vary', 'accept-encoding')
      .header('x-content-version', String(target.found.version));
    if (contentType.startsWith('text/html')) publicSecurityHeaders(reply, 'html');
    else if (contentType.includes('xml')) publicSecurityHeaders(reply, 'feed');
    if (encoding) void reply.header('content-encoding', encoding);
    return reply.send(encoding ? body[encoding] : body.raw);
  };
  const etag = (target: Target, kind: string) => `"${kind}-${target.found.page.id}-${target.found.version}-${Math.floor(pages.now().getTime() / 60_000)}"`;
  /** Answers 304 when the visitor has this version already; else sets the validator. */
  const fresh = (req: FastifyRequest, reply: FastifyReply, tag: string): boolean => {
    reply.header('etag', tag).header('cache-control', 'no-cache');
    if (req.headers['if-none-match'] === tag) {
      void reply.code(304).send();
      return true;
    }
    return false;
  };

  /** Private pages need a session: HTML gets the password prompt, machines a 401. */
  const guard = async (req: FastifyRequest, reply: FastifyReply, target: Target, asHtml: boolean): Promise<boolean> => {
    if (await pages.mayView(target.found.page, cookieOf(req, COOKIE))) return true;
    if (asHtml) void sendHtml(reply.code(401), target, passwordPromptHtml(look(target, pages.now()), undefined));
    else void reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'This status page is private: sign in with its password first' });
    return false;
  };

  const handlers: Array<{ method: 'GET' | 'POST'; path: string; handle: Handler }> = [
    {
      method: 'GET', path: '', handle: async (req, reply, target) => {
        if (!(await guard(req, reply, target, true))) return reply;
        if (fresh(req, reply, etag(target, 'page'))) return reply;
        return sendEncoded(req, reply, target, `html:${target.base}`, 'text/html; charset=utf-8', async () => statusPageHtml(look(target, pages.now()), await pages.model(target.found)));
      },
    },
    {
      method: 'GET', path: '/content', handle: async (req, reply, target) => {
        if (!(await guard(req, reply, target, false))) return reply;
        return sendEncoded(req, reply, target, `content:${target.base}`, 'text/html; charset=utf-8', async () => statusPageContent(await pages.model(target.found), target.base).value);
      },
    },
    {
      method: 'GET', path: '/history', handle: async (req, reply, target) => {
        if (!(await guard(req, reply, target, true))) return reply;
        return sendHtml(reply, target, statusPageHistoryHtml(look(target, pages.now()), await pages.model(target.found)));
      },
    },
    {
      method: 'GET', path: '/incidents/:incidentId', handle: async (req, reply, target, params) => {
        if (!(await guard(req, reply, target, true))) return reply;
        const model = await pages.model(target.found);
        const incident = [...model.openIncidents, ...model.pastIncidents].find((i) => i.id === params.incidentId);
        if (!incident) return sendHtml(reply.code(404), target, statusPageDocument(look(target, pages.now()), 'Not found', html`<main><h2>No such incident on this page</h2></main>`));
        return sendHtml(reply, target, statusPageDocument(look(target, pages.now()), `${incident.name} — ${target.found.page.name}`, html`<main>${incidentBlock(incident, target.base, serviceNamesOf(model))}</main>`));
      },
    },
    {
      method: 'GET', path: '/maintenances/:maintenanceId', handle: async (req, reply, target, params) => {
        if (!(await guard(req, reply, target, true))) return reply;
        const model = await pages.model(target.found);
        const m = [...model.activeMaintenances, ...model.upcomingMaintenances, ...model.pastMaintenances].find((x) => x.id === params.maintenanceId);
        if (!m) return sendHtml(reply.code(404), target, statusPageDocument(look(target, pages.now()), 'Not found', html`<main><h2>No such maintenance on this page</h2></main>`));
        return sendHtml(reply, target, statusPageDocument(look(target, pages.now()), `${m.name} — ${target.found.page.name}`, html`<main>${maintenanceBlock(m, target.base, serviceNamesOf(model))}</main>`));
      },
    },
    {
      method: 'POST', path: '/login', handle: async (req, reply, target) => {
        const page = target.found.page;
        const body = req.body as Record<string, unknown> | undefined;
        const password = typeof body?.password === 'string' ? body.password : '';
        const stored = page.is_private ? await ctx.store.statusPages.passwordOf(page.id) : undefined;
        if (!page.is_private) return reply.redirect(`${target.base}/`, 303);
        // Per page and client: guessing at one page locks that page only, and a custom domain counts the same.
        const key = `${page.id}|${req.ip}`;
        const wait = passwordTries.retryAfter(key);
        if (wait > 0) return sendHtml(reply.code(429).header('retry-after', String(wait)), target, passwordPromptHtml(look(target, pages.now()), 'LOCKED'));
        if (!password || password.length > 1000 || !(await pagePasswordMatches(password, stored?.password_hash))) {
          req.log.info({ statusPageId: page.id }, 'status page: wrong password');
          if (passwordTries.count(key)) req.log.info({ statusPageId: page.id, ip: req.ip, lockMs: PASSWORD_LOCK_MS }, 'status page: too many wrong passwords, client locked out of this page');
          return sendHtml(reply.code(401), target, passwordPromptHtml(look(target, pages.now()), 'WRONG'));
        }
        const token = await pages.sessionFor(page);
        // request.protocol is https behind a trusted TLS-terminating proxy (LOOKOUT_TRUST_PROXY) only.
        const secure = req.protocol === 'https' || ctx.config.publicUrl.startsWith('https:') ? '; Secure' : '';
        void reply.header('set-cookie', `${COOKIE}=${encodeURIComponent(token!)}; Path=${target.base || '/'}; Max-Age=${PAGE_SESSION_MS / 1000}; HttpOnly; SameSite=Lax${secure}`);
        return reply.redirect(`${target.base}/`, 303);
      },
    },
    {
      // Self-service email subscriptions, double opt-in: the subscriber stays PENDING until the mailed link is opened.
      method: 'POST', path: '/subscribe', handle: async (req, reply, target) => {
        if (!(await guard(req, reply, target, true))) return reply;
        const opts = look(target, pages.now());
        const key = `${target.found.page.id}|${req.ip}`;
        const wait = formPosts.retryAfter(key);
        if (wait > 0) return sendHtml(reply.code(429).header('retry-after', String(wait)), target, subscribeOutcomeHtml(opts, 'FAILED'));
        formPosts.count(key);
        const body = req.body as Record<string, unknown> | undefined;
        const email = typeof body?.email === 'string' ? body.email.trim() : '';
        if (!ctx.config.smtpUrl) return sendHtml(reply.code(409), target, subscribeOutcomeHtml(opts, 'FAILED'));
        try {
          const created = await ctx.statusPageSubscriptions.bulkCreate(target.found.page.account_id, target.found.page.id, { subscriptions: [{ type: 'EMAIL', config: email }], autoVerify: false });
          if (created.created === 0) return sendHtml(reply, target, subscribeOutcomeHtml(opts, 'ALREADY'));
          const sent = created.subscriptions[0]?.confirmation === 'SENT';
          return sendHtml(reply.code(sent ? 200 : 502), target, subscribeOutcomeHtml(opts, sent ? 'SENT' : 'FAILED'));
        } catch (err) {
          if ((err as { code?: string }).code === 'VALIDATION') return sendHtml(reply.code(400), target, subscribeOutcomeHtml(opts, 'INVALID'));
          throw err;
        }
      },
    },
    {
      method: 'GET', path: '/events', handle: async (req, reply, target) => {
        if (!(await guard(req, reply, target, false))) return reply;
        const accountId = target.found.page.account_id;
        const set = streams.get(accountId) ?? new Set();
        streams.set(accountId, set);
        const stream = openEventStream(reply, {
          heartbeatMs: HEARTBEAT_MS,
          onEnd: () => {
            set.delete(stream);
            if (set.size === 0 && streams.get(accountId) === set) streams.delete(accountId);
          },
        });
        set.add(stream);
        // The version this connection starts at: a page loaded before a missed change refreshes at once.
        stream.send({ retry: 1000, event: 'hello', data: target.found.version });
        return reply;
      },
    },
    ...(['summary', 'status', 'incidents'] as const).map((doc) => ({
      method: 'GET' as const, path: `/api/v2/${doc}.json`, handle: (async (req, reply, target) => {
        if (!(await guard(req, reply, target, false))) return reply;
        if (fresh(req, reply, etag(target, doc))) return reply;
        const ref = pageRef(req, target);
        void reply.header('access-control-allow-origin', '*');
        return sendEncoded(req, reply, target, `${doc}:${ref.url}`, 'application/json; charset=utf-8', async () => {
          const model = await pages.model(target.found);
          return JSON.stringify(doc === 'summary' ? statuspageSummary(ref, model) : doc === 'status' ? statuspageStatus(ref, model) : statuspageIncidents(ref, model));
        });
      }) as Handler,
    })),
    ...(['rss', 'atom'] as const).map((kind) => ({
      method: 'GET' as const, path: `/feed.${kind}`, handle: (async (req, reply, target) => {
        // "Feeds are unavailable on private pages."
        if (target.found.page.is_private) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'Private status pages have no feeds' });
        if (fresh(req, reply, etag(target, kind))) return reply;
        const ref = pageRef(req, target);
        return sendEncoded(req, reply, target, `${kind}:${ref.url}`, kind === 'rss' ? 'application/rss+xml; charset=utf-8' : 'application/atom+xml; charset=utf-8', async () => {
          const model = await pages.model(target.found);
          return kind === 'rss' ? statusPageRss(ref.name, ref.url, model, pages.now()) : statusPageAtom(ref.name, ref.url, model, pages.now());
        });
      }) as Handler,
    })),
  ];

  const notFoundPage = (reply: FastifyReply) => publicSecurityHeaders(reply.code(404), 'html').header('content-type', 'text/html; charset=utf-8')
    .send('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Status page not found</title></head><body><h1>Status page not found</h1></body></html>');

  void app.register(async (scope) => {
    // The password form posts url-encoded; this parser exists only inside these routes.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    for (const h of handlers) {
      scope.route({
        method: h.method,
        url: `/status/:url${h.path}`,
        schema: { hide: true },
        // Reading is cached and cheap, so unlimited; guessing passwords and mailing strangers are limited
        // per page and client by the handlers, on these paths and on custom domains alike.
        config: { public: true, rateLimit: false, inputRules: false } as never,
        handler: async (req, reply) => {
          const params = req.params as Record<string, string>;
          if (!SLUG.test(params.url ?? '')) return notFoundPage(reply);
          const found = await pages.byUrl(params.url!);
          if (!found) return notFoundPage(reply);
          return h.handle(req, reply, { found, base: `/status/${found.page.url}` }, params);
        },
      });
    }

  });

  // A custom domain serves the same paths at its root, chosen by the Host header.
  const ownHosts = new Set(['localhost', '127.0.0.1', '[::1]', new URL(ctx.config.publicUrl).hostname]);
  const matchers = handlers.map((h) => ({ ...h, pattern: new RegExp(`^${h.path.replace(/:(\w+)/g, '(?<$1>[^/]+)')}/?$`) }));
  app.addHook('onRequest', async (req, reply) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    if (ownHosts.has(host) || !HOST.test(host) || (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST')) return;
    const path = req.url.split('?')[0]!;
    if (/^\/(v1|graphql|status|dashboards|openapi|swagger|health)(\/|$|\.)/.test(path)) return;
    const match = matchers.find((m) => m.method === (req.method === 'HEAD' ? 'GET' : req.method) && m.pattern.test(path === '/' ? '' : path));
    if (!match) return;
    const found = await pages.byDomain(host);
    if (!found) return;
    const params = { ...(match.pattern.exec(path === '/' ? '' : path)?.groups ?? {}) };
    // onRequest comes before body parsing: the password form is read here.
    if (req.method === 'POST') (req as { body?: unknown }).body = Object.fromEntries(new URLSearchParams(await readSmallBody(req, 4096)));
    await match.handle(req, reply, { found, base: '' }, params);
    return reply;
  });
}

/** A body as bytes, gzipped and brotli-compressed, made once per version and minute and sent many times. */
function encodeBody(text: string): { raw: Buffer; gzip: Buffer; br: Buffer } {
  const raw = Buffer.from(text, 'utf8');
  return {
    raw,
    gzip: gzipSync(raw, { level: 6 }),
    // Quality 5: within a few percent of the best for these pages, at a fraction of quality 11's time.
    br: brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
  };
}

/** The encoding to answer in: brotli, else gzip, when the client takes it (a `;q=0` refuses); null for none. */
export function preferredEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const accepted = new Set<string>();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null;
}

/** The raw body of a small form post; more than `limit` bytes reads as empty (the password is then wrong). */
async function readSmallBody(req: FastifyRequest, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw) {
    size += (chunk as Buffer).length;
    if (size > limit) return '';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
