import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import { protoImportProblem } from '../../domain/grpc-catalog.js';

/**
 * How messages are read and written: field names in lowerCamelCase (as protobuf's JSON mapping
 * writes them), enums by name, 64-bit integers and bytes as text, every field present.
 */
export const PROTO_OPTIONS: protoLoader.Options = { keepCase: false, longs: String, enums: String, bytes: String, defaults: true, oneofs: true };

/** The standard health service (grpc/health/v1/health.proto, unary part). */
const HEALTH_PROTO = `syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); }
`;

/**
 * The package definition of a `.proto` text (a check's `protoContent`). It is written to a
 * folder of its own for the parser, which then reads nothing else: imports other than the
 * built-in well-known types are refused first. Throws with the parser's message on invalid text.
 */
export async function loadProtoText(text: string): Promise<protoLoader.PackageDefinition> {
  const problem = protoImportProblem(text);
  if (problem) throw new Error(`protoContent ${problem}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-proto-'));
  try {
    const file = path.join(dir, 'check.proto');
    await writeFile(file, text);
    return protoLoader.loadSync(file, PROTO_OPTIONS);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let health: Promise<protoLoader.PackageDefinition> | undefined;

/** The package definition of grpc.health.v1 (loaded once). */
export function healthDefinition(): Promise<protoLoader.PackageDefinition> {
  health ??= loadProtoText(HEALTH_PROTO);
  return health;
}

const reflection = new Map<string, protoLoader.PackageDefinition>();

/** The package definition of server reflection `v1` or `v1alpha`, from the protos @grpc/reflection ships. */
export function reflectionDefinition(version: 'v1' | 'v1alpha'): protoLoader.PackageDefinition {
  let def = reflection.get(version);
  if (!def) {
    const main = createRequire(import.meta.url).resolve('@grpc/reflection');
    // Descriptors arrive as bytes: kept as Buffers here (PROTO_OPTIONS writes bytes as text).
    def = protoLoader.loadSync(path.join(path.dirname(main), '..', 'proto', 'grpc', 'reflection', version, 'reflection.proto'), { ...PROTO_OPTIONS, bytes: undefined, defaults: false });
    reflection.set(version, def);
  }
  return def;
}
