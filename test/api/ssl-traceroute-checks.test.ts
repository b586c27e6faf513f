import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTraceroute } from '../../src/runner/traceroute-command.js';
import { monitorToolIssues } from '../../src/service/monitor-tool-issues.js';
import { gqlData } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const SSL = { name: 'Shop TLS', request: { sslConfig: { hostname: 'shop.example.test' } } };
const TRACE = { name: 'Shop path', request: { url: 'shop.example.test', protocol: 'TCP' } };

describe('SSL and TRACEROUTE monitors over REST', () => {
  let s: TestServer;
  let listener: net.Server;
  beforeAll(async () => {
    s = await startTestServer();
    listener = net.createServer((c) => c.destroy()).listen(0, '127.0.0.1');
    await once(listener, 'listening');
  });
  afterAll(async () => {
    await s?.close();
    await new Promise((resolve) => listener.close(resolve));
  });

  const issueKeys = (body: Record<string, any>) => JSON.stringify(body);

  it('creates an SSL monitor at /v1/checks/ssl with the CLI\'s defaults and reads it back', async () => {
    const created = await s.a.request('POST', '/v1/checks/ssl', SSL);
    expect(created.status, issueKeys(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      checkType: 'SSL', degradedResponseTime: 3000, maxResponseTime: 10000,
      request: {
        sslConfig: { hostname: 'shop.example.test', port: 443, skipChainValidation: false, handshakeTimeoutMs: 10000, alertDaysBeforeExpiry: 20, securityBaseline: null },
        assertions: [],
      },
    });
    expect((await s.a.request('GET', `/v1/checks/${created.body.id}`)).body).toEqual(created.body);
  });

  it('creates a TRACEROUTE monitor at /v1/checks/traceroute with the CLI\'s defaults', async () => {
    const created = await s.a.request('POST', '/v1/checks/traceroute', TRACE);
    expect(created.status, issueKeys(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      checkType: 'TRACEROUTE', degradedResponseTime: 10000, maxResponseTime: 20000,
      request: { url: 'shop.example.test', protocol: 'TCP', port: null, maxHops: 30, maxUnknownHops: 15, ptrLookup: true, timeout: 10 },
    });
  });

  it.each([
    ['an unknown certificate property', { source: 'CERTIFICATE', property: 'colour', comparison: 'EQUALS', target: 'x' }, 'request.assertions.0.property'],
    ['a comparison the property does not take', { source: 'CERTIFICATE', property: 'selfSigned', comparison: 'CONTAINS', target: 'true' }, 'request.assertions.0.comparison'],
    ['a boolean property compared with a word', { source: 'CONNECTION', property: 'chainTrusted', comparison: 'EQUALS', target: 'yes' }, 'request.assertions.0.target'],
    ['a TLS version that does not exist', { source: 'CONNECTION', property: 'tlsVersion', comparison: 'GREATER_THAN', target: 'TLS9' }, 'request.assertions.0.target'],
    ['OCSP, which Lookout does not observe', { source: 'CONNECTION', property: 'ocspStapled', comparison: 'EQUALS', target: 'true' }, 'request.assertions.0.property'],
    ['a source of another check type', { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }, 'request.assertions.0.source'],
  ])('refuses an SSL monitor with %s, naming the key', async (_what, assertion, key) => {
    const r = await s.a.request('POST', '/v1/checks/ssl', { ...SSL, request: { ...SSL.request, assertions: [assertion] } });
    expect(r.status).toBe(400);
    expect(issueKeys(r.body)).toContain(key);
  });

  it('refuses SSL settings it cannot honour: an explicit client certificate and unchecked baseline rules', async () => {
    const explicit = await s.a.request('POST', '/v1/checks/ssl', { ...SSL, request: { sslConfig: { hostname: 'a.test', clientCertificateMode: 'explicit' }, sslClientCertificateId: 'c1' } });
    expect(explicit.status).toBe(400);
    expect(issueKeys(explicit.body)).toContain('request.sslConfig.clientCertificateMode');
    const sct = await s.a.request('POST', '/v1/checks/ssl', { ...SSL, request: { sslConfig: { hostname: 'a.test', securityBaseline: { sctPresent: { severity: 'fail' } } } } });
    expect(sct.status).toBe(400);
    expect(issueKeys(sct.body)).toContain('request.sslConfig.securityBaseline.sctPresent.severity');
  });

  it.each([
    ['SCTP, which traceroute does not offer', { protocol: 'SCTP' }, 'request.protocol'],
    ['more than 64 hops', { maxHops: 65 }, 'request.maxHops'],
    ['a hop count with notEquals', { assertions: [{ source: 'HOP_COUNT', comparison: 'NOT_EQUALS', target: '3' }] }, 'request.assertions.0.comparison'],
    ['a latency statistic that does not exist', { assertions: [{ source: 'RESPONSE_TIME', property: 'p99', comparison: 'LESS_THAN', target: '3' }] }, 'request.assertions.0.property'],
  ])('refuses a TRACEROUTE monitor with %s, naming the key', async (_what, request, key) => {
    const r = await s.a.request('POST', '/v1/checks/traceroute', { ...TRACE, request: { ...TRACE.request, ...request } });
    expect(r.status).toBe(400);
    expect(issueKeys(r.body)).toContain(key);
  });

  it('refuses TRACEROUTE monitors where the traceroute program is missing, naming it', () => {
    expect(monitorToolIssues('TRACEROUTE', 'checkType', () => null)).toEqual([
      { key: 'checkType', message: expect.stringContaining('traceroute program, which is not installed') },
    ]);
    expect(monitorToolIssues('TRACEROUTE', 'checkType', () => '/usr/sbin/traceroute')).toEqual([]);
    expect(monitorToolIssues('SSL', 'checkType', () => null)).toEqual([]);
  });

  it('runs a TRACEROUTE monitor now and stores its hops as tracerouteCheckResult', async (ctx) => {
    if (!findTraceroute()) return ctx.skip('the traceroute program is not installed here: apt-get install -y traceroute');
    const port = (listener.address() as AddressInfo).port;
    const created = await s.a.request('POST', '/v1/checks/traceroute', {
      name: 'Loopback path', request: { url: '127.0.0.1', protocol: 'TCP', port, ptrLookup: false, maxHops: 3, assertions: [{ source: 'HOP_COUNT', comparison: 'LESS_THAN', target: '2' }] },
    });
    expect(created.status, issueKeys(created.body)).toBe(201);
    const run = await s.a.request('POST', `/v1/checks/${created.body.id}/run`);
    expect(run.status, issueKeys(run.body)).toBe(200);
    expect(run.body.results[0]).toMatchObject({ checkType: 'TRACEROUTE', hasFailures: false, tracerouteCheckResult: { totalHops: 1, destinationReached: true } });
  });

  it('runs an SSL monitor now and stores a refused handshake as a failed result', async () => {
    const port = (listener.address() as AddressInfo).port;
    const created = await s.a.request('POST', '/v1/checks/ssl', { name: 'Not TLS', request: { sslConfig: { hostname: '127.0.0.1', port } } });
    expect(created.status, issueKeys(created.body)).toBe(201);
    const run = await s.a.request('POST', `/v1/checks/${created.body.id}/run`);
    expect(run.status, issueKeys(run.body)).toBe(200);
    expect(run.body.results[0]).toMatchObject({ checkType: 'SSL', hasFailures: true, hasErrors: true, sslCheckResult: { hostname: '127.0.0.1', port, error: { code: expect.any(String) } } });
  });

  it('creates both through GraphQL mutations and reads them back as SslCheck and TracerouteCheck', async () => {
    const created = await gqlData(s.a, `mutation {
      ssl: createSslCheck(input: { name: "G TLS", request: { sslConfig: { hostname: "g.example.test", alertDaysBeforeExpiry: 14 },
        assertions: [{ source: CERTIFICATE, property: "daysUntilExpiry", comparison: GREATER_THAN, target: "14" }] } }) {
        check { ... on SslCheck { checkType request { sslConfig { hostname port alertDaysBeforeExpiry } assertions { source property } } } }
        userErrors { field message }
      }
      trace: createTracerouteCheck(input: { name: "G path", request: { url: "g.example.test", protocol: "ICMP", assertions: [{ source: HOP_COUNT, comparison: LESS_THAN, target: "20" }] } }) {
        check { ... on TracerouteCheck { checkType request { url protocol maxHops assertions { source } } } }
        userErrors { field message }
      }
      bad: createTracerouteCheck(input: { name: "Bad", request: { url: "g.example.test", maxHops: 99 } }) { check { id } userErrors { field message } }
    }`);
    expect(created.ssl).toEqual({
      check: { checkType: 'SSL', request: { sslConfig: { hostname: 'g.example.test', port: 443, alertDaysBeforeExpiry: 14 }, assertions: [{ source: 'CERTIFICATE', property: 'daysUntilExpiry' }] } },
      userErrors: [],
    });
    expect(created.trace).toEqual({ check: { checkType: 'TRACEROUTE', request: { url: 'g.example.test', protocol: 'ICMP', maxHops: 30, assertions: [{ source: 'HOP_COUNT' }] } }, userErrors: [] });
    expect(created.bad.check).toBeNull();
    expect(JSON.stringify(created.bad.userErrors)).toContain('maxHops');
  });
});
