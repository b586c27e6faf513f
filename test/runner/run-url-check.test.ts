import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../src/domain/check-result.js';
import type { RunVariable } from '../../src/runner/executor.js';
import { runUrlCheck } from '../../src/runner/executors/run-url-check.js';
import { closedPort, startHttpTarget, startIpv6Target, type HttpTarget } from '../support/http-target.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';

let target: HttpTarget;
beforeAll(async () => {
  target = await startHttpTarget();
});
afterAll(async () => {
  await target.close();
});

function run(
  request: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  ctx: { timeoutMs?: number; variables?: RunVariable[] } = {},
): Promise<ProbeResult> {
  return runUrlCheck(runnableCheck('URL', { request, ...extra }), runContext(ctx));
}

function api(result: ProbeResult): any {
  return result.apiCheckResult;
}

describe('URL monitor executor', () => {
  it('passes on a 2xx status without assertions and records the response and phases', async () => {
    const result = await run({ url: `${target.http.url}/json` });
    expect(result.hasFailures).toBe(false);
    expect(result.hasErrors).toBe(false);
    expect(api(result).request.method).toBe('GET');
    expect(api(result).response.status).toBe(200);
    const phases = api(result).response.timingPhases;
    for (const key of ['dns', 'tcp', 'tls', 'firstByte', 'download', 'total', 'wait']) expect(phases[key]).toBeGreaterThanOrEqual(0);
    expect(phases.total).toBeGreaterThanOrEqual(phases.firstByte);
    expect((result.details as any).timingPhases).toEqual(phases);
    expect((result.details as any).statusCode).toBe(200);
  });

  it.each([400, 404, 500, 503])('fails on status %i without assertions, shown as STATUS_CODE LESS_THAN 400', async (status) => {
    const result = await run({ url: `${target.http.url}/status/${status}` });
    expect(result.hasFailures).toBe(true);
    expect(result.hasErrors).toBe(false);
    expect(result.assertions).toEqual([
      expect.objectContaining({ source: 'STATUS_CODE', comparison: 'LESS_THAN', target: 400, actual: String(status), passed: false }),
    ]);
  });

  it('uses its STATUS_CODE assertions instead of the default rule', async () => {
    const result = await run({ url: `${target.http.url}/status/404`, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '404' }] });
    expect(result.hasFailures).toBe(false);
    const failing = await run({ url: `${target.http.url}/status/200`, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '404' }] });
    expect(failing.hasFailures).toBe(true);
  });

  it('ignores assertions of sources other than STATUS_CODE', async () => {
    const result = await run({ url: `${target.http.url}/json`, assertions: [{ source: 'TEXT_BODY', comparison: 'EQUALS', target: 'never' }] });
    expect(result.hasFailures).toBe(false);
    expect(result.assertions).toEqual([expect.objectContaining({ source: 'STATUS_CODE', comparison: 'LESS_THAN', passed: true })]);
  });

  it('passes a 404 with shouldFail', async () => {
    const result = await run({ url: `${target.http.url}/status/404` }, { shouldFail: true });
    expect(result.hasFailures).toBe(false);
  });

  it('follows redirects unless told not to', async () => {
    const followed = await run({ url: `${target.http.url}/redirect/2` });
    expect(api(followed).response.status).toBe(200);
    const stopped = await run({ url: `${target.http.url}/redirect/2`, followRedirects: false });
    expect(api(stopped).response.status).toBe(302);
    expect(stopped.hasFailures).toBe(false);
  });

  it('is degraded when slower than degradedResponseTime and fails over maxResponseTime', async () => {
    const degraded = await run({ url: `${target.http.url}/delay/300` }, { degradedResponseTime: 100, maxResponseTime: 30000 });
    expect(degraded.isDegraded).toBe(true);
    expect(degraded.hasFailures).toBe(false);
    const over = await run({ url: `${target.http.url}/delay/300` }, { degradedResponseTime: 50, maxResponseTime: 100 });
    expect(over.overMaxResponseTime).toBe(true);
    expect(over.hasFailures).toBe(true);
  });

  it('times out on a server that never answers', async () => {
    const result = await run({ url: `${target.http.url}/hang` }, {}, { timeoutMs: 250 });
    expect(result.errors[0]?.code).toBe('ETIMEDOUT');
    expect(result.networkError).toBe(true);
  });

  it('reports a refused connection as a network error', async () => {
    const port = await closedPort();
    const result = await run({ url: `http://127.0.0.1:${port}/` });
    expect(result.errors[0]?.code).toBe('ECONNREFUSED');
    expect(result.networkError).toBe(true);
    expect(result.hasFailures).toBe(true);
  });

  it('rejects a self-signed certificate unless skipSSL, recording it either way', async () => {
    const rejected = await run({ url: `${target.https.url}/json` });
    expect(rejected.errors[0]?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    const accepted = await run({ url: `${target.https.url}/json`, skipSSL: true });
    expect(accepted.hasFailures).toBe(false);
    expect((accepted.details as any).ssl.daysRemaining).toBe(365);
  });

  it('fails an expired certificate and records its days remaining', async () => {
    const result = await run({ url: `${target.expired.url}/` });
    expect(result.errors[0]?.code).toBe('CERT_HAS_EXPIRED');
    expect((result.details as any).ssl.daysRemaining).toBeLessThan(0);
    const soon = await run({ url: `${target.expiring.url}/json`, skipSSL: true });
    expect((soon.details as any).ssl).toMatchObject({ daysRemaining: 5, subject: 'CN=localhost' });
  });

  it('substitutes variables in the URL and scrubs secrets from the result', async () => {
    const result = await run({ url: '{{BASE}}/json?key={{KEY}}' }, {}, {
      variables: [{ key: 'BASE', value: target.http.url, secret: false }, { key: 'KEY', value: 'topsecretkey', secret: true }],
    });
    expect(result.hasFailures).toBe(false);
    expect(JSON.stringify(result)).not.toContain('topsecretkey');
    expect(api(result).request.url).toBe(`${target.http.url}/json?key=*****`);
  });
});

const ipv6 = await startIpv6Target();
describe('URL monitor executor over IPv6', () => {
  afterAll(async () => {
    await ipv6?.close();
  });

  // Skipped only on machines without an IPv6 loopback address (::1 cannot be bound there).
  it.skipIf(ipv6 === null)('monitors a URL on ::1 with ipFamily IPv6', async () => {
    const result = await run({ url: `${ipv6!.listener.url}/json`, ipFamily: 'IPv6' });
    expect(result.hasFailures).toBe(false);
    expect(api(result).response.status).toBe(200);
  });
});
