import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveDanubeWebshop } from './danube-webshop.js';

/**
 * The web hosts the Checkly CLI's example projects monitor, on one loopback HTTP server (port 0):
 * the Danube web shop (danube-web.shop), the SpaceX API's dragons (api.spacexdata.com/v3, read by
 * the multi-step check) and a pricing page with three plan tiers (checklyhq.com/pricing, named in
 * the boilerplate's agentic prompt).
 */
export interface ExampleProjectSites {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Paths requested so far, in order (to show a check really reached the stand-in). */
  requested: string[];
  close(): Promise<void>;
}

const DRAGONS = [
  { id: 'dragon1', name: 'Dragon 1', type: 'capsule', active: true },
  { id: 'dragon2', name: 'Dragon 2', type: 'capsule', active: true },
];

const PRICING = `<!doctype html><html><head><meta charset="utf-8"><title>Pricing</title></head><body>
<h1>Plans and pricing</h1>
<section class="plan"><h2>Hobby</h2><p>Free</p></section>
<section class="plan"><h2>Team</h2><p>$64 per month</p></section>
<section class="plan"><h2>Enterprise</h2><p>Contact us</p></section>
</body></html>`;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function serveOthers(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://sites.invalid').pathname;
  const dragon = /^\/v3\/dragons\/([\w-]+)$/.exec(path);
  if (path === '/v3/dragons') json(res, 200, DRAGONS);
  else if (dragon) {
    const found = DRAGONS.find((d) => d.id === dragon[1]);
    json(res, found ? 200 : 404, found ?? { error: 'Not Found' });
  } else if (path === '/pricing') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PRICING);
  } else {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }
}

/** Starts the sites on 127.0.0.1, port 0. */
export async function startExampleProjectSites(): Promise<ExampleProjectSites> {
  const requested: string[] = [];
  const server = http.createServer((req, res) => {
    requested.push(req.url ?? '/');
    if (!serveDanubeWebshop(req, res)) serveOthers(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
