import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the health endpoints report. */
export interface AgentHealthStatus {
  /** Connected to the service and not shutting down. */
  ready: boolean;
  connected: boolean;
  running: number;
  version: string;
  agentId: string;
}

/** Options of createAgentHealthServer. */
export interface AgentHealthServerOptions {
  /** 0: any free port. */
  port: number;
  host?: string;
  status: () => AgentHealthStatus;
}

/** The health server of an agent. */
export interface AgentHealthServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The agent's health endpoints, as the spec gives them: `GET /-/readiness` 200 when the agent is
 * ready (connected, not shutting down) and 503 otherwise, `GET /-/liveness` and `GET /health`
 * 200 while the process answers. Bodies are JSON with the agent's state.
 */
export async function createAgentHealthServer(options: AgentHealthServerOptions): Promise<AgentHealthServer> {
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    };
    const pathname = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { status: 'method not allowed' });
    const s = options.status();
    if (pathname === '/-/readiness') return send(s.ready ? 200 : 503, { status: s.ready ? 'ready' : 'not ready', ...s });
    if (pathname === '/-/liveness' || pathname === '/health') return send(200, { status: 'ok', ...s });
    return send(404, { status: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
