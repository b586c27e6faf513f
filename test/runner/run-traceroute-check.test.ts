import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTracerouteExecutor, runTracerouteCheck } from '../../src/runner/executors/run-traceroute-check.js';
import { findTraceroute } from '../../src/runner/traceroute-command.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';

const installed = findTraceroute() !== null;
const NO_TRACEROUTE = 'the traceroute program is not installed here: apt-get install -y traceroute (.ci/run installs it)';

const trace = (request: Record<string, unknown>) =>
  runnableCheck('TRACEROUTE', { request: { url: '127.0.0.1', maxHops: 5, ptrLookup: false, timeout: 10, ...request } });

describe('TRACEROUTE check executor with the system traceroute', () => {
  let server: net.Server;
  let port: number;
  beforeAll(async () => {
    server = net.createServer((s) => s.destroy()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const assertions = [
    { source: 'HOP_COUNT', comparison: 'EQUALS', target: '1' },
    { source: 'PACKET_LOSS', comparison: 'LESS_THAN', target: '50' },
    { source: 'RESPONSE_TIME', property: 'avg', comparison: 'LESS_THAN', target: '1000' },
    { source: 'RESPONSE_TIME', property: 'max', comparison: 'GREATER_THAN', target: '0' },
  ];

  it.for([
    { protocol: 'TCP', extra: () => ({ port }) },
    { protocol: 'ICMP', extra: () => ({}) },
    { protocol: 'UDP', extra: () => ({}) },
  ])('traces 127.0.0.1 over $protocol in one hop and passes hop, loss and latency assertions', async ({ protocol, extra }, ctx) => {
    if (!installed) return ctx.skip(NO_TRACEROUTE);
    const result = await runTracerouteCheck(trace({ protocol, assertions, ...extra() }), runContext({ timeoutMs: 15_000 }));
    expect(result.errors).toEqual([]);
    expect(result.assertions.map((a) => [a.source, a.passed])).toEqual(assertions.map((a) => [a.source, true]));
    expect(result).toMatchObject({ hasFailures: false, hasErrors: false });
    expect(result.details).toMatchObject({
      hostname: '127.0.0.1', resolvedIp: '127.0.0.1', protocol, totalHops: 1, destinationReached: true, truncationReason: null, packetLoss: 0,
      hops: [{ hop_number: 1, main_ip: '127.0.0.1', loss_percentage: 0 }],
    });
    expect(result.details?.finalHopLatency).toEqual({
      avgMs: expect.any(Number), bestMs: expect.any(Number), worstMs: expect.any(Number), stdDevMs: expect.any(Number),
    });
  });

  it('fails an assertion that does not hold, saying what was seen', async (ctx) => {
    if (!installed) return ctx.skip(NO_TRACEROUTE);
    const result = await runTracerouteCheck(trace({ protocol: 'TCP', port, assertions: [{ source: 'HOP_COUNT', comparison: 'GREATER_THAN', target: '3' }] }), runContext({ timeoutMs: 15_000 }));
    expect(result.hasFailures).toBe(true);
    expect(result.assertions[0]).toMatchObject({ passed: false, actual: '1', error: 'expected HOP_COUNT 1 to be greater than "3"' });
  });

  it('reports an unknown host as a failed result with ENOTFOUND', async (ctx) => {
    if (!installed) return ctx.skip(NO_TRACEROUTE);
    const result = await runTracerouteCheck(trace({ url: 'nonexistent.invalid' }), runContext({ timeoutMs: 15_000 }));
    expect(result.errors.map((e) => e.code)).toEqual(['ENOTFOUND']);
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: true });
  });

  it('refuses a host that traceroute would read as an option', async () => {
    const result = await runTracerouteCheck(trace({ url: '-I' }), runContext());
    expect(result.errors.map((e) => e.code)).toEqual(['INVALID_REQUEST']);
  });

  it('errors with TRACEROUTE_NOT_INSTALLED when the program is missing, never passing', async () => {
    const result = await createTracerouteExecutor({ command: () => null })(trace({}), runContext());
    expect(result.errors).toEqual([{ code: 'TRACEROUTE_NOT_INSTALLED', message: expect.stringContaining('apt-get install -y traceroute') }]);
    expect(result.hasFailures).toBe(true);
  });
});
