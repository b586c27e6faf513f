import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A loopback web site for browser and multi-step checks. */
export interface PageTarget {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:1234`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `/` as an HTML page titled `title` with an `<h1>` of the same text, and `/api/cart` as
 * JSON `{items: 3}`; anything else is a 404.
 */
export async function startPageTarget(title: string): Promise<PageTarget> {
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`);
    } else if (req.url === '/api/cart') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ items: 3 }));
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
