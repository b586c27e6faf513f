/** The fixed vocabularies of the API: locations, runtimes, check types and their rules. */

export const LOCATIONS = [
  'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'ca-central-1', 'sa-east-1', 'eu-west-1',
  'eu-central-1', 'eu-west-2', 'eu-west-3', 'eu-north-1', 'eu-south-1', 'me-south-1', 'ap-southeast-1',
  'ap-northeast-1', 'ap-east-1', 'ap-southeast-2', 'ap-southeast-3', 'ap-northeast-2', 'ap-northeast-3',
  'ap-south-1', 'af-south-1',
] as const;
export type Location = (typeof LOCATIONS)[number];

/** Display names of the locations (what `/v1/locations` answers). */
export const LOCATION_NAMES: Record<Location, string> = {
  'us-east-1': 'N. Virginia', 'us-east-2': 'Ohio', 'us-west-1': 'N. California', 'us-west-2': 'Oregon',
  'ca-central-1': 'Canada', 'sa-east-1': 'São Paulo', 'eu-west-1': 'Ireland', 'eu-central-1': 'Frankfurt',
  'eu-west-2': 'London', 'eu-west-3': 'Paris', 'eu-north-1': 'Stockholm', 'eu-south-1': 'Milan',
  'me-south-1': 'Bahrain', 'ap-southeast-1': 'Singapore', 'ap-northeast-1': 'Tokyo', 'ap-east-1': 'Hong Kong',
  'ap-southeast-2': 'Sydney', 'ap-southeast-3': 'Jakarta', 'ap-northeast-2': 'Seoul', 'ap-northeast-3': 'Osaka',
  'ap-south-1': 'Mumbai', 'af-south-1': 'Cape Town',
};

export const RUNTIME_IDS = ['2026.04', '2025.04', '2024.09', '2024.02', '2023.09', '2023.02', '2022.10'] as const;
export type RuntimeId = (typeof RUNTIME_IDS)[number];
/** Runtime given to new accounts. */
export const DEFAULT_RUNTIME_ID: RuntimeId = '2025.04';

export const CHECK_TYPES = ['AGENTIC', 'API', 'BROWSER', 'HEARTBEAT', 'ICMP', 'MULTI_STEP', 'TCP', 'PLAYWRIGHT', 'URL', 'DNS',
  'SSL', 'TRACEROUTE',
  'GRPC',
] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

/** Path segment of the typed routes (`/v1/checks/{segment}`) for each check type that has one. */
export const TYPED_ROUTE_SEGMENTS = {
  api: 'API', browser: 'BROWSER', multistep: 'MULTI_STEP', heartbeat: 'HEARTBEAT',
  tcp: 'TCP', url: 'URL', dns: 'DNS', icmp: 'ICMP',
  ssl: 'SSL', traceroute: 'TRACEROUTE',
  grpc: 'GRPC',
} as const satisfies Record<string, CheckType>;

const MINUTE_FREQUENCIES = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440];

/**
 * Allowed `frequency` values (minutes) per type. 0 means "every frequencyOffset seconds"; the
 * spec allows it for API and TCP checks and lists it on the DNS update route, so DNS takes it too.
 */
export const FREQUENCIES: Record<CheckType, readonly number[]> = {
  API: [0, ...MINUTE_FREQUENCIES],
  TCP: [0, ...MINUTE_FREQUENCIES],
  DNS: [0, ...MINUTE_FREQUENCIES],
  URL: MINUTE_FREQUENCIES,
  ICMP: MINUTE_FREQUENCIES,
  BROWSER: MINUTE_FREQUENCIES,
  MULTI_STEP: MINUTE_FREQUENCIES,
  HEARTBEAT: MINUTE_FREQUENCIES,
  AGENTIC: MINUTE_FREQUENCIES,
  PLAYWRIGHT: MINUTE_FREQUENCIES,
  SSL: MINUTE_FREQUENCIES,
  TRACEROUTE: MINUTE_FREQUENCIES,
  GRPC: MINUTE_FREQUENCIES,
};
export const DEFAULT_FREQUENCY = 10;
export const SUB_MINUTE_OFFSETS = [10, 20, 30];

