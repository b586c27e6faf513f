import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A JSON answer the proxy gives instead of forwarding. */
export interface ProxyAnswer {
  status: number;
  body: unknown;
}

/** Decides a request itself (an answer) or lets it through to the upstream (undefined). */
export type ProxyIntercept = (req: IncomingMessage, url: URL) => ProxyAnswer | undefined;

/** A loopback proxy in front of a real service. */
export interface RestProxy {
  url: string;
  /** Every request it got, as `METHOD /path?query`, intercepted ones included. */
  seen: string[];
  close(): Promise<void>;
}

/** The headers a GraphQL layer's REST calls depend on; the rest stay behind. */
const FORWARDED = ['authorization', 'x-lookout-account', 'accept', 'content-type'];

/**
 * Starts a proxy to `upstreamUrl` that behaves like another backend: `intercept` answers first (an
 * older backend's 404 for a missing route, its 400 for an unknown filter); everything else goes
 * through with its method, path, body and the auth/account headers, and comes back with its status,
 * content-type and content-range. Tests point a second server's `graphqlBackendUrl` at it.
 */
export async function startRestProxy(upstreamUrl: string, intercept?: ProxyIntercept): Promise<RestProxy> {
  const seen: string[] = [];
  const server = createServer(async (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const answer = intercept?.(req, new URL(req.url!, 'http://proxy'));
    if (answer) {
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => FORWARDED.includes(k))) as Record<string, string>;
    try {
      const upstream = await fetch(upstreamUrl + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const copied: Record<string, string> = { 'content-type': upstream.headers.get('content-type') ?? 'application/json' };
      const range = upstream.headers.get('content-range');
      if (range) copied['content-range'] = range;
      res.writeHead(upstream.status, copied).end(await upstream.text());
    } catch {
      res.writeHead(502).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The answer a backend without the requested route gives (Fastify's own 404). */
export const routeNotFound = (req: IncomingMessage): ProxyAnswer => ({
  status: 404, body: { statusCode: 404, error: 'Not Found', message: `Route ${req.method}:${req.url} not found` },
});

/** The answer a backend gives to query parameters it does not know. */
export const unknownQueryParameter = (key: string): ProxyAnswer => ({
  status: 400,
  body: { statusCode: 400, error: 'Bad Request', message: 'querystring must NOT have additional properties', validation: { source: 'query', keys: [key] } },
});
