import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../src/domain/check-result.js';
import type { RunVariable } from '../../src/runner/executor.js';
import { runApiCheck } from '../../src/runner/executors/run-api-check.js';
import { DEFAULT_USER_AGENT, STORED_BODY_BYTES } from '../../src/runner/executors/run-http-check.js';
import { MAX_REDIRECTS } from '../../src/runner/http-probe.js';
import { closedPort, startHttpTarget, startIpv6Target, type HttpTarget } from '../support/http-target.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';

let target: HttpTarget;
beforeAll(async () => {
  target = await startHttpTarget();
});
afterAll(async () => {
  await target.close();
});

type Run = { variables?: RunVariable[]; timeoutMs?: number; signal?: AbortSignal };

function run(request: Record<string, unknown>, extra: Record<string, unknown> = {}, ctx: Run = {}): Promise<ProbeResult> {
  return runApiCheck(runnableCheck('API', { request, ...extra }), runContext(ctx));
}

/** The apiCheckResult with the fields tests read typed loosely. */
function api(result: ProbeResult): any {
  return result.apiCheckResult;
}

/** The echo route's view of the request the check sent. */
function echoed(result: ProbeResult): { method: string; path: string; query: Record<string, string>; headers: Record<string, string>; body: string } {
  return JSON.parse(api(result).response.body);
}

function expectSanePhases(result: ProbeResult): void {
  const phases = api(result)?.response?.timingPhases ?? (result.details as any).timingPhases;
  for (const key of ['dns', 'tcp', 'tls', 'firstByte', 'download', 'total', 'wait']) {
    expect(typeof phases[key]).toBe('number');
    expect(phases[key]).toBeGreaterThanOrEqual(0);
  }
  expect(phases.total).toBeGreaterThanOrEqual(phases.firstByte);
  expect(phases.wait).toBe(phases.firstByte);
  expect(result.responseTime).toBe(phases.total);
}