/** Default and upper bound of degradedResponseTime / maxResponseTime (ms) per type. */
export const RESPONSE_TIME_LIMITS: Partial<Record<CheckType, { degraded: number; max: number; ceiling: number }>> = {
  API: { degraded: 5000, max: 20000, ceiling: 30000 },
  URL: { degraded: 5000, max: 20000, ceiling: 30000 },
  TCP: { degraded: 3000, max: 5000, ceiling: 5000 },
  DNS: { degraded: 500, max: 1000, ceiling: 5000 },
  ICMP: { degraded: 500, max: 1000, ceiling: 5000 },
  // SSL: the handshake time; TRACEROUTE: the final hop's average round trip (the CLI's defaults).
  SSL: { degraded: 3000, max: 10000, ceiling: 30000 },
  TRACEROUTE: { degraded: 10000, max: 20000, ceiling: 30000 },
  // The CLI's own limits for GrpcMonitor: defaults 10 s / 20 s, up to the 180 s call timeout.
  GRPC: { degraded: 10000, max: 20000, ceiling: 180000 },
};

export const COMPARISONS = [
  'EQUALS', 'NOT_EQUALS', 'HAS_KEY', 'NOT_HAS_KEY', 'HAS_VALUE', 'NOT_HAS_VALUE', 'IS_EMPTY', 'NOT_EMPTY',
  'GREATER_THAN', 'LESS_THAN', 'CONTAINS', 'NOT_CONTAINS', 'IS_NULL', 'NOT_NULL',
] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** Assertion sources each check type understands. */
export const ASSERTION_SOURCES: Partial<Record<CheckType, readonly string[]>> = {
  API: ['STATUS_CODE', 'JSON_BODY', 'HEADERS', 'TEXT_BODY', 'RESPONSE_TIME'],
  URL: ['STATUS_CODE'],
  TCP: ['RESPONSE_DATA', 'RESPONSE_TIME'],
  DNS: ['RESPONSE_CODE', 'RESPONSE_TIME', 'TEXT_ANSWER', 'JSON_ANSWER'],
  ICMP: ['LATENCY', 'JSON_RESPONSE'],
  SSL: ['CERTIFICATE', 'CONNECTION', 'RESPONSE_TIME', 'JSON_RESPONSE', 'TEXT_RESPONSE'],
  TRACEROUTE: ['RESPONSE_TIME', 'HOP_COUNT', 'PACKET_LOSS'],
  GRPC: ['RESPONSE_TIME', 'GRPC_STATUS_CODE', 'GRPC_HEALTHCHECK_STATUS', 'GRPC_RESPONSE', 'TEXT_BODY', 'GRPC_METADATA'],
};
export const ALL_ASSERTION_SOURCES = [...new Set(Object.values(ASSERTION_SOURCES).flat())];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'HEAD', 'DELETE', 'PATCH'] as const;
export const BODY_TYPES = ['JSON', 'FORM', 'RAW', 'GRAPHQL', 'NONE'] as const;
export const IP_FAMILIES = ['IPv4', 'IPv6'] as const;
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SOA', 'NS'] as const;
export const DNS_PROTOCOLS = ['UDP', 'TCP'] as const;
export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];
export const UNIT_SECONDS: Record<TimeUnit, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };

export const ALERT_CHANNEL_TYPES = ['EMAIL', 'SLACK', 'SLACK_APP', 'WEBHOOK', 'SMS', 'PAGERDUTY', 'OPSGENIE', 'CALL'] as const;
export type AlertChannelType = (typeof ALERT_CHANNEL_TYPES)[number];

export const RETRY_TYPES = ['FIXED', 'LINEAR', 'EXPONENTIAL', 'SINGLE_RETRY'] as const;
export const ESCALATION_TYPES = ['RUN_BASED', 'TIME_BASED'] as const;
export const MINUTES_FAILING_THRESHOLDS = [5, 10, 15, 30];
export const REMINDER_AMOUNTS = [0, 1, 2, 3, 4, 5, 100000];

/** Account-level alert settings given to new accounts, as conventions.md states them. */
export const DEFAULT_ALERT_SETTINGS = {
  escalationType: 'RUN_BASED',
  runBasedEscalation: { failedRunThreshold: 1 },
  timeBasedEscalation: { minutesFailingThreshold: 5 },
  reminders: { amount: 0, interval: 5 },
  parallelRunFailureThreshold: { enabled: false, percentage: 10 },
} as const;
