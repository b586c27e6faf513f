import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TCP_RESPONSE_CAP_BYTES, runTcpCheck } from '../../src/runner/executors/run-tcp-check.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';

interface TestTcpServer {
  port: number;
  close(): Promise<void>;
}

/** A TCP server on loopback (port 0) running `onConnection` for each client. */
async function startTcpServer(onConnection: (socket: net.Socket) => void, host = '127.0.0.1'): Promise<TestTcpServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    onConnection(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/** A port that was just free: a server listened on it and closed. */
async function closedPort(): Promise<number> {
  const s = await startTcpServer(() => {});
  await s.close();
  return s.port;
}

async function ipv6Available(): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(0, '::1', () => server.close(() => resolve(true)));
  });
}

const tcp = (request: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  runnableCheck('TCP', { request: { hostname: '127.0.0.1', ...request }, ...extra });

describe('TCP check executor', () => {
  let echo: TestTcpServer;
  let banner: TestTcpServer;
  let silent: TestTcpServer;
  let flood: TestTcpServer;

  beforeAll(async () => {
    echo = await startTcpServer((s) => s.pipe(s));
    banner = await startTcpServer((s) => s.end('220 lookout.test ESMTP ready\r\n'));
    silent = await startTcpServer(() => {});
    flood = await startTcpServer((s) => s.end(Buffer.alloc(TCP_RESPONSE_CAP_BYTES + 4000, 'x')));
  });
  afterAll(async () => {
    await Promise.all([echo, banner, silent, flood].map((s) => s.close()));
  });

  it('sends the data with variables replaced and passes when the echoed reply matches the assertion', async () => {
    const check = tcp({
      port: echo.port,
      data: 'PING {{TARGET}}\n',
      assertions: [
        { source: 'RESPONSE_DATA', comparison: 'EQUALS', target: 'PING lookout\n' },
        { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '5000' },
      ],
    });
    const result = await runTcpCheck(check, runContext({ variables: [{ key: 'TARGET', value: 'lookout', secret: false }] }));
    expect(result.errors).toEqual([]);
    expect(result.hasFailures).toBe(false);
    expect(result.hasErrors).toBe(false);
    expect(result.networkError).toBe(false);
    expect(result.assertions.map((a) => a.passed)).toEqual([true, true]);
    expect(result.details).toEqual({ connected: true, bytesSent: 13, bytesReceived: 13, response: 'PING lookout\n' });
    expect(result.stoppedAt.getTime()).toBeGreaterThanOrEqual(result.startedAt.getTime());
  });

  it('fails without an error when the reply does not match a RESPONSE_DATA assertion', async () => {
    const check = tcp({ port: echo.port, data: 'hello', assertions: [{ source: 'RESPONSE_DATA', comparison: 'CONTAINS', target: 'goodbye' }] });
    const result = await runTcpCheck(check, runContext());
    expect(result.hasFailures).toBe(true);
    expect(result.hasErrors).toBe(false);
    expect(result.assertions[0]).toMatchObject({ passed: false, actual: 'hello' });
  });

  it('reads a banner from a server that speaks first and closes, without sending anything', async () => {
    const check = tcp({ port: banner.port, assertions: [{ source: 'RESPONSE_DATA', comparison: 'CONTAINS', target: 'ESMTP' }] });
    const result = await runTcpCheck(check, runContext());
    expect(result.hasFailures).toBe(false);
    expect(result.details).toMatchObject({ connected: true, bytesSent: 0, response: '220 lookout.test ESMTP ready\r\n' });
  });

  it('passes on the connection alone when it sends nothing and asserts nothing on a silent server', async () => {
    const result = await runTcpCheck(tcp({ port: silent.port }), runContext());
    expect(result.hasFailures).toBe(false);
    expect(result.details).toMatchObject({ connected: true, bytesReceived: 0, response: '' });
  });

  it('reports ETIMEDOUT as a network error when a server never answers the data sent', async () => {
    const result = await runTcpCheck(tcp({ port: silent.port, data: 'anyone there?' }), runContext({ timeoutMs: 300 }));
    expect(result.hasFailures).toBe(true);
    expect(result.hasErrors).toBe(true);
    expect(result.networkError).toBe(true);
    expect(result.errors).toEqual([{ code: 'ETIMEDOUT', message: expect.stringContaining('no reply') }]);
    expect(result.details).toMatchObject({ connected: true, bytesSent: 13, bytesReceived: 0 });
  });

  it('reports ECONNREFUSED as a network error for a closed port', async () => {
    const result = await runTcpCheck(tcp({ port: await closedPort() }), runContext());
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: true, assertions: [] });
    expect(result.errors.map((e) => e.code)).toEqual(['ECONNREFUSED']);
    expect(result.details).toMatchObject({ connected: false, bytesSent: 0, bytesReceived: 0 });
  });

  it('passes a closed port when the check should fail, still recording the error', async () => {
    const result = await runTcpCheck(tcp({ port: await closedPort() }, { shouldFail: true }), runContext());
    expect(result.hasFailures).toBe(false);
    expect(result.hasErrors).toBe(true);
    expect(result.errors[0]?.code).toBe('ECONNREFUSED');
  });

  it('keeps at most the capped number of bytes of a long reply', async () => {
    const result = await runTcpCheck(tcp({ port: flood.port }), runContext());
    expect(result.hasFailures).toBe(false);
    expect((result.details?.response as string).length).toBe(TCP_RESPONSE_CAP_BYTES);
    expect(result.details?.bytesReceived).toBeGreaterThanOrEqual(TCP_RESPONSE_CAP_BYTES);
  });

  it('scrubs the values of secret variables from the reply it keeps', async () => {
    const check = tcp({ port: echo.port, data: 'AUTH {{TOKEN}}', assertions: [{ source: 'RESPONSE_DATA', comparison: 'CONTAINS', target: 'AUTH s3cr3t-t0ken' }] });
    const result = await runTcpCheck(check, runContext({ variables: [{ key: 'TOKEN', value: 's3cr3t-t0ken', secret: true }] }));
    expect(result.assertions[0]?.passed).toBe(true);
    expect(result.details?.response).toBe('AUTH *****');
    expect(JSON.stringify(result)).not.toContain('s3cr3t-t0ken');
  });

  it('stops with CANCELLED when the run was already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runTcpCheck(tcp({ port: silent.port, data: 'x' }), runContext({ signal: controller.signal }));
    expect(result.errors.map((e) => e.code)).toEqual(['CANCELLED']);
    expect(result.networkError).toBe(false);
  });

  it('stops with CANCELLED when the run is cancelled while waiting for a reply', async () => {
    const controller = new AbortController();
    const pending = runTcpCheck(tcp({ port: silent.port, data: 'x' }), runContext({ signal: controller.signal, timeoutMs: 30_000 }));
    controller.abort();
    const result = await pending;
    expect(result.errors.map((e) => e.code)).toEqual(['CANCELLED']);
  });

  it.each([
    ['no hostname', { hostname: '', port: 80 }],
    ['no port', { port: undefined }],
    ['a port out of range', { port: 70000 }],
  ])('returns INVALID_REQUEST instead of throwing for a request with %s', async (_label, request) => {
    const result = await runTcpCheck(tcp(request), runContext());
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: false });
    expect(result.errors.map((e) => e.code)).toEqual(['INVALID_REQUEST']);
  });

  it('connects over IPv6 when the check asks for it', async (ctx) => {
    if (!(await ipv6Available())) return ctx.skip('IPv6 loopback (::1) is not available on this machine');
    const server = await startTcpServer((s) => s.pipe(s), '::1');
    try {
      const check = tcp({ hostname: '::1', port: server.port, data: 'v6', ipFamily: 'IPv6' });
      const result = await runTcpCheck(check, runContext());
      expect(result.errors).toEqual([]);
      expect(result.details).toMatchObject({ connected: true, response: 'v6' });
    } finally {
      await server.close();
    }
  });
});
