import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from '../support/graphql.js';
import { GREETER_PROTO_PATH, startGrpcTarget, type GrpcTarget } from '../support/grpc-target.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const healthCheck = (port: number, extra: Record<string, unknown> = {}) => ({
  name: 'gRPC health', locations: ['eu-west-1'],
  request: {
    url: '127.0.0.1', port, grpcConfig: { mode: 'HEALTH', tls: false },
    assertions: [{ source: 'GRPC_HEALTHCHECK_STATUS', comparison: 'EQUALS', target: '1' }],
  },
  ...extra,
});

const behaviorRequest = (port: number, grpcConfig: Record<string, unknown> = {}) => ({
  url: '127.0.0.1', port,
  grpcConfig: { tls: false, method: 'lookout.test.Greeter/SayHello', message: '{"name":"Ada"}', ...grpcConfig },
  assertions: [{ source: 'GRPC_RESPONSE', property: '$.message', comparison: 'EQUALS', target: 'Hello Ada' }],
});

describe('GRPC checks over REST and GraphQL', () => {
  let s: TestServer;
  let target: GrpcTarget;
  beforeAll(async () => {
    [s, target] = await Promise.all([startTestServer(), startGrpcTarget()]);
  });
  afterAll(async () => {
    await s?.close();
    await target?.close();
  });

  it('creates a GRPC check at /v1/checks/grpc with the CLI\'s defaults and reads it back', async () => {
    const created = await s.a.request('POST', '/v1/checks/grpc', { name: 'Greeter', request: { url: 'grpc.example.com', port: 443, grpcConfig: { method: 'pkg.Svc/Do' } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      checkType: 'GRPC', degradedResponseTime: 10000, maxResponseTime: 20000,
      request: {
        url: 'grpc.example.com', port: 443, ipFamily: 'IPv4', skipSSL: false, timeout: 60, assertions: [],
        grpcConfig: { mode: 'BEHAVIOR', tls: true, metadata: [], method: 'pkg.Svc/Do', serviceDefinition: null, service: null },
      },
    });
    const read = await s.a.request('GET', `/v1/checks/${created.body.id}`);
    expect(read.body.request.grpcConfig.method).toBe('pkg.Svc/Do');
    const updated = await s.a.request('PUT', `/v1/checks/grpc/${created.body.id}`, { request: { grpcConfig: { metadata: [{ key: 'x-api-key', value: 'k' }] } } });
    expect(updated.status).toBe(200);
    expect(updated.body.request.grpcConfig).toMatchObject({ method: 'pkg.Svc/Do', metadata: [{ key: 'x-api-key', value: 'k' }] });
  });

  it.each([
    ['BEHAVIOR without a method', { url: 'h', port: 1, grpcConfig: {} }, 'request.grpcConfig.method'],
    ['a method that is no package.Service/Method', { url: 'h', port: 1, grpcConfig: { method: 'SayHello' } }, 'request.grpcConfig.method'],
    ['a method in HEALTH mode', { url: 'h', port: 1, grpcConfig: { mode: 'HEALTH', method: 'a.B/C' } }, 'request.grpcConfig.method'],
    ['a service in BEHAVIOR mode', { url: 'h', port: 1, grpcConfig: { method: 'a.B/C', service: 'x' } }, 'request.grpcConfig.service'],
    ['PROTO_FILE without protoContent', { url: 'h', port: 1, grpcConfig: { method: 'a.B/C', serviceDefinition: 'PROTO_FILE' } }, 'request.grpcConfig.protoContent'],
    ['a proto importing a file of the machine', { url: 'h', port: 1, grpcConfig: { method: 'a.B/C', serviceDefinition: 'PROTO_FILE', protoContent: 'syntax = "proto3";\nimport "/etc/passwd";' } }, 'request.grpcConfig.protoContent'],
    ['a message that is not a JSON object', { url: 'h', port: 1, grpcConfig: { method: 'a.B/C', message: '[1]' } }, 'request.grpcConfig.message'],
    ['a url with a scheme', { url: 'https://h', port: 1, grpcConfig: { mode: 'HEALTH' } }, 'request.url'],
    ['a url with a port', { url: 'h:50051', port: 1, grpcConfig: { mode: 'HEALTH' } }, 'request.url'],
    ['a port out of range', { url: 'h', port: 70000, grpcConfig: { mode: 'HEALTH' } }, 'request.port'],
    ['a timeout over 180 s', { url: 'h', port: 1, timeout: 181, grpcConfig: { mode: 'HEALTH' } }, 'request.timeout'],
    ['a reserved metadata key', { url: 'h', port: 1, grpcConfig: { mode: 'HEALTH', metadata: [{ key: 'grpc-timeout', value: '1' }] } }, 'request.grpcConfig.metadata.0.key'],
    ['a health status label instead of its number', { url: 'h', port: 1, grpcConfig: { mode: 'HEALTH' }, assertions: [{ source: 'GRPC_HEALTHCHECK_STATUS', comparison: 'EQUALS', target: 'SERVING' }] }, 'request.assertions.0.target'],
    ['a health status assertion in BEHAVIOR mode', { url: 'h', port: 1, grpcConfig: { method: 'a.B/C' }, assertions: [{ source: 'GRPC_HEALTHCHECK_STATUS', comparison: 'EQUALS', target: '1' }] }, 'request.assertions.0.source'],
    ['an HTTP assertion source', { url: 'h', port: 1, grpcConfig: { mode: 'HEALTH' }, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] }, 'request.assertions.0.source'],
  ])('refuses %s with 400 naming the key', async (_name, request, key) => {
    const res = await s.a.request('POST', '/v1/checks/grpc', { name: 'bad', request });
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toContain(key);
  });

  it('refuses a maxResponseTime over 180 s and a degraded time over the max', async () => {
    const res = await s.a.request('POST', '/v1/checks/grpc', { ...healthCheck(1), maxResponseTime: 180_001, degradedResponseTime: 5000 });
    expect(res.status).toBe(400);
    expect(res.body.validation.keys).toContain('maxResponseTime');
  });

  it('runs a health check now and answers the result with its grpcCheckResult', async () => {
    const check = (await s.a.request('POST', '/v1/checks/grpc', healthCheck(target.port))).body;
    const run = await s.a.request('POST', `/v1/checks/${check.id}/run`);
    expect(run.status).toBe(200);
    const [result] = run.body.results;
    expect(result).toMatchObject({ checkType: 'GRPC', hasFailures: false, hasErrors: false });
    expect(result.grpcCheckResult).toMatchObject({
      grpcStatusCode: 0, healthStatus: 1, healthStatusLabel: 'SERVING', requestError: null,
      assertions: [expect.objectContaining({ source: 'GRPC_HEALTHCHECK_STATUS', passed: true })],
      response: { grpcMode: 'HEALTH', port: target.port, grpcMethod: 'grpc.health.v1.Health/Check' },
    });
    const stored = await s.a.request('GET', `/v1/check-results/${check.id}/${result.id}`);
    expect(stored.body.grpcCheckResult.healthStatusLabel).toBe('SERVING');
  });

  it('runs a unary call defined by an inline proto and fails it with the reason when the server is gone', async () => {
    const gone = await startGrpcTarget();
    const check = (await s.a.request('POST', '/v1/checks/grpc', {
      name: 'Greeter by proto', locations: ['eu-west-1'],
      request: behaviorRequest(gone.port, { serviceDefinition: 'PROTO_FILE', protoContent: readFileSync(GREETER_PROTO_PATH, 'utf8') }),
    })).body;
    expect((await s.a.request('POST', `/v1/checks/${check.id}/run`)).body.results[0]).toMatchObject({ hasFailures: false });
    await gone.close();
    const failed = (await s.a.request('POST', `/v1/checks/${check.id}/run`)).body.results[0];
    expect(failed).toMatchObject({ hasFailures: true, hasErrors: true, errors: [expect.objectContaining({ code: 'GRPC_UNAVAILABLE' })] });
    expect(failed.grpcCheckResult).toMatchObject({ grpcStatusCode: 14, grpcStatusMessage: expect.stringMatching(/^UNAVAILABLE: /) });
  });

  it('reads a GRPC check and its result through GraphQL, and creates one with userErrors for bad input', async () => {
    const check = (await s.a.request('POST', '/v1/checks/grpc', { name: 'Reflected', locations: ['eu-west-1'], request: behaviorRequest(target.port) })).body;
    const result = (await s.a.request('POST', `/v1/checks/${check.id}/run`)).body.results[0];
    expect(result.hasFailures).toBe(false);
    const read = await gql(s.a, `query($id: ID!) {
      check(id: $id) {
        checkType ... on GrpcCheck { maxResponseTime request { url port timeout grpcConfig { mode tls method metadata { key } } assertions { source property } } }
        results(first: 1) { nodes { checkType assertions { source passed } grpcCheckResult { grpcStatusCode discoveredMethods requestError response } } }
      }
    }`, { id: check.id });
    expect(read.errors, JSON.stringify(read.errors)).toBeUndefined();
    const { results, ...grpcCheck } = read.data.check;
    expect(grpcCheck).toEqual({
      checkType: 'GRPC', maxResponseTime: 20000,
      request: {
        url: '127.0.0.1', port: target.port, timeout: 60,
        grpcConfig: { mode: 'BEHAVIOR', tls: false, method: 'lookout.test.Greeter/SayHello', metadata: [] },
        assertions: [{ source: 'GRPC_RESPONSE', property: '$.message' }],
      },
    });
    const node = results.nodes[0];
    expect(node).toMatchObject({ checkType: 'GRPC', assertions: [{ source: 'GRPC_RESPONSE', passed: true }] });
    expect(node.grpcCheckResult).toMatchObject({ grpcStatusCode: 0, requestError: null, discoveredMethods: expect.arrayContaining(['lookout.test.Greeter/SayHello']) });
    expect(JSON.parse(node.grpcCheckResult.response.responseMessage)).toMatchObject({ message: 'Hello Ada' });

    const created = await gql(s.a, `mutation($input: GrpcCheckInput!) { createGrpcCheck(input: $input) { check { checkType } userErrors { field code } } }`, {
      input: { name: 'No method', request: { url: 'h', port: 1, grpcConfig: { mode: 'BEHAVIOR' } } },
    });
    expect(created.data.createGrpcCheck.check).toBeNull();
    expect(created.data.createGrpcCheck.userErrors).toEqual([{ field: 'request.grpcConfig.method', code: 'BAD_USER_INPUT' }]);
  });
});
