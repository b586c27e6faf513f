import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import net from 'node:net';
import zlib from 'node:zlib';
import { generate } from 'selfsigned';

const DAY_MS = 86_400_000;

/**
 * Routes of the target (same on every listener):
 * - `/echo` answers JSON `{method, path, query, headers, body}` of the request it got;
 * - `/json` a fixed JSON document with a custom header; `/status/{code}` that status;
 * - `/redirect/{n}` redirects n times before answering 200 "arrived"; `/loop` redirects forever;
 *   `/see-other` answers 303 to /echo; `/elsewhere/{port}` redirects to another port's /echo;
 * - `/delay/{ms}` answers after the server waited ms (the only delays: made by the server);
 * - `/hang` never answers (emits `hang` when the request arrived);
 * - `/auth` needs basic auth user:pass; `/gzip` a gzip-compressed body; `/big` 300 KiB ending in "TAIL".
 */
function handler(events: EventEmitter) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://target');
      const parts = url.pathname.split('/').filter(Boolean);
      const body = Buffer.concat(chunks).toString('utf8');
      events.emit('request', { method: req.method, path: url.pathname, headers: req.headers, body });
      switch (parts[0]) {
        case 'echo':
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({
            method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body,
          }));
          return;
        case 'json':
          res.setHeader('content-type', 'application/json; charset=utf-8');
          res.setHeader('x-lookout-test', 'present');
          res.end(JSON.stringify({ data: { name: 'lookout', items: [1, 2, 3], nothing: null } }));
          return;
        case 'status':
          res.statusCode = Number(parts[1]);
          res.end(`status ${parts[1]}`);
          return;
        case 'redirect': {
          const n = Number(parts[1]);
          if (n <= 0) return void res.end('arrived');
          res.writeHead(302, { location: `/redirect/${n - 1}` }).end();
          return;
        }
        case 'loop':
          res.writeHead(302, { location: '/loop' }).end();
          return;
        case 'see-other':
          res.writeHead(303, { location: '/echo' }).end();
          return;
        case 'elsewhere':
          res.writeHead(307, { location: `http://127.0.0.1:${parts[1]}/echo` }).end();
          return;
        case 'delay':
          setTimeout(() => res.end('late'), Number(parts[1]));
          return;
        case 'hang':
          events.emit('hang');
          return;
        case 'auth': {
          const expected = `Basic ${Buffer.from('user:pass').toString('base64')}`;
          res.statusCode = req.headers.authorization === expected ? 200 : 401;
          res.end(res.statusCode === 200 ? 'welcome' : 'denied');
          return;
        }
        case 'gzip':
          res.setHeader('content-encoding', 'gzip');
          res.end(zlib.gzipSync('compressed hello'));
          return;
        case 'big':
          res.end(`${'x'.repeat(300 * 1024)}TAIL`);
          return;
        default:
          res.statusCode = 404;
          res.end('not found');
      }
    });
  };
}

export interface Listener {
  /** Base URL, e.g. `http://127.0.0.1:1234` or `https://[::1]:1234`. */
  url: string;
  port: number;
}

/** Loopback HTTP and HTTPS servers the executor tests probe. */
export interface HttpTarget {
  http: Listener;
  /** Self-signed certificate valid for a year (and an hour, so whole days are 365). */
  https: Listener;
  /** Self-signed certificate that expired a day ago. */
  expired: Listener;
  /** Self-signed certificate expiring in 5 days (and an hour, so whole days are 5). */
  expiring: Listener;
  /** Emits `request` for every request and `hang` when /hang was called. */
  events: EventEmitter;
  close(): Promise<void>;
}

async function selfSigned(notBefore: number, notAfter: number): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(notBefore),
    notAfterDate: new Date(notAfter),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

async function listen(server: net.Server, host: string, protocol: string): Promise<Listener> {
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { port, url: `${protocol}://${host.includes(':') ? `[${host}]` : host}:${port}` };
}

/** Starts the servers, tracking sockets so close() also ends hanging requests. */
export async function startHttpTarget(): Promise<HttpTarget> {
  const events = new EventEmitter();
  const now = Date.now();
  const [valid, expired, expiring] = await Promise.all([
    selfSigned(now - DAY_MS, now + 365 * DAY_MS + 3_600_000),
    selfSigned(now - 30 * DAY_MS, now - DAY_MS - 3_600_000),
    selfSigned(now - DAY_MS, now + 5 * DAY_MS + 3_600_000),
  ]);
  const servers = [
    http.createServer(handler(events)),
    https.createServer(valid, handler(events)),
    https.createServer(expired, handler(events)),
    https.createServer(expiring, handler(events)),
  ] as const;
  const sockets = new Set<Socket>();
  for (const s of servers) {
    s.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
  }
  const [h, s, e, x] = await Promise.all([
    listen(servers[0], '127.0.0.1', 'http'),
    listen(servers[1], '127.0.0.1', 'https'),
    listen(servers[2], '127.0.0.1', 'https'),
    listen(servers[3], '127.0.0.1', 'https'),
  ]);
  return {
    http: h, https: s, expired: e, expiring: x, events,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((srv) => new Promise((resolve) => srv.close(resolve))));
    },
  };
}

/** An HTTP server on [::1], or null when this machine has no IPv6 loopback. */
export async function startIpv6Target(): Promise<{ listener: Listener; close(): Promise<void> } | null> {
  const server = http.createServer(handler(new EventEmitter()));
  try {
    // once() in listen rejects when the server emits 'error' (EADDRNOTAVAIL without IPv6).
    const listener = await listen(server, '::1', 'http');
    return { listener, close: () => new Promise((resolve) => server.close(() => resolve())) };
  } catch {
    return null;
  }
}

/** A loopback port that was just open and is now closed: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const { port } = await listen(server, '127.0.0.1', 'tcp');
  await new Promise((resolve) => server.close(resolve));
  return port;
}
