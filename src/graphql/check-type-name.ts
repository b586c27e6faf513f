import type { CheckType } from '../domain/catalog.js';

/** GraphQL object type of each REST `checkType`. */
export const CHECK_TYPE_NAMES = {
  API: 'ApiCheck', URL: 'UrlCheck', TCP: 'TcpCheck', DNS: 'DnsCheck', ICMP: 'IcmpCheck', HEARTBEAT: 'HeartbeatCheck',
  BROWSER: 'BrowserCheck', MULTI_STEP: 'MultiStepCheck', PLAYWRIGHT: 'PlaywrightCheck', AGENTIC: 'AgenticCheck',
  SSL: 'SslCheck', TRACEROUTE: 'TracerouteCheck',
  GRPC: 'GrpcCheck',
} as const satisfies Record<CheckType, string>;

/** The GraphQL type of a REST check payload (null for a type this schema does not know). */
export function checkTypeName(checkType: string): (typeof CHECK_TYPE_NAMES)[CheckType] | null {
  return (CHECK_TYPE_NAMES as Record<string, (typeof CHECK_TYPE_NAMES)[CheckType]>)[checkType] ?? null;
}
