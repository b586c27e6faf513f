import Type from 'typebox';
import { ASSERTION_SOURCES, IP_FAMILIES } from '../domain/catalog.js';
import { GRPC_MODES, GRPC_SERVICE_DEFINITIONS, GRPC_TIMEOUT_SECONDS } from '../domain/grpc-catalog.js';
import { Assertion, Nullable } from './common.js';

/** A metadata entry sent with the call (a request header). */
const GrpcMetadata = Type.Object(
  { key: Type.String({ minLength: 1, maxLength: 1024 }), value: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))) },
  { additionalProperties: false },
);

/** `request.grpcConfig` of a GRPC check, as the checkly CLI's `GrpcMonitor` sends it. */
export const GrpcConfig = Type.Object(
  {
    mode: Type.Optional(Type.Enum([...GRPC_MODES], { description: 'HEALTH: grpc.health.v1.Health/Check; BEHAVIOR (default): one unary method' })),
    tls: Type.Optional(Type.Boolean({ description: 'TLS with the trust store of the runner (default true); false: plaintext (h2c)' })),
    metadata: Type.Optional(Type.Array(GrpcMetadata, { maxItems: 100 })),
    serviceDefinition: Type.Optional(Nullable(Type.Enum([...GRPC_SERVICE_DEFINITIONS], { description: 'BEHAVIOR: REFLECTION (default) or PROTO_FILE (protoContent)' }))),
    method: Type.Optional(Nullable(Type.String({ maxLength: 1024, description: 'BEHAVIOR: package.Service/Method' }))),
    protoContent: Type.Optional(Nullable(Type.String({ maxLength: 1_000_000, description: 'PROTO_FILE: the .proto source defining the method' }))),
    message: Type.Optional(Nullable(Type.String({ maxLength: 1_000_000, description: 'BEHAVIOR: the request message as a JSON object' }))),
    service: Type.Optional(Nullable(Type.String({ maxLength: 1024, description: 'HEALTH: the service asked about; empty: the whole server' }))),
  },
  { additionalProperties: false },
);

/** `request` of a GRPC check. */
export const GrpcRequest = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 1024, description: 'Host name or address (no scheme, path or port)' }),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    ipFamily: Type.Optional(Type.Enum([...IP_FAMILIES])),
    skipSSL: Type.Optional(Type.Boolean({ description: 'With TLS: accept any server certificate' })),
    timeout: Type.Optional(Type.Integer({ minimum: GRPC_TIMEOUT_SECONDS.min, maximum: GRPC_TIMEOUT_SECONDS.max, description: 'Seconds the call may take (default 60)' })),
    grpcConfig: GrpcConfig,
    assertions: Type.Optional(Type.Array(
      Type.Object({ ...Assertion.properties, source: Type.Enum([...(ASSERTION_SOURCES.GRPC ?? [])]) }, { additionalProperties: false }),
      { maxItems: 100 },
    )),
  },
  { additionalProperties: false },
);