describe('API check executor: requests', () => {
  it('sends method, headers and query parameters and echoes them in the result', async () => {
    const result = await run({
      method: 'PUT',
      url: `${target.http.url}/echo?fixed=1`,
      headers: [{ key: 'X-Custom', value: 'one' }, { key: 'Accept', value: 'application/json' }],
      queryParameters: [{ key: 'page', value: '2' }, { key: 'tag', value: 'a b' }],
    });
    expect(result.hasFailures).toBe(false);
    expect(result.hasErrors).toBe(false);
    const seen = echoed(result);
    expect(seen.method).toBe('PUT');
    expect(seen.query).toEqual({ fixed: '1', page: '2', tag: 'a b' });
    expect(seen.headers['x-custom']).toBe('one');
    expect(seen.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
    const echo = api(result).request;
    expect(echo.method).toBe('PUT');
    expect(echo.url).toBe(`${target.http.url}/echo?fixed=1&page=2&tag=a+b`);
    expect(echo.headers['X-Custom']).toBe('one');
    expect(echo.params).toEqual({ page: '2', tag: 'a b' });
    expect(api(result).response.status).toBe(200);
    expect(api(result).response.statusText).toBe('OK');
    expect(api(result).response.headers['content-type']).toBe('application/json');
    expect(api(result).requestError).toBeNull();
    expect(api(result).jobAssets).toEqual([]);
    expectSanePhases(result);
  });

  it.each([
    ['JSON', '{"a":1}', 'application/json', '{"a":1}'],
    ['FORM', 'a=1&b=two', 'application/x-www-form-urlencoded', 'a=1&b=two'],
    ['FORM', '{"a":"1","b":"two words"}', 'application/x-www-form-urlencoded', 'a=1&b=two+words'],
    ['RAW', 'plain text', 'text/plain;charset=UTF-8', 'plain text'],
    ['GRAPHQL', '{ viewer { id } }', 'application/json', '{"query":"{ viewer { id } }"}'],
    ['GRAPHQL', '{"query":"{ a }","variables":{"x":1}}', 'application/json', '{"query":"{ a }","variables":{"x":1}}'],
  ])('sends a %s body with its content type when none is set (%s)', async (bodyType, body, contentType, sent) => {
    const result = await run({ method: 'POST', url: `${target.http.url}/echo`, bodyType, body });
    const seen = echoed(result);
    expect(seen.headers['content-type']).toBe(contentType);
    expect(seen.body).toBe(sent);
    expect(api(result).request.data).toBe(sent);
  });

  it('sends no body for bodyType NONE even when a body is stored', async () => {
    const result = await run({ method: 'POST', url: `${target.http.url}/echo`, bodyType: 'NONE', body: 'ignored' });
    const seen = echoed(result);
    expect(seen.body).toBe('');
    expect(seen.headers['content-type']).toBeUndefined();
  });

  it('keeps a content type the check sets itself', async () => {
    const result = await run({
      method: 'POST', url: `${target.http.url}/echo`, bodyType: 'JSON', body: '{}',
      headers: [{ key: 'content-type', value: 'application/vnd.api+json' }],
    });
    expect(echoed(result).headers['content-type']).toBe('application/vnd.api+json');
  });

  it('sends a HEAD request without a body', async () => {
    const result = await run({ method: 'HEAD', url: `${target.http.url}/json` });
    expect(result.hasFailures).toBe(false);
    expect(api(result).response.status).toBe(200);
    expect(api(result).response.body).toBe('');
  });

  it('authenticates with basicAuth and fails the status assertion with wrong credentials', async () => {
    const assertions = [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }];
    const good = await run({ url: `${target.http.url}/auth`, basicAuth: { username: 'user', password: 'pass' }, assertions });
    expect(good.hasFailures).toBe(false);
    expect(api(good).response.body).toBe('welcome');
    const bad = await run({ url: `${target.http.url}/auth`, basicAuth: { username: 'user', password: 'nope' }, assertions });
    expect(bad.hasFailures).toBe(true);
    expect(bad.hasErrors).toBe(false);
    expect(bad.assertions[0]).toMatchObject({ passed: false, actual: '401' });
  });

  it('decompresses a gzip body for assertions', async () => {
    const result = await run({
      url: `${target.http.url}/gzip`, headers: [{ key: 'Accept-Encoding', value: 'gzip' }],
      assertions: [{ source: 'TEXT_BODY', comparison: 'EQUALS', target: 'compressed hello' }],
    });
    expect(result.assertions[0]?.passed).toBe(true);
  });

  it('stores at most 256 KiB of the body while assertions see all of it', async () => {
    const result = await run({ url: `${target.http.url}/big`, assertions: [{ source: 'TEXT_BODY', comparison: 'CONTAINS', target: 'TAIL' }] });
    expect(result.assertions[0]?.passed).toBe(true);
    const response = api(result).response;
    expect(response.bodyTruncated).toBe(true);
    expect(response.bodySize).toBe(300 * 1024 + 4);
    expect(Buffer.byteLength(response.body)).toBe(STORED_BODY_BYTES);
  });
});

