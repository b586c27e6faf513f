import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request a receiver got. */
export interface ReceivedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

/** A loopback HTTP server that records every request and answers as scripted per path. */
export interface HttpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Requests to `path` only. */
  to(path: string): ReceivedRequest[];
  /** The statuses the next requests to `path` get, in order; then 200 again. */
  answer(path: string, ...statuses: number[]): void;
  /** Requests to `path` never get an answer. */
  hang(path: string): void;
  /** Resolves once `count` requests to `path` arrived. */
  waitFor(path: string, count: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startHttpReceiver(): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const scripted = new Map<string, number[]>();
  const hanging = new Set<string>();
  const waiters: { path: string; count: number; resolve(r: ReceivedRequest[]): void }[] = [];
  const sockets = new Set<Socket>();
  const to = (path: string) => requests.filter((r) => r.path === path);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      requests.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body, json });
      for (const w of [...waiters]) {
        if (to(w.path).length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(to(w.path));
        }
      }
      if (hanging.has(url.pathname)) return;
      const status = scripted.get(url.pathname)?.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status: status < 300 ? 'success' : 'error' }));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    to,
    answer: (path, ...statuses) => void scripted.set(path, statuses),
    hang: (path) => void hanging.add(path),
    waitFor(path, count) {
      if (to(path).length >= count) return Promise.resolve(to(path));
      return new Promise((resolve) => waiters.push({ path, count, resolve }));
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
