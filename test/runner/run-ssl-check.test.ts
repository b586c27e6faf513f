import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../src/domain/check-result.js';
import { runSslCheck } from '../../src/runner/executors/run-ssl-check.js';
import { createTestCa, type TestCa } from '../support/mtls-target.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';

const DAY_MS = 86_400_000;
const ROOT = path.resolve(import.meta.dirname, '../..');

interface CertOptions {
  names?: string[];
  validDays?: [number, number];
  ca?: TestCa | null;
  keyType?: 'ec' | 'rsa';
}

/** A server certificate for 127.0.0.1 (and the given names), issued by `ca` or self-signed. */
async function serverCert({ names = ['localhost'], validDays = [-1, 365], ca = null, keyType = 'ec' }: CertOptions) {
  const pems = await generate([{ name: 'commonName', value: names[0]! }], {
    keyType, keySize: 2048, algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() + validDays[0] * DAY_MS), notAfterDate: new Date(Date.now() + validDays[1] * DAY_MS),
    ...(ca ? { ca: { key: ca.key, cert: ca.cert } } : {}),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [...names.map((value) => ({ type: 2 as const, value })), { type: 7 as const, ip: '127.0.0.1' }] },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

const servers: tls.Server[] = [];
/** A TLS server on 127.0.0.1 that completes handshakes and closes. */
async function tlsTarget(pem: { key: string; cert: string }, options: tls.TlsOptions = {}): Promise<number> {
  const server = tls.createServer({ ...pem, ...options }, (socket) => socket.end());
  server.on('tlsClientError', () => undefined);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

const ssl = (port: number, sslConfig: Record<string, unknown> = {}, assertions: unknown[] = []) =>
  runnableCheck('SSL', { request: { sslConfig: { hostname: '127.0.0.1', port, ...sslConfig }, assertions } });
const codes = (r: ProbeResult) => r.errors.map((e) => e.code);

describe('SSL check executor', () => {
  let ca: TestCa;
  let dir: string;
  beforeAll(async () => {
    ca = await createTestCa();
    dir = await mkdtemp(path.join(tmpdir(), 'lookout-ssl-'));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs the executor in a fresh Node whose trust store has the test CA added by NODE_EXTRA_CA_CERTS. */
  async function runTrustingCa(port: number, sslConfig: Record<string, unknown>, assertions: unknown[]): Promise<ProbeResult> {
    await writeFile(path.join(dir, 'ca.pem'), ca.cert);
    const script = path.join(dir, 'run.mts');
    await writeFile(script, [
      `import { runSslCheck } from ${JSON.stringify(path.join(ROOT, 'src/runner/executors/run-ssl-check.ts'))};`,
      `import { runContext, runnableCheck } from ${JSON.stringify(path.join(ROOT, 'test/support/net-probe-fixtures.ts'))};`,
      'const data = JSON.parse(process.argv[2]);',
      "process.stdout.write(JSON.stringify(await runSslCheck(runnableCheck('SSL', data), runContext())));",
    ].join('\n'));
    const data = { request: { sslConfig: { hostname: '127.0.0.1', port, ...sslConfig }, assertions } };
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(path.join(ROOT, 'node_modules/.bin/tsx'), [script, JSON.stringify(data)], { env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem') } },
        (err, out) => (err ? reject(err) : resolve(out)));
    });
    return JSON.parse(stdout) as ProbeResult;
  }

  it('trusts a chain from a CA that NODE_EXTRA_CA_CERTS adds, and passes certificate and connection assertions', async () => {
    const port = await tlsTarget(await serverCert({ ca }));
    const result = await runTrustingCa(port, { alertDaysBeforeExpiry: 30 }, [
      { source: 'CONNECTION', property: 'chainTrusted', comparison: 'EQUALS', target: 'true' },
      { source: 'CONNECTION', property: 'hostnameVerified', comparison: 'EQUALS', target: 'true' },
      { source: 'CONNECTION', property: 'tlsVersion', comparison: 'GREATER_THAN', target: 'TLS1.2' },
      { source: 'CERTIFICATE', property: 'daysUntilExpiry', comparison: 'GREATER_THAN', target: '300' },
      { source: 'CERTIFICATE', property: 'issuerCN', comparison: 'EQUALS', target: 'Lookout Test CA' },
      { source: 'CERTIFICATE', property: 'sans', comparison: 'CONTAINS', target: 'localhost' },
      { source: 'CERTIFICATE', property: 'signatureAlgorithm', comparison: 'EQUALS', target: 'ECDSA-SHA256' },
      { source: 'CERTIFICATE', property: 'keyAlgorithm', comparison: 'EQUALS', target: 'ECDSA' },
      { source: 'CERTIFICATE', property: 'keySizeBits', comparison: 'EQUALS', target: '256' },
      { source: 'CERTIFICATE', property: 'selfSigned', comparison: 'EQUALS', target: 'false' },
      { source: 'JSON_RESPONSE', property: '$.certificate.subjectCN', comparison: 'EQUALS', target: 'localhost' },
      { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '10000' },
    ]);
    expect(result.errors).toEqual([]);
    expect(result.assertions.filter((a) => !a.passed)).toEqual([]);
    expect(result).toMatchObject({ hasFailures: false, hasErrors: false, isDegraded: false });
    expect(result.details).toMatchObject({
      resolvedIp: '127.0.0.1', protocol: 'TLS1.3', cipherSuite: expect.stringMatching(/^TLS_/), chainTrusted: true, hostnameVerified: true,
      daysUntilExpiry: expect.any(Number), securityBaseline: { verdict: 'pass', violations: [] },
      certificate: { subjectCN: 'localhost', issuerCN: 'Lookout Test CA', fingerprintSha256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/) },
    });
  });

  it('without the CA in the trust store, fails the same chain as untrusted', async () => {
    const port = await tlsTarget(await serverCert({ ca }));
    const result = await runSslCheck(ssl(port), runContext());
    expect(codes(result)).toEqual(['SSL_CHAIN_UNTRUSTED']);
    expect(result.details).toMatchObject({ chainTrusted: false, chainError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', hostnameVerified: true });
  });

  it('fails an expired certificate and one expiring within alertDaysBeforeExpiry', async () => {
    const expired = await tlsTarget(await serverCert({ validDays: [-30, -2] }));
    const expiring = await tlsTarget(await serverCert({ validDays: [-30, 5] }));
    const settings = { skipChainValidation: true, alertDaysBeforeExpiry: 10 };
    const gone = await runSslCheck(ssl(expired, settings), runContext());
    expect(codes(gone)).toEqual(['SSL_CERT_EXPIRED']);
    // Whole days, rounded down: a certificate that ran out two days ago (and a few seconds) is at -3.
    expect(gone.details).toMatchObject({ daysUntilExpiry: -3 });
    const soon = await runSslCheck(ssl(expiring, settings), runContext());
    expect(codes(soon)).toEqual(['SSL_CERT_EXPIRING']);
    expect(soon.details).toMatchObject({ daysUntilExpiry: 4, ssl: { daysRemaining: 4 } });
    expect((await runSslCheck(ssl(expiring, { ...settings, alertDaysBeforeExpiry: 3 }), runContext())).errors).toEqual([]);
  });

  it('reports a self-signed certificate, failing unless skipChainValidation', async () => {
    const port = await tlsTarget(await serverCert({}));
    const strict = await runSslCheck(ssl(port), runContext());
    expect(codes(strict)).toEqual(['SSL_SELF_SIGNED', 'SSL_CHAIN_UNTRUSTED']);
    const relaxed = await runSslCheck(ssl(port, { skipChainValidation: true }, [{ source: 'CERTIFICATE', property: 'selfSigned', comparison: 'EQUALS', target: 'true' }]), runContext());
    expect(relaxed.errors).toEqual([]);
    expect(relaxed.assertions[0]!.passed).toBe(true);
    expect(relaxed.details).toMatchObject({ findings: [{ code: 'SSL_SELF_SIGNED', severity: 'info' }, { code: 'SSL_CHAIN_UNTRUSTED', severity: 'info' }] });
  });

  it('fails a certificate that does not name the host asked for', async () => {
    const port = await tlsTarget(await serverCert({ names: ['other.example'] }));
    const result = await runSslCheck(ssl(port, { skipChainValidation: true, serverName: 'localhost' }), runContext());
    expect(codes(result)).toEqual(['SSL_HOSTNAME_MISMATCH']);
    expect(result.details).toMatchObject({ hostnameVerified: false, serverName: 'localhost' });
  });

  it('tells a TLS 1.2-only server from a TLS 1.3 one', async () => {
    const pem = await serverCert({});
    const only12 = await tlsTarget(pem, { maxVersion: 'TLSv1.2' });
    const with13 = await tlsTarget(pem);
    const atLeast13 = [{ source: 'CONNECTION', property: 'tlsVersion', comparison: 'GREATER_THAN', target: 'TLS1.2' }];
    const old = await runSslCheck(ssl(only12, { skipChainValidation: true }, atLeast13), runContext());
    expect(old.details).toMatchObject({ protocol: 'TLS1.2', cipherSuite: expect.stringMatching(/^TLS_ECDHE_/) });
    expect(old.assertions[0]).toMatchObject({ passed: false, actual: 'TLS1.2' });
    const current = await runSslCheck(ssl(with13, { skipChainValidation: true }, atLeast13), runContext());
    expect(current.details).toMatchObject({ protocol: 'TLS1.3' });
    expect(current.assertions[0]).toMatchObject({ passed: true, actual: 'TLS1.3' });
  });

  it('fails a server below the baseline minimum protocol', async () => {
    const port = await tlsTarget(await serverCert({}), { maxVersion: 'TLSv1.2' });
    const result = await runSslCheck(ssl(port, { skipChainValidation: true, securityBaseline: { minTLSVersion: { value: 'TLS1.3', severity: 'fail' } } }), runContext());
    expect(codes(result)).toEqual(['SSL_WEAK_PROTOCOL']);
    expect(result.details).toMatchObject({ securityBaseline: { verdict: 'fail', violations: ['SSL_WEAK_PROTOCOL'] } });
  });

  it('degrades a server that still accepts TLS 1.0 and 1.1 besides TLS 1.3', async () => {
    const port = await tlsTarget(await serverCert({}), { minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' });
    const result = await runSslCheck(ssl(port, { skipChainValidation: true }), runContext());
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ hasFailures: false, isDegraded: true });
    expect(result.details).toMatchObject({
      protocol: 'TLS1.3', legacyProtocolsOffered: ['TLS1.0', 'TLS1.1'], securityBaseline: { verdict: 'degraded', violations: ['SSL_WEAK_PROTOCOL_OFFERED'] },
    });
    const off = await runSslCheck(ssl(port, { skipChainValidation: true, securityBaseline: { enabled: false } }), runContext());
    expect(off).toMatchObject({ isDegraded: false });
    expect(off.details).toMatchObject({ legacyProtocolsOffered: null });
  });

  it('reports a refused connection as a failed result, not an exception', async () => {
    const port = await tlsTarget(await serverCert({}));
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const result = await runSslCheck(ssl(port), runContext());
    expect(codes(result)).toEqual(['ECONNREFUSED']);
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: true });
    expect(result.details).toMatchObject({ hostname: '127.0.0.1', port, error: { code: 'ECONNREFUSED' } });
  });
});
