import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';
import type { Pem } from './mtls-target.js';

const PROTO = fileURLToPath(new URL('./grpc-health.proto', import.meta.url));

/** A gRPC server over TLS serving the standard health service (grpc.health.v1.Health). */
export interface GrpcHealthTarget {
  port: number;
  /** Health checks answered so far. */
  checks(): number;
  close(): Promise<void>;
}

type HealthCall = grpc.ServerUnaryCall<{ service?: string }, { status: string }>;

/**
 * Starts it on 127.0.0.1, port 0, with `pem` as its certificate: `Check` answers SERVING for the
 * server as a whole (service "") and SERVICE_UNKNOWN for any named service; `Watch` is UNIMPLEMENTED.
 */
export async function startGrpcHealthTarget(pem: Pem): Promise<GrpcHealthTarget> {
  const definition = protoLoader.loadSync(PROTO, { enums: String, defaults: true });
  const health = (grpc.loadPackageDefinition(definition) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } })
    .grpc.health.v1.Health;
  let checks = 0;
  const server = new grpc.Server();
  server.addService(health.service, {
    Check(call: HealthCall, callback: grpc.sendUnaryData<{ status: string }>) {
      checks++;
      callback(null, { status: call.request.service ? 'SERVICE_UNKNOWN' : 'SERVING' });
    },
  });
  const credentials = grpc.ServerCredentials.createSsl(null, [{ private_key: Buffer.from(pem.key), cert_chain: Buffer.from(pem.cert) }], false);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (err, bound) => (err ? reject(err) : resolve(bound))));
  return {
    port,
    checks: () => checks,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
