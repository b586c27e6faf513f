import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRPC_RESPONSE_KEPT_CHARS, runGrpcCheck } from '../../src/runner/executors/run-grpc-check.js';
import { GREETER_PROTO_PATH, issueServerCertificate, startGrpcTarget, type GrpcTarget } from '../support/grpc-target.js';
import { createTestCa } from '../support/mtls-target.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';

const grpcCheck = (port: number, grpcConfig: Record<string, unknown>, request: Record<string, unknown> = {}) =>
  runnableCheck('GRPC', { request: { url: '127.0.0.1', port, grpcConfig: { tls: false, ...grpcConfig }, ...request } });

const assertion = (source: string, comparison: string, target: string, property: string | null = null) => ({ source, comparison, target, property });

describe('GRPC check executor', () => {
  let target: GrpcTarget;
  let withoutReflection: GrpcTarget;

  beforeAll(async () => {
    target = await startGrpcTarget({ health: { '': 'SERVING', 'lookout.test.Greeter': 'NOT_SERVING' } });
    withoutReflection = await startGrpcTarget({ reflection: false });
  });
  afterAll(async () => {
    await target.close();
    await withoutReflection.close();
  });

  describe('HEALTH mode', () => {
    it('passes when the server is SERVING and reports the health status', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, { mode: 'HEALTH' }, {
        assertions: [assertion('GRPC_HEALTHCHECK_STATUS', 'EQUALS', '1'), assertion('RESPONSE_TIME', 'LESS_THAN', '5000')],
      }), runContext());
      expect(result.errors).toEqual([]);
      expect(result.hasFailures).toBe(false);
      expect(result.assertions.map((a) => a.passed)).toEqual([true, true]);
      expect(result.details).toMatchObject({
        grpcStatusCode: 0, healthStatus: 1, healthStatusLabel: 'SERVING', requestError: null,
        response: { grpcMode: 'HEALTH', grpcMethod: 'grpc.health.v1.Health/Check', host: '127.0.0.1', resolvedIp: '127.0.0.1', port: target.port, grpcStatusCode: 0 },
      });
      const timing = (result.details as { timingPhases: { connect: number | null; total: number } }).timingPhases;
      expect(timing.total).toBe(result.responseTime);
      expect(timing.connect).not.toBeNull();
    });

    it('fails a NOT_SERVING service without assertions, with the status as the reason', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, { mode: 'HEALTH', service: 'lookout.test.Greeter' }), runContext());
      expect(result.hasFailures).toBe(true);
      expect(result.errors).toEqual([{ code: 'GRPC_NOT_SERVING', message: 'service lookout.test.Greeter is NOT_SERVING' }]);
      expect(result.details).toMatchObject({ healthStatus: 2, healthStatusLabel: 'NOT_SERVING' });
    });

    it('lets a health status assertion judge: NOT_SERVING expected passes', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, { mode: 'HEALTH', service: 'lookout.test.Greeter' }, {
        assertions: [assertion('GRPC_HEALTHCHECK_STATUS', 'EQUALS', '2')],
      }), runContext());
      expect(result.hasFailures).toBe(false);
    });

    it('fails an unknown service with the NOT_FOUND status the server answered', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, { mode: 'HEALTH', service: 'no.such.Service' }), runContext());
      expect(result.hasFailures).toBe(true);
      expect(result.errors[0]).toMatchObject({ code: 'GRPC_NOT_FOUND', message: expect.stringContaining('unknown service no.such.Service') });
      expect(result.details).toMatchObject({ grpcStatusCode: 5, grpcStatusMessage: 'NOT_FOUND: unknown service no.such.Service', requestError: null });
    });

    it('fails a refused connection as a network error with UNAVAILABLE', async () => {
      const closed = await startGrpcTarget();
      await closed.close();
      const result = await runGrpcCheck(grpcCheck(closed.port, { mode: 'HEALTH' }), runContext());
      expect(result.hasFailures).toBe(true);
      expect(result.networkError).toBe(true);
      expect(result.errors[0]!.code).toBe('GRPC_UNAVAILABLE');
      expect(result.details).toMatchObject({ grpcStatusCode: 14 });
    });
  });

  describe('BEHAVIOR mode', () => {
    const hello = {
      method: 'lookout.test.Greeter/SayHello', message: JSON.stringify({ name: 'Ada', times: 2 }),
      metadata: [{ key: 'x-tenant', value: '{{TENANT}}' }],
    };

    it('finds the method by reflection, sends the message and metadata, and checks the response', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, hello, {
        assertions: [
          assertion('GRPC_STATUS_CODE', 'EQUALS', '0'),
          assertion('GRPC_RESPONSE', 'EQUALS', 'Hello Ada', '$.message'),
          assertion('GRPC_RESPONSE', 'EQUALS', '2', '$.echoes.length'),
          assertion('GRPC_METADATA', 'EQUALS', 'yes', 'x-greeter'),
          assertion('TEXT_BODY', 'CONTAINS', '"echoes":["Ada","Ada"]'),
        ],
      }), runContext({ variables: [{ key: 'TENANT', value: 'acme', secret: false }] }));
      expect(result.errors).toEqual([]);
      expect(result.assertions.filter((a) => !a.passed)).toEqual([]);
      expect(target.metadataSeen()).toContainEqual(expect.objectContaining({ 'x-tenant': 'acme' }));
      const details = result.details as Record<string, any>;
      expect(JSON.parse(details.response.responseMessage)).toMatchObject({ message: 'Hello Ada', echoes: ['Ada', 'Ada'] });
      expect(details.discoveredMethods).toEqual(expect.arrayContaining(['lookout.test.Greeter/SayHello', 'lookout.test.Greeter/Stall']));
      expect(details.response.metadata).toContainEqual({ key: 'x-greeter', value: 'yes' });
    });

    it('fails an assertion on the response message with the value it saw', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, hello, {
        assertions: [assertion('GRPC_RESPONSE', 'EQUALS', 'Hello Bob', '$.message')],
      }), runContext());
      expect(result.hasFailures).toBe(true);
      expect(result.errors).toEqual([]);
      expect(result.assertions[0]).toMatchObject({ passed: false, actual: 'Hello Ada' });
    });

    it('keeps the first 16 KiB of a large response message while its assertions see all of it', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, { method: 'lookout.test.Greeter/SayHello', message: '{"name":"Ada","times":10000}' }, {
        assertions: [assertion('GRPC_RESPONSE', 'EQUALS', '10000', '$.echoes.length')],
      }), runContext());
      expect(result.hasFailures).toBe(false);
      const kept = (result.details as { response: { responseMessage: string } }).response.responseMessage;
      expect(kept).toHaveLength(GRPC_RESPONSE_KEPT_CHARS + 1);
      expect(kept.endsWith('…')).toBe(true);
    });

    it('takes snake_case keys of the message as their JSON names', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, {
        method: '/lookout.test.Greeter/SayHello', message: JSON.stringify({ name: 'Grace', favourite_colour: 'blue' }),
      }, { assertions: [assertion('GRPC_RESPONSE', 'EQUALS', 'Hello Grace', '$.message')] }), runContext());
      expect(result.hasFailures).toBe(false);
    });

    it('calls a method defined by an inline proto (PROTO_FILE) on a server without reflection', async () => {
      const result = await runGrpcCheck(grpcCheck(withoutReflection.port, {
        ...hello, serviceDefinition: 'PROTO_FILE', protoContent: readFileSync(GREETER_PROTO_PATH, 'utf8'),
      }, { assertions: [assertion('GRPC_RESPONSE', 'EQUALS', 'Hello Ada', '$.message')] }), runContext());
      expect(result.errors).toEqual([]);
      expect(result.hasFailures).toBe(false);
    });

    it('says so when the server offers no reflection', async () => {
      const result = await runGrpcCheck(grpcCheck(withoutReflection.port, hello), runContext());
      expect(result.hasFailures).toBe(true);
      expect(result.errors[0]!.code).toBe('GRPC_REFLECTION_UNAVAILABLE');
      expect((result.details as Record<string, unknown>).requestError).toMatch(/PROTO_FILE/);
    });

    it('names the methods offered when the method does not exist', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, { method: 'lookout.test.Greeter/SayGoodbye' }), runContext());
      expect(result.errors[0]).toMatchObject({ code: 'GRPC_METHOD_NOT_FOUND', message: expect.stringContaining('lookout.test.Greeter/SayHello') });
    });

    it('refuses a streaming method', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, { method: 'lookout.test.Greeter/Chat' }), runContext());
      expect(result.errors[0]!.code).toBe('GRPC_METHOD_NOT_UNARY');
    });

    it('fails a message that does not fit the request type', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, { method: 'lookout.test.Greeter/SayHello', message: '{"options":"loud"}' }), runContext());
      expect(result.errors[0]).toMatchObject({ code: 'GRPC_MESSAGE_INVALID', message: expect.stringContaining('object expected') });
    });

    it('fails a call whose deadline passes with DEADLINE_EXCEEDED', async () => {
      const result = await runGrpcCheck(grpcCheck(target.port, { method: 'lookout.test.Greeter/Stall' }, { timeout: 1 }), runContext());
      expect(result.hasFailures).toBe(true);
      expect(result.networkError).toBe(true);
      expect(result.errors[0]!.code).toBe('GRPC_DEADLINE_EXCEEDED');
      expect(result.details).toMatchObject({ grpcStatusCode: 4 });
    });

    it('fails a status other than OK unless a status code assertion expects it', async () => {
      const failing = await runGrpcCheck(grpcCheck(target.port, { method: 'lookout.test.Greeter/Fail', message: '{"name":"PERMISSION_DENIED"}' }), runContext());
      expect(failing.errors[0]).toMatchObject({ code: 'GRPC_PERMISSION_DENIED', message: expect.stringContaining('failed on purpose') });
      const expected = await runGrpcCheck(grpcCheck(target.port, { method: 'lookout.test.Greeter/Fail', message: '{"name":"PERMISSION_DENIED"}' }, {
        assertions: [assertion('GRPC_STATUS_CODE', 'EQUALS', '7')],
      }), runContext());
      expect(expected.hasFailures).toBe(false);
    });
  });

  describe('TLS', () => {
    let tlsTarget: GrpcTarget;
    beforeAll(async () => {
      const ca = await createTestCa('Lookout gRPC Test CA');
      tlsTarget = await startGrpcTarget({ tls: await issueServerCertificate(ca) });
    });
    afterAll(() => tlsTarget.close());

    it('is on by default and refuses a certificate no trusted CA issued', async () => {
      const result = await runGrpcCheck(runnableCheck('GRPC', { request: { url: 'localhost', port: tlsTarget.port, grpcConfig: { mode: 'HEALTH' } } }), runContext());
      expect(result.hasFailures).toBe(true);
      expect(result.errors[0]!.code).toBe('GRPC_UNAVAILABLE');
    });

    it('accepts any certificate with skipSSL', async () => {
      const result = await runGrpcCheck(runnableCheck('GRPC', {
        request: { url: 'localhost', port: tlsTarget.port, skipSSL: true, grpcConfig: { mode: 'HEALTH' } },
      }), runContext());
      expect(result.errors).toEqual([]);
      expect(result.hasFailures).toBe(false);
    });

    it('fails plaintext against a TLS server', async () => {
      const result = await runGrpcCheck(grpcCheck(tlsTarget.port, { mode: 'HEALTH' }, { timeout: 2 }), runContext());
      expect(result.hasFailures).toBe(true);
    });
  });

  it('ends a cancelled run as CANCELLED', async () => {
    const abort = new AbortController();
    const running = runGrpcCheck(grpcCheck(target.port, { method: 'lookout.test.Greeter/Stall' }), runContext({ signal: abort.signal }));
    abort.abort();
    const result = await running;
    expect(result.errors[0]!.code).toBe('CANCELLED');
  });
});
