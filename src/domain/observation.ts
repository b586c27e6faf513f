/**
 * What an executor observed in one attempt, per family of check, as the assertion rules read it.
 * `kind` tells the families apart so an assertion whose source belongs to another family fails
 * with a clear error instead of reading a missing field.
 */

/** An HTTP response (API and URL checks). */
export interface HttpObservation {
  kind: 'HTTP';
  statusCode: number;
  /** Header names in any case (node's IncomingHttpHeaders fits); repeated headers as arrays. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The response body decoded as text ('' when there was none). */
  body: string;
  /** Total time in ms. */
  responseTime: number;
}

/** A TCP exchange: what the server sent back after `request.data`. */
export interface TcpObservation {
  kind: 'TCP';
  data: string;
  responseTime: number;
}

/** One resource record of a DNS answer; `data` is the record's value as dig prints it. */
export interface DnsRecord {
  name: string;
  /** Record type, e.g. A, AAAA, CNAME, MX, TXT, SOA, NS. */
  type: string;
  ttl: number;
  /** e.g. `93.184.216.34`, `10 mail.example.com.`, `"v=spf1 -all"`. */
  data: string;
}

/** A DNS response. */
export interface DnsObservation {
  kind: 'DNS';
  /** Response code name: NOERROR, NXDOMAIN, SERVFAIL, REFUSED, FORMERR... */
  rcode: string;
  answers: readonly DnsRecord[];
  responseTime: number;
}

/** Round-trip times of the answered pings, in ms. */
export interface IcmpLatency {
  avg: number;
  min: number;
  max: number;
  stdDev: number;
}

/** The summary of one ping run (ICMP checks). */
export interface IcmpObservation {
  kind: 'ICMP';
  packetsSent: number;
  packetsReceived: number;
  /** Percentage 0..100 of pings without a reply. */
  packetLoss: number;
  /** Null when no ping was answered. */
  latency: IcmpLatency | null;
  /** The address that was pinged, when the hostname resolved. */
  address?: string | null;
}

/** One TLS handshake (SSL monitors): the leaf certificate's and the connection's facts, and the whole response. */
export interface SslObservation {
  kind: 'SSL';
  /** Handshake time in ms. */
  responseTime: number;
  /** CERTIFICATE properties (daysUntilExpiry, subjectCN, sans...); null when no certificate was presented. */
  certificate: Readonly<Record<string, unknown>> | null;
  /** CONNECTION properties (tlsVersion, cipherSuite, chainTrusted, hostnameVerified, resolvedIp...). */
  connection: Readonly<Record<string, unknown>>;
  /** The response document JSON_RESPONSE and TEXT_RESPONSE read. */
  response: Readonly<Record<string, unknown>>;
}

/** One trace (TRACEROUTE monitors): the destination's round trips and loss, and the hop count. */
export interface TracerouteObservation {
  kind: 'TRACEROUTE';
  /** Round trips to the destination in ms; null when it never answered. */
  latency: IcmpLatency | null;
  hopCount: number;
  /** Percentage 0..100 of the destination's probes without an answer. */
  packetLoss: number;
}

/** A gRPC call (GRPC checks): its status, the health status or response message, and metadata. */
export interface GrpcObservation {
  kind: 'GRPC';
  /** gRPC status code of the call (0 OK … 16 UNAUTHENTICATED). */
  statusCode: number;
  /** HEALTH mode: the serving status number (0 UNKNOWN, 1 SERVING, 2 NOT_SERVING, 3 SERVICE_UNKNOWN); null otherwise. */
  healthStatus: number | null;
  /** The response message as JSON text ('' when the call returned none). */
  message: string;
  /** Response metadata (headers and trailers), names lower-case, repeated values joined with ", ". */
  metadata: Readonly<Record<string, string>>;
  responseTime: number;
}

export type Observation = HttpObservation | TcpObservation | DnsObservation | IcmpObservation | SslObservation | TracerouteObservation
  | GrpcObservation;
