import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrpcTarget, type GrpcTarget } from '../support/grpc-target.js';
import { runChecklyCli } from '../support/mqtt-cli.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The real `checkly` CLI with `GrpcMonitor`s (check type GRPC): deployed as checks of the type,
 * and run by `checkly test` against a real gRPC server on loopback.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));

const CONFIG = `import { defineConfig } from 'checkly'
export default defineConfig({
  projectName: 'gRPC services',
  logicalId: 'grpc-services',
  checks: { checkMatch: '**/*.check.mjs', frequency: 10, locations: ['eu-central-1'] },
  cli: { runLocation: 'eu-central-1' },
})
`;

const monitors = (port: number) => `
import { GrpcMonitor, GrpcAssertionBuilder } from 'checkly/constructs'

new GrpcMonitor('greeter-health', {
  name: 'Greeter health',
  degradedResponseTime: 2000,
  maxResponseTime: 5000,
  request: {
    url: '127.0.0.1',
    port: ${port},
    grpcConfig: { mode: 'HEALTH', tls: false },
    assertions: [
      GrpcAssertionBuilder.healthCheckStatus().equals('SERVING'),
      GrpcAssertionBuilder.responseTime().lessThan(5000),
    ],
  },
})

new GrpcMonitor('greeter-hello', {
  name: 'Greeter says hello',
  request: {
    url: '127.0.0.1',
    port: ${port},
    grpcConfig: {
      mode: 'BEHAVIOR', tls: false, serviceDefinition: 'REFLECTION',
      method: 'lookout.test.Greeter/SayHello', message: JSON.stringify({ name: 'Ada' }),
      metadata: [{ key: 'x-tenant', value: 'acme' }],
    },
    assertions: [
      GrpcAssertionBuilder.statusCode().equals(0),
      GrpcAssertionBuilder.responseMessage('$.message').equals('Hello Ada'),
      GrpcAssertionBuilder.responseMetadata('x-greeter').equals('yes'),
    ],
  },
})

new GrpcMonitor('greeter-wrong', {
  name: 'Greeter says goodbye',
  request: {
    url: '127.0.0.1',
    port: ${port},
    grpcConfig: { tls: false, method: 'lookout.test.Greeter/SayHello', message: JSON.stringify({ name: 'Ada' }) },
    assertions: [GrpcAssertionBuilder.responseMessage('$.message').equals('Goodbye Ada')],
  },
})
`;

describe('checkly CLI with gRPC monitors', () => {
  let server: TestServer;
  let target: GrpcTarget;
  let home: string;
  let project: string;

  beforeAll(async () => {
    [server, target] = await Promise.all([startTestServer(), startGrpcTarget()]);
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-grpc-home-'));
    project = mkdtempSync(path.join(os.tmpdir(), 'lookout-grpc-project-'));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'grpc-services', version: '1.0.0', type: 'module' }));
    writeFileSync(path.join(project, 'checkly.config.mjs'), CONFIG);
    writeFileSync(path.join(project, 'grpc.check.mjs'), monitors(target.port));
    symlinkSync(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  });

  afterAll(async () => {
    await Promise.all([server?.close(), target?.close()]);
    for (const dir of [home, project]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs them with `checkly test`: health and a reflected unary call pass, a wrong expectation fails with its reason', async () => {
    const r = await runChecklyCli(['test', '--verbose'], { server, client: server.a, home, cwd: project });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/1 failed, 2 passed, 3 total/);
    expect(target.metadataSeen()).toContainEqual(expect.objectContaining({ 'x-tenant': 'acme' }));
    const listed = (await server.a.request('GET', '/v1/test-sessions')).body.entries as Record<string, any>[];
    const session = (await server.a.request('GET', `/v1/test-sessions/${listed[0]!.id}/completion?maxWaitSeconds=5`)).body;
    const byName = Object.fromEntries(session.results.map((e: Record<string, any>) => [e.name, e]));
    expect(byName['Greeter health']).toMatchObject({ status: 'PASSED', checkType: 'GRPC' });
    expect(byName['Greeter says hello']).toMatchObject({ status: 'PASSED', checkType: 'GRPC' });
    expect(byName['Greeter says goodbye']).toMatchObject({ status: 'FAILED', checkType: 'GRPC' });
    const failed = (await server.a.request('GET', `/v1/test-sessions/${session.id ?? listed[0]!.id}/results/${byName['Greeter says goodbye'].resultIds[0]}`)).body;
    expect(failed.grpcCheckResult.assertions).toEqual([expect.objectContaining({ source: 'GRPC_RESPONSE', passed: false, actual: 'Hello Ada' })]);
  });

  it('deploys them as GRPC checks, with the requests as the CLI wrote them', async () => {
    const r = await runChecklyCli(['deploy', '--force'], { server, client: server.a, home, cwd: project });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const checks = (await server.a.request('GET', '/v1/checks')).body as Record<string, any>[];
    const health = checks.find((c) => c.name === 'Greeter health')!;
    expect(health).toMatchObject({
      checkType: 'GRPC', degradedResponseTime: 2000, maxResponseTime: 5000,
      request: {
        url: '127.0.0.1', port: target.port, grpcConfig: { mode: 'HEALTH', tls: false },
        assertions: [expect.objectContaining({ source: 'GRPC_HEALTHCHECK_STATUS', comparison: 'EQUALS', target: '1' }), expect.objectContaining({ source: 'RESPONSE_TIME' })],
      },
    });
    const run = await server.a.request('POST', `/v1/checks/${health.id}/run`);
    expect(run.body.results[0]).toMatchObject({ hasFailures: false, grpcCheckResult: { healthStatusLabel: 'SERVING' } });
  });
});
