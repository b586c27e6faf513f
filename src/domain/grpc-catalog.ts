/** The vocabulary of GRPC checks (the `GrpcMonitor` construct of the checkly CLI). */

/** HEALTH asks the standard `grpc.health.v1.Health/Check`; BEHAVIOR calls one unary method. */
export const GRPC_MODES = ['BEHAVIOR', 'HEALTH'] as const;
export type GrpcMode = (typeof GRPC_MODES)[number];

/** Where BEHAVIOR mode finds the method's types: the server's reflection service or the inline `protoContent`. */
export const GRPC_SERVICE_DEFINITIONS = ['REFLECTION', 'PROTO_FILE'] as const;

/**
 * `grpc.health.v1.HealthCheckResponse.ServingStatus`, by number: GRPC_HEALTHCHECK_STATUS assertions
 * compare these numbers (the CLI's builder turns `'SERVING'` into `'1'`).
 */
export const GRPC_HEALTH_STATUSES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;

/** gRPC status code names by number (grpc/status.proto). */
export const GRPC_STATUS_NAMES = [
  'OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS', 'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

/** Seconds a call may take: the CLI's default and bounds of `request.timeout`. */
export const GRPC_TIMEOUT_SECONDS = { default: 60, min: 1, max: 180 } as const;

/** The service and method a BEHAVIOR check calls. */
export interface GrpcMethodName {
  /** Fully-qualified service name, e.g. `helloworld.Greeter`. */
  service: string;
  method: string;
}

const METHOD_PATTERN = /^\/?((?:[A-Za-z_][\w]*\.)*[A-Za-z_][\w]*)[/.]([A-Za-z_][\w]*)$/;

/**
 * Splits `package.Service/Method` (also `/package.Service/Method`, as on the wire, and
 * `package.Service.Method`, as grpcurl writes it) into its service and method; null when `text`
 * is none of these.
 */
export function parseGrpcMethod(text: string): GrpcMethodName | null {
  const m = METHOD_PATTERN.exec(text.trim());
  return m ? { service: m[1]!, method: m[2]! } : null;
}

/**
 * A metadata key gRPC can send: lower-case letters, digits, `-`, `_` and `.` (keys are
 * case-insensitive, so upper case is taken as lower), not one of the reserved `grpc-` keys.
 */
export function isGrpcMetadataKey(key: string): boolean {
  const k = key.toLowerCase();
  return /^[0-9a-z_.-]+$/.test(k) && !k.startsWith('grpc-');
}

/** Well-known types an inline `protoContent` may import: they are built in, so nothing is read from disk. */
export const GRPC_PROTO_IMPORTS = ['any', 'duration', 'timestamp', 'empty', 'struct', 'wrappers', 'field_mask'].map((n) => `google/protobuf/${n}.proto`);

const IMPORT_WORD = /\bimport\b/g;
const ALLOWED_IMPORT = /^import\s+(?:(?:public|weak)\s+)?"([^"\\]*)"\s*;/;

/**
 * Why an inline `.proto` cannot be loaded as sent, or undefined. It may import only
 * GRPC_PROTO_IMPORTS: any other import would have the parser read a file of the machine that runs
 * the check. Every `import` word counts, comments and strings included, so nothing the parser
 * might read as an import slips past (a comment that says "import" is refused too).
 */
export function protoImportProblem(text: string): string | undefined {
  for (const m of text.matchAll(IMPORT_WORD)) {
    const statement = ALLOWED_IMPORT.exec(text.slice(m.index));
    if (!statement || !GRPC_PROTO_IMPORTS.includes(statement[1]!)) {
      return `may import only the well-known types ${GRPC_PROTO_IMPORTS.join(', ')} (the word "import" appears otherwise, even in comments)`;
    }
  }
  return undefined;
}
