import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueServerCertificate, startGrpcTarget, type GrpcTarget } from '../support/grpc-target.js';
import { createTestCa } from '../support/mtls-target.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';

const KEY = 'lo_grpc_trusted_ca_key_0123456789abcdef';
const ACCOUNT = '6f1d7c1e-5a55-4b8e-9d0e-4f6c3b2a1e01';
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

/**
 * gRPC checks use TLS with Node's trust store: a deployment trusts a private CA by starting Lookout
 * with NODE_EXTRA_CA_CERTS naming it (the server is a separate process, as the variable is read at start).
 */
describe('GRPC checks against a server whose certificate a private CA issued', () => {
  let dir: string;
  let target: GrpcTarget;
  let server: SpawnedServer;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'lookout-grpc-ca-'));
    const ca = await createTestCa('Lookout Private gRPC CA');
    writeFileSync(path.join(dir, 'ca.pem'), ca.cert);
    target = await startGrpcTarget({ tls: await issueServerCertificate(ca) });
    server = await spawnServer({
      LOOKOUT_DATA_DIR: path.join(dir, 'data'), LOOKOUT_API_KEY: KEY, LOOKOUT_ACCOUNT_ID: ACCOUNT, NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem'),
    });
  }, 240_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await target?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes over TLS by default once the CA is trusted through NODE_EXTRA_CA_CERTS', async () => {
    const created = await fetch(`${server.url}/v1/checks/grpc`, {
      method: 'POST', headers: HEADERS,
      body: JSON.stringify({ name: 'Private gRPC', locations: ['eu-west-1'], request: { url: 'localhost', port: target.port, grpcConfig: { mode: 'HEALTH' } } }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const run = (await (await fetch(`${server.url}/v1/checks/${id}/run`, { method: 'POST', headers: { authorization: HEADERS.authorization } })).json()) as { results: Record<string, any>[] };
    expect(run.results[0]!.errors).toEqual([]);
    expect(run.results[0]).toMatchObject({ hasFailures: false, grpcCheckResult: { grpcStatusCode: 0, healthStatusLabel: 'SERVING' } });
  });
});