describe('API check executor: redirects', () => {
  it('follows redirects to the final response', async () => {
    const result = await run({ url: `${target.http.url}/redirect/3`, assertions: [{ source: 'TEXT_BODY', comparison: 'EQUALS', target: 'arrived' }] });
    expect(result.hasFailures).toBe(false);
    expect(api(result).response.url).toBe(`${target.http.url}/redirect/0`);
    expect(api(result).jobLog.request).toHaveLength(4);
    expectSanePhases(result);
  });

  it('answers the redirect itself when followRedirects is false', async () => {
    const result = await run({ url: `${target.http.url}/redirect/3`, followRedirects: false });
    expect(api(result).response.status).toBe(302);
    expect(api(result).response.headers.location).toBe('/redirect/2');
  });

  it(`fails with TOO_MANY_REDIRECTS after ${MAX_REDIRECTS} redirects`, async () => {
    const result = await run({ url: `${target.http.url}/loop` });
    expect(result.hasErrors).toBe(true);
    expect(result.errors[0]?.code).toBe('TOO_MANY_REDIRECTS');
    expect(result.networkError).toBe(false);
    expect(api(result).jobLog.request).toHaveLength(MAX_REDIRECTS + 1);
    expect(api(result).response).toBeNull();
    expect(api(result).requestError).toMatch(/redirects/);
  });

  it('turns a POST into a GET without body on 303', async () => {
    const result = await run({ method: 'POST', url: `${target.http.url}/see-other`, bodyType: 'JSON', body: '{"a":1}' });
    const seen = echoed(result);
    expect(seen.method).toBe('GET');
    expect(seen.body).toBe('');
    expect(seen.headers['content-type']).toBeUndefined();
  });

  it('drops basic auth credentials when a redirect leaves the origin', async () => {
    const other = await startHttpTarget();
    try {
      const result = await run({ url: `${target.http.url}/elsewhere/${other.http.port}`, basicAuth: { username: 'user', password: 'pass' } });
      expect(echoed(result).headers.authorization).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

describe('API check executor: assertions', () => {
  const url = () => `${target.http.url}/json`;
  it.each([
    ['STATUS_CODE', { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }, { source: 'STATUS_CODE', comparison: 'EQUALS', target: '201' }],
    ['JSON_BODY', { source: 'JSON_BODY', property: '$.data.name', comparison: 'EQUALS', target: 'lookout' },
      { source: 'JSON_BODY', property: '$.data.items.length', comparison: 'GREATER_THAN', target: '5' }],
    ['HEADERS', { source: 'HEADERS', property: 'X-Lookout-Test', comparison: 'EQUALS', target: 'present' },
      { source: 'HEADERS', property: 'content-type', comparison: 'NOT_CONTAINS', target: 'json' }],
    ['TEXT_BODY', { source: 'TEXT_BODY', comparison: 'CONTAINS', target: '"items":[1,2,3]' },
      { source: 'TEXT_BODY', comparison: 'IS_EMPTY', target: '' }],
    ['RESPONSE_TIME', { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '600000' },
      { source: 'RESPONSE_TIME', comparison: 'GREATER_THAN', target: '600000' }],
  ])('passes and fails %s assertions on the real response', async (_source, passing, failing) => {
    const ok = await run({ url: url(), assertions: [passing] });
    expect(ok.assertions).toHaveLength(1);
    expect(ok.assertions[0]?.passed).toBe(true);
    expect(ok.hasFailures).toBe(false);
    expect(api(ok).assertions).toEqual(ok.assertions);

    const failed = await run({ url: url(), assertions: [passing, failing] });
    expect(failed.assertions.map((a) => a.passed)).toEqual([true, false]);
    expect(failed.hasFailures).toBe(true);
    expect(failed.hasErrors).toBe(false);
  });

  it('inverts the verdict with shouldFail', async () => {
    const assertions = [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }];
    const result = await run({ url: `${target.http.url}/status/500`, assertions }, { shouldFail: true });
    expect(result.assertions[0]?.passed).toBe(false);
    expect(result.hasFailures).toBe(false);
    const passing = await run({ url: `${target.http.url}/status/200`, assertions }, { shouldFail: true });
    expect(passing.hasFailures).toBe(true);
  });

  it('passes on any status without assertions', async () => {
    const result = await run({ url: `${target.http.url}/status/503` });
    expect(result.hasFailures).toBe(false);
    expect(api(result).response.status).toBe(503);
  });
});

describe('API check executor: response time limits and timeouts', () => {
  it('is degraded when slower than degradedResponseTime', async () => {
    const result = await run({ url: `${target.http.url}/delay/300` }, { degradedResponseTime: 100, maxResponseTime: 30000 });
    expect(result.isDegraded).toBe(true);
    expect(result.overMaxResponseTime).toBe(false);
    expect(result.hasFailures).toBe(false);
  });

  it('fails as overMaxResponseTime when slower than maxResponseTime', async () => {
    const result = await run({ url: `${target.http.url}/delay/300` }, { degradedResponseTime: 50, maxResponseTime: 100 });
    expect(result.overMaxResponseTime).toBe(true);
    expect(result.isDegraded).toBe(false);
    expect(result.hasFailures).toBe(true);
    expect(result.hasErrors).toBe(false);
  });

  it('stops at the attempt time limit with ETIMEDOUT as a network error', async () => {
    const result = await run({ url: `${target.http.url}/hang` }, {}, { timeoutMs: 300 });
    expect(result.hasErrors).toBe(true);
    expect(result.hasFailures).toBe(true);
    expect(result.networkError).toBe(true);
    expect(result.errors[0]?.code).toBe('ETIMEDOUT');
    expect(api(result).response).toBeNull();
    expect(api(result).requestError).toMatch(/300 ms/);
    expectSanePhases(result);
  });

  it('stops with CANCELLED when the run is cancelled', async () => {
    const controller = new AbortController();
    const hung = once(target.events, 'hang');
    const pending = run({ url: `${target.http.url}/hang` }, {}, { signal: controller.signal, timeoutMs: 20000 });
    await hung;
    controller.abort();
    const result = await pending;
    expect(result.errors[0]?.code).toBe('CANCELLED');
    expect(result.networkError).toBe(false);
  });
});

describe('API check executor: network errors', () => {
  it('reports a refused connection as ECONNREFUSED', async () => {
    const port = await closedPort();
    const result = await run({ url: `http://127.0.0.1:${port}/` });
    expect(result.hasErrors).toBe(true);
    expect(result.hasFailures).toBe(true);
    expect(result.networkError).toBe(true);
    expect(result.errors[0]?.code).toBe('ECONNREFUSED');
    expect(result.assertions).toEqual([]);
    expect(api(result).requestError).toMatch(/ECONNREFUSED/);
    expectSanePhases(result);
  });

  it('reports an unresolvable host as ENOTFOUND', async () => {
    const result = await run({ url: 'http://no-such-host.invalid/' });
    expect(result.networkError).toBe(true);
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(result.errors[0]?.code);
  });

  it('reports a malformed URL as INVALID_URL, not a network error', async () => {
    const result = await run({ url: 'not a url' });
    expect(result.errors[0]?.code).toBe('INVALID_URL');
    expect(result.networkError).toBe(false);
  });
});

describe('API check executor: HTTPS', () => {
  it('rejects a self-signed certificate and still records it', async () => {
    const result = await run({ url: `${target.https.url}/json` });
    expect(result.errors[0]?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(result.networkError).toBe(true);
    expect((result.details as any).ssl).toMatchObject({ subject: 'CN=localhost', issuer: 'CN=localhost', authorized: false });
  });

  it('accepts a self-signed certificate with skipSSL and measures the TLS phase', async () => {
    const result = await run({ url: `${target.https.url}/json`, skipSSL: true, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] });
    expect(result.hasFailures).toBe(false);
    expectSanePhases(result);
    expect(api(result).response.timings.secureConnect).not.toBeNull();
    const ssl = (result.details as any).ssl;
    expect(ssl.daysRemaining).toBe(365);
    expect(new Date(ssl.validTo).getTime()).toBeGreaterThan(Date.now());
  });

  it('fails an expired certificate with CERT_HAS_EXPIRED and negative days remaining', async () => {
    const result = await run({ url: `${target.expired.url}/json` });
    expect(result.errors[0]?.code).toBe('CERT_HAS_EXPIRED');
    expect(result.hasErrors).toBe(true);
    expect((result.details as any).ssl.daysRemaining).toBeLessThan(0);
  });

  it('records the days remaining of a certificate expiring in 5 days', async () => {
    const result = await run({ url: `${target.expiring.url}/json`, skipSSL: true });
    expect(result.hasErrors).toBe(false);
    expect((result.details as any).ssl.daysRemaining).toBe(5);
  });

  it('has no certificate details for plain HTTP', async () => {
    const result = await run({ url: `${target.http.url}/json` });
    expect((result.details as any).ssl).toBeNull();
  });
});

const ipv6 = await startIpv6Target();
describe('API check executor: IP family', () => {
  afterAll(async () => {
    await ipv6?.close();
  });

  it('connects over IPv4 to a host name', async () => {
    const result = await run({ url: `http://localhost:${target.http.port}/echo`, ipFamily: 'IPv4' });
    expect(result.hasErrors).toBe(false);
    expectSanePhases(result);
  });

  // Skipped only on machines without an IPv6 loopback address (::1 cannot be bound there).
  it.skipIf(ipv6 === null)('connects over IPv6 to ::1', async () => {
    const result = await run({ url: `${ipv6!.listener.url}/echo`, ipFamily: 'IPv6' });
    expect(result.hasErrors).toBe(false);
    expect(echoed(result).method).toBe('GET');
  });
});

describe('API check executor: variables and secrets', () => {
  const secret = 'p@ss w/rd+42';

  it('substitutes variables and scrubs secret values in every form from what is kept', async () => {
    const vars: RunVariable[] = [
      { key: 'BASE', value: target.http.url, secret: false },
      { key: 'TOKEN', value: secret, secret: true },
      { key: 'PLAIN', value: 'visible', secret: false },
    ];
    const result = await run({
      method: 'POST',
      url: '{{BASE}}/echo',
      headers: [{ key: 'X-Token', value: '{{TOKEN}}' }, { key: 'X-Plain', value: '{{PLAIN}}' }, { key: 'X-Encoded', value: Buffer.from(secret).toString('base64') }],
      queryParameters: [{ key: 'token', value: '{{ TOKEN }}' }],
      bodyType: 'JSON',
      body: '{"token":"{{TOKEN}}","unknown":"{{NOPE}}"}',
      basicAuth: { username: 'user', password: '{{TOKEN}}' },
      assertions: [{ source: 'TEXT_BODY', comparison: 'CONTAINS', target: 'visible' }],
    }, {}, { variables: vars });
    expect(result.hasFailures).toBe(false);
    const kept = JSON.stringify(result);
    for (const form of [secret, encodeURIComponent(secret), 'p%40ss+w%2Frd%2B42', Buffer.from(secret).toString('base64'),
      Buffer.from(`user:${secret}`).toString('base64')]) {
      expect(kept).not.toContain(form);
    }
    expect(kept).toContain('*****');
    expect(api(result).request.headers['X-Token']).toBe('*****');
    expect(api(result).request.headers['X-Plain']).toBe('visible');
    expect(api(result).request.headers.Authorization).toBe('Basic *****');
    expect(JSON.parse(api(result).request.data)).toEqual({ token: '*****', unknown: '{{NOPE}}' });
  });

  it('scrubs secrets from error messages', async () => {
    const port = await closedPort();
    const result = await run({ url: `http://127.0.0.1:${port}/{{TOKEN}}` }, {}, { variables: [{ key: 'TOKEN', value: 'hunter2hunter2', secret: true }] });
    expect(JSON.stringify(result)).not.toContain('hunter2hunter2');
    expect(api(result).request.url).toContain('*****');
  });
});

describe('API check executor: setup and teardown scripts', () => {
  it('lets a setup script change a header and set a variable the request uses', async () => {
    const result = await run(
      { url: `${target.http.url}/echo`, headers: [{ key: 'X-Later', value: '{{FROM_SETUP}}' }] },
      {
        localSetupScript: `
          request.headers['X-Token'] = 'from-setup-' + process.env.PLAIN;
          request.queryParameters.extra = 'yes';
          process.env.FROM_SETUP = 'computed';
          console.log('setting up', request.method);
        `,
      },
      { variables: [{ key: 'PLAIN', value: 'visible', secret: false }] },
    );
    expect(result.hasErrors).toBe(false);
    const seen = echoed(result);
    expect(seen.headers['x-token']).toBe('from-setup-visible');
    expect(seen.headers['x-later']).toBe('computed');
    expect(seen.query.extra).toBe('yes');
    expect(api(result).jobLog.setup).toEqual([expect.objectContaining({ level: 'log', message: 'setting up GET' })]);
  });

  it('lets a teardown script read the response status and change what assertions see', async () => {
    const result = await run(
      { url: `${target.http.url}/status/404`, assertions: [{ source: 'TEXT_BODY', comparison: 'EQUALS', target: 'rewritten' }] },
      { localTearDownScript: `console.info('status was', response.statusCode); response.body = 'rewritten';` },
    );
    expect(result.hasFailures).toBe(false);
    expect(api(result).jobLog.teardown).toEqual([expect.objectContaining({ level: 'info', message: 'status was 404' })]);
    expect(api(result).response.status).toBe(404);
  });

  it('fails with SETUP_SCRIPT_FAILED and a scrubbed message when the setup script throws', async () => {
    const result = await run(
      { url: `${target.http.url}/echo` },
      { localSetupScript: `throw new Error('cannot log in with ' + process.env.TOKEN);` },
      { variables: [{ key: 'TOKEN', value: 'sup3r-s3cret', secret: true }] },
    );
    expect(result.hasErrors).toBe(true);
    expect(result.networkError).toBe(false);
    expect(result.errors[0]).toEqual({ code: 'SETUP_SCRIPT_FAILED', message: 'setup script failed: Error: cannot log in with *****' });
    expect(api(result).response).toBeNull();
    expect(JSON.stringify(result)).not.toContain('sup3r-s3cret');
  });

  it('fails with TEARDOWN_SCRIPT_FAILED and keeps the response when the teardown script throws', async () => {
    const result = await run({ url: `${target.http.url}/json` }, { localTearDownScript: `await Promise.reject(new TypeError('broken'));` });
    expect(result.errors[0]).toEqual({ code: 'TEARDOWN_SCRIPT_FAILED', message: 'teardown script failed: TypeError: broken' });
    expect(api(result).response.status).toBe(200);
  });

  it('kills a setup script that loops forever at its time limit', async () => {
    const result = await run({ url: `${target.http.url}/echo` }, { localSetupScript: 'while (true) {}' }, { timeoutMs: 1500 });
    expect(result.errors[0]?.code).toBe('SETUP_SCRIPT_FAILED');
    expect(result.errors[0]?.message).toBe('setup script did not finish within 1500 ms');
  });

  it('fails when a setup script leaves an unusable request', async () => {
    const result = await run({ url: `${target.http.url}/echo` }, { localSetupScript: 'request.url = 42;' });
    expect(result.errors[0]?.code).toBe('SETUP_SCRIPT_FAILED');
    expect(result.errors[0]?.message).toMatch(/request\.url/);
  });
});

describe('API check executor: scripts as users write them (TypeScript, ES modules, project files)', () => {
  const authClient = {
    path: '__checks__/utils/auth-client.ts',
    content: [
      "export async function getToken(user: string): Promise<string> {",
      "  const prefix: string = process.env.TOKEN_PREFIX ?? 'tok'",
      "  if (user === 'nobody') throw new Error('no such user: ' + user)",
      "  return `${prefix}-${user}`",
      "}",
      "",
    ].join('\n'),
  };

  it('bundles a TypeScript setup script importing a project file, with top-level await', async () => {
    const result = await run(
      { url: `${target.http.url}/echo`, headers: [{ key: 'X-User', value: '{{USER_TOKEN}}' }] },
      {
        setupScriptPath: '__checks__/setup.ts',
        setupScriptDependencies: [authClient],
        localSetupScript: [
          "import { getToken } from './utils/auth-client'",
          "import { createHash } from 'node:crypto'",
          "async function setup(): Promise<void> {",
          "  const token: string = await getToken('ada')",
          "  request.headers['Authorization'] = `Bearer ${token}`",
          "  process.env.USER_TOKEN = createHash('sha1').update(token).digest('hex').slice(0, 8)",
          "}",
          "await setup()",
          "",
        ].join('\n'),
      },
      { variables: [{ key: 'TOKEN_PREFIX', value: 'abc', secret: false }] },
    );
    expect(result.errors).toEqual([]);
    const seen = echoed(result);
    expect(seen.headers.authorization).toBe('Bearer abc-ada');
    expect(seen.headers['x-user']).toMatch(/^[0-9a-f]{8}$/);
  });

  it('reports an error thrown in an imported file at the user\'s file and line', async () => {
    const result = await run(
      { url: `${target.http.url}/echo` },
      {
        setupScriptPath: '__checks__/setup.ts',
        setupScriptDependencies: [authClient],
        localSetupScript: "import { getToken } from './utils/auth-client'\nconst token: string = await getToken('nobody')\nrequest.headers['X'] = token\n",
      },
    );
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.code).toBe('SETUP_SCRIPT_FAILED');
    expect(result.errors[0]!.message).toMatch(/^setup script failed: Error: no such user: nobody \(at __checks__\/utils\/auth-client\.ts:3:\d+\)$/);
  });

  it('runs an ES module teardown script that changes the response', async () => {
    const result = await run(
      { url: `${target.http.url}/json`, assertions: [{ source: 'TEXT_BODY', comparison: 'EQUALS', target: 'seen 200' }] },
      {
        tearDownScriptPath: 'teardown.mjs',
        tearDownScriptDependencies: [{ path: 'lib/describe.js', content: 'module.exports = (r) => `seen ${r.statusCode}`;\n' }],
        localTearDownScript: "import describe from './lib/describe.js'\nresponse.body = describe(response)\n",
      },
    );
    expect(result.errors).toEqual([]);
    expect(result.hasFailures).toBe(false);
  });

  it('answers a TypeScript syntax error with the file and line, before anything runs', async () => {
    const result = await run(
      { url: `${target.http.url}/echo` },
      { setupScriptPath: 'setup.ts', localSetupScript: "const a: number = 1\nconst b: = 2\n" },
    );
    expect(result.errors[0]!.code).toBe('SETUP_SCRIPT_FAILED');
    expect(result.errors[0]!.message).toMatch(/^setup script failed: SyntaxError: .+ \(setup\.ts:2\)$/);
    expect(api(result).response).toBeNull();
  });

  it('refuses an import of a project file the CLI did not send, naming it', async () => {
    const result = await run(
      { url: `${target.http.url}/echo` },
      { setupScriptPath: 'checks/setup.ts', localSetupScript: "import { x } from '../helpers/missing'\nconsole.log(x)\n" },
    );
    expect(result.errors[0]!.code).toBe('SETUP_SCRIPT_FAILED');
    expect(result.errors[0]!.message).toContain('helpers/missing is not among the check\'s files');
  });
});
