import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookout } from '../../src/main.js';
import { probeHttp } from '../../src/runner/http-probe.js';
import { BACKENDS } from '../support/backends.js';
import { createTestCa, startMtlsTarget, type MtlsTarget, type Pem, type TestCa } from '../support/mtls-target.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const PASSPHRASE = 'mutual-tls-passphrase-7f3a';
const CERTIFICATE_REQUIRED = 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED';

/** The base64 lines of a PEM: any of them in a result or a log line would be a leak of the key. */
const pemLines = (pem: string) => pem.split('\n').filter((l) => l && !l.startsWith('-----'));

/** Creates a check of `type` against `url` and runs it now; its FINAL result. */
async function runCheck(client: TestClient, type: 'api' | 'url', url: string, skipSSL: boolean): Promise<Record<string, any>> {
  const assertions = [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }];
  const created = await client.request('POST', `/v1/checks/${type}`, { name: `mTLS ${type} ${url}`, locations: ['eu-west-1'], request: { url, skipSSL, assertions } });
  expect(created.status).toBe(201);
  const run = await client.request('POST', `/v1/checks/${created.body.id}/run`);
  expect(run.status).toBe(200);
  return run.body.results[0];
}

/** Registers `pem` for `host` in the client's account; its id. */
async function addCertificate(client: TestClient, host: string, pem: Pem, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await client.request('POST', '/v1/client-certificates', { host, cert: pem.cert, key: pem.key, ...extra });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe.each(BACKENDS)('client certificates in API and URL check runs ($name)', (backend) => {
  let s: TestServer;
  let ca: TestCa;
  let target: MtlsTarget;
  let clientA: Pem;
  let clientB: Pem;

  beforeAll(async () => {
    ca = await createTestCa();
    [s, target, clientA, clientB] = await Promise.all([
      startTestServer({ backend }), startMtlsTarget(ca), ca.issueClient('client-a', PASSPHRASE), ca.issueClient('client-b'),
    ]);
  });
  afterAll(async () => {
    await s?.close();
    await target?.close();
  });

  it('fails with the server\'s TLS alert as a failed result when the account has no certificate', async () => {
    const result = await runCheck(s.a, 'api', `${target.url}/`, true);
    expect(result).toMatchObject({ hasFailures: true, resultType: 'FINAL' });
    expect(result.errors[0]).toMatchObject({ code: CERTIFICATE_REQUIRED, message: expect.stringContaining('certificate required') });
    expect(result.apiCheckResult.response).toBeNull();
  });

  it('presents the account\'s certificate, verifying the server against its CA, and never stores key or passphrase', async () => {
    const id = await addCertificate(s.a, '127.0.0.1', clientA, { passphrase: PASSPHRASE, ca: ca.cert });
    const result = await runCheck(s.a, 'api', `${target.url}/`, false);
    expect(result.hasFailures).toBe(false);
    expect(JSON.parse(result.apiCheckResult.response.body)).toEqual({ client: 'client-a' });

    const stored = await s.a.request('GET', `/v2/check-results/${result.checkId}`);
    for (const text of [JSON.stringify(result), stored.text]) {
      expect(text).not.toContain(PASSPHRASE);
      for (const line of pemLines(clientA.key)) expect(text).not.toContain(line);
    }
    await s.a.request('DELETE', `/v1/client-certificates/${id}`);
  });

  it('presents a certificate to URL monitors too, matching the host name a URL names', async () => {
    const id = await addCertificate(s.a, 'LOCALHOST', clientA, { passphrase: PASSPHRASE, ca: ca.cert });
    const byName = await runCheck(s.a, 'url', `https://localhost:${target.port}/`, false);
    expect(byName.hasFailures).toBe(false);
    // The certificate is for localhost, not for the address it resolves to.
    const byAddress = await runCheck(s.a, 'url', `${target.url}/`, true);
    expect(byAddress.errors[0]?.code).toBe(CERTIFICATE_REQUIRED);
    await s.a.request('DELETE', `/v1/client-certificates/${id}`);
  });

  it('does not present a certificate registered for another host', async () => {
    const id = await addCertificate(s.a, 'other.example.test', clientA, { passphrase: PASSPHRASE });
    const result = await runCheck(s.a, 'api', `${target.url}/`, true);
    expect(result.hasFailures).toBe(true);
    expect(result.errors[0]?.code).toBe(CERTIFICATE_REQUIRED);
    await s.a.request('DELETE', `/v1/client-certificates/${id}`);
  });

  it('never presents one account\'s certificate for another account\'s checks', async () => {
    const id = await addCertificate(s.b, '127.0.0.1', clientB);
    const theirs = await runCheck(s.b, 'api', `${target.url}/`, true);
    expect(JSON.parse(theirs.apiCheckResult.response.body)).toEqual({ client: 'client-b' });
    const mine = await runCheck(s.a, 'api', `${target.url}/`, true);
    expect(mine.hasFailures).toBe(true);
    expect(mine.errors[0]?.code).toBe(CERTIFICATE_REQUIRED);
    await s.b.request('DELETE', `/v1/client-certificates/${id}`);
  });

  it('stops presenting a deleted certificate from the next run on', async () => {
    const id = await addCertificate(s.a, '127.0.0.1', clientA, { passphrase: PASSPHRASE });
    const check = (await s.a.request('POST', '/v1/checks/api', {
      name: 'mTLS before and after', locations: ['eu-west-1'], request: { url: `${target.url}/`, skipSSL: true },
    })).body;
    expect((await s.a.request('POST', `/v1/checks/${check.id}/run`)).body.results[0].hasFailures).toBe(false);
    await s.a.request('DELETE', `/v1/client-certificates/${id}`);
    const after = (await s.a.request('POST', `/v1/checks/${check.id}/run`)).body.results[0];
    expect(after.errors[0]?.code).toBe(CERTIFICATE_REQUIRED);
  });
});

describe('a stored client certificate OpenSSL refuses', () => {
  it('fails the attempt with CLIENT_CERTIFICATE_UNUSABLE instead of ending the process', async () => {
    const ca = await createTestCa();
    const [target, mine, other] = await Promise.all([startMtlsTarget(ca), ca.issueClient('mine'), ca.issueClient('other')]);
    try {
      const outcome = await probeHttp({
        method: 'GET', url: `${target.url}/`, headers: [], body: null, followRedirects: true, skipSSL: true, family: 4,
        timeoutMs: 5000, signal: new AbortController().signal,
        clientCertificates: [{ host: '127.0.0.1', cert: mine.cert, key: other.key, passphrase: null, ca: null }],
      });
      expect(outcome.response).toBeNull();
      expect(outcome.networkError).toBe(false);
      expect(outcome.error).toMatchObject({ code: 'CLIENT_CERTIFICATE_UNUSABLE', message: expect.stringContaining('127.0.0.1') });
      for (const line of pemLines(other.key)) expect(outcome.error!.message).not.toContain(line);
    } finally {
      await target.close();
    }
  });
});

describe('client certificate secrets in logs', () => {
  it('writes neither the key nor the passphrase to the log, even at trace level', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }));
    const ca = await createTestCa();
    const [target, pem] = await Promise.all([startMtlsTarget(ca), ca.issueClient('logged', PASSPHRASE)]);
    const lookout = await createLookout({
      config: { port: 0, host: '127.0.0.1', runnerEnabled: false, bootstrapAccountId: undefined, bootstrapApiKey: undefined },
      storeOptions: BACKENDS[0]!.options(),
      logger,
    });
    try {
      const url = (await lookout.listen()).replace('[::1]', '127.0.0.1');
      const headers = { authorization: `Bearer ${lookout.bootstrap.apiKey}`, 'x-lookout-account': lookout.bootstrap.accountId, 'content-type': 'application/json' };
      const post = async (path: string, body?: unknown) => (await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body ?? {}) })).json();
      // A refused one (wrong passphrase) and an accepted one.
      await post('/v1/client-certificates', { host: '127.0.0.1', cert: pem.cert, key: pem.key, passphrase: `${PASSPHRASE}-wrong` });
      await post('/v1/client-certificates', { host: '127.0.0.1', cert: pem.cert, key: pem.key, passphrase: PASSPHRASE });
      const check = await post('/v1/checks/api', { name: 'Logged mTLS', locations: ['eu-west-1'], request: { url: `${target.url}/`, skipSSL: true } });
      const run = await post(`/v1/checks/${check.id}/run`);
      expect(run.results[0].hasFailures).toBe(false);
    } finally {
      await lookout.close();
      await target.close();
    }
    const log = lines.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(PASSPHRASE);
    for (const line of pemLines(pem.key)) expect(log).not.toContain(line);
  });
});
