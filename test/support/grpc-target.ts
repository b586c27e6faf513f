import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { generate } from 'selfsigned';
import type { Pem, TestCa } from './mtls-target.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/grpc/', import.meta.url));

/** The .proto of the Greeter service, as a check's `protoContent` would carry it. */
export const GREETER_PROTO_PATH = `${FIXTURES}greeter.proto`;

/** Options of a test gRPC server. */
export interface GrpcTargetOptions {
  /** Serving status of each service name of the health service ('' is the whole server); others are NOT_FOUND. */
  health?: Record<string, 'SERVING' | 'NOT_SERVING' | 'UNKNOWN'>;
  /** Offer server reflection (v1 and v1alpha). Default true. */
  reflection?: boolean;
  /** Serve TLS with this certificate (else plaintext). */
  tls?: Pem;
}

/** A gRPC server on 127.0.0.1 (port 0) with the health service and `lookout.test.Greeter`. */
export interface GrpcTarget {
  port: number;
  /** Metadata of every SayHello call so far, as the server received it. */
  metadataSeen(): Record<string, unknown>[];
  close(): Promise<void>;
}

const loadOptions = { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true };

/**
 * Starts the server. Greeter: SayHello answers `{message: "Hello <name>", echoes: [name × times]}`
 * with the header `x-greeter: yes`; Stall never answers; Fail answers the status named by `name`.
 */
export async function startGrpcTarget(options: GrpcTargetOptions = {}): Promise<GrpcTarget> {
  const definition = protoLoader.loadSync([GREETER_PROTO_PATH, `${FIXTURES}health.proto`], { ...loadOptions, includeDirs: [FIXTURES] });
  const loaded = grpc.loadPackageDefinition(definition) as any;
  const server = new grpc.Server();
  const seen: Record<string, unknown>[] = [];
  const health = options.health ?? { '': 'SERVING' };
  server.addService(loaded.grpc.health.v1.Health.service, {
    Check: (call: grpc.ServerUnaryCall<{ service: string }, unknown>, done: grpc.sendUnaryData<unknown>) => {
      const status = health[call.request.service];
      if (status === undefined) done({ code: grpc.status.NOT_FOUND, details: `unknown service ${call.request.service}` });
      else done(null, { status });
    },
  });
  const stalled: grpc.ServerUnaryCall<unknown, unknown>[] = [];
  server.addService(loaded.lookout.test.Greeter.service, {
    SayHello: (call: grpc.ServerUnaryCall<{ name: string; times: number }, unknown>, done: grpc.sendUnaryData<unknown>) => {
      seen.push(call.metadata.getMap());
      const md = new grpc.Metadata();
      md.set('x-greeter', 'yes');
      call.sendMetadata(md);
      done(null, { message: `Hello ${call.request.name}`, echoes: Array.from({ length: call.request.times }, () => call.request.name) });
    },
    Stall: (call: grpc.ServerUnaryCall<unknown, unknown>) => { stalled.push(call); },
    Fail: (call: grpc.ServerUnaryCall<{ name: string }, unknown>, done: grpc.sendUnaryData<unknown>) => {
      done({ code: grpc.status[call.request.name as keyof typeof grpc.status] as number, details: 'failed on purpose' });
    },
    Chat: (call: grpc.ServerDuplexStream<unknown, unknown>) => call.end(),
  });
  if (options.reflection !== false) new ReflectionService(definition).addToServer(server);
  const credentials = options.tls
    ? grpc.ServerCredentials.createSsl(null, [{ private_key: Buffer.from(options.tls.key), cert_chain: Buffer.from(options.tls.cert) }], false)
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', credentials, (err, p) => (err ? reject(err) : resolve(p)));
  });
  return {
    port,
    metadataSeen: () => seen,
    close: () => new Promise<void>((resolve) => {
      server.forceShutdown();
      resolve();
    }),
  };
}

/** A server certificate for localhost and 127.0.0.1 issued by `ca`. */
export async function issueServerCertificate(ca: TestCa): Promise<Pem> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec', algorithm: 'sha256', notBeforeDate: new Date(Date.now() - 3_600_000), notAfterDate: new Date(Date.now() + 86_400_000),
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
