import type { Resolvers } from '../__generated__/resolvers-types.js';
import { checkResolvers } from './check-resolvers.js';

const config = (r: { grpcConfig?: Record<string, any> | null }) => r.grpcConfig ?? {};

/** GrpcCheck (as TcpCheck, with its own request), its request and config, and CheckResult.grpcCheckResult. */
export const grpcCheckResolvers: Resolvers = {
  GrpcCheck: { ...(checkResolvers.TcpCheck as object) },
  GrpcRequest: {
    assertions: (r) => (r.assertions ?? []) as never[],
    ipFamily: (r) => (r.ipFamily ?? 'IPv4') as never,
    skipSSL: (r) => r.skipSSL ?? false,
    timeout: (r) => (r as { timeout?: number }).timeout ?? 60,
    grpcConfig: (r) => config(r as { grpcConfig?: Record<string, any> | null }) as never,
  },
  GrpcConfig: {
    mode: (c) => (c.mode ?? 'BEHAVIOR') as never,
    tls: (c) => c.tls ?? true,
    metadata: (c) => (c.metadata ?? []).map((m) => ({ key: m.key, value: m.value ?? '' })),
  },
  CheckResult: {
    grpcCheckResult: (r) => (r.grpcCheckResult ?? null) as never,
  },
};
