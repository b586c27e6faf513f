import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import dnsPacket from 'dns-packet';
import { DNS_RECORD_TYPES } from '../../domain/catalog.js';
import type { ProbeError, ProbeResult } from '../../domain/check-result.js';
import { evaluateAssertions, type Assertion } from '../../domain/evaluate-assertion.js';
import type { DnsRecord } from '../../domain/observation.js';
import { toDnsRecord } from '../../domain/to-dns-record.js';
import type { Executor, RunContext, RunnableCheck } from '../executor.js';
import { interpolateVariables, variableValues } from '../interpolate-variables.js';
import { finishProbe, guardedExecutor } from './finish-probe.js';
import { CANCELLED_CODE, TIMEOUT_CODE, hostPort, toProbeError } from './network-error.js';

type RecordType = (typeof DNS_RECORD_TYPES)[number];
type Protocol = 'UDP' | 'TCP';

/** A name server to ask. */
export interface NameServer {
  address: string;
  port: number;
}

/** A decoded response; dns-packet's typings leave out the response code it decodes. */
type DnsResponse = dnsPacket.DecodedPacket & { rcode?: string };

type Exchange =
  | { ok: true; response: DnsResponse }
  | { ok: false; error: ProbeError; networkError: boolean };

/** UDP payload size offered in the EDNS0 OPT record: the size DNS Flag Day 2020 recommends. */
const EDNS_UDP_PAYLOAD = 1232;

/**
 * The name server of the machine's resolver configuration (the first of node's
 * `dns.getServers()`, i.e. /etc/resolv.conf), with the port it names or `defaultPort`.
 */
export function systemNameServer(servers: readonly string[], defaultPort: number): NameServer | null {
  const entry = servers[0]?.trim();
  if (!entry) return null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { address: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : defaultPort };
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d+)$/.exec(entry);
  if (v4WithPort) return { address: v4WithPort[1]!, port: Number(v4WithPort[2]) };
  return { address: entry, port: defaultPort };
}

/**
 * The DNS executor: asks `request.nameServer:port` (the machine's resolver when nameServer is
 * null) for `request.query` of `request.recordType` over `request.protocol`, with a random id
 * and the RD flag and an EDNS0 OPT record, using dns-packet. Only a response carrying the same id
 * is taken (other datagrams are ignored). A UDP response with the TC (truncated) bit set is asked
 * again over TCP at once, as resolvers do, and `details.protocol` then says TCP with
 * `details.truncatedOverUdp` true. Over TCP each message carries its 2-byte length prefix.
 *
 * Assertions see RESPONSE_CODE (NOERROR, NXDOMAIN, SERVFAIL, REFUSED...), RESPONSE_TIME (ms from
 * the first query sent to the response, TCP retry included), TEXT_ANSWER and JSON_ANSWER. Without
 * assertions a response code other than NOERROR fails the run with the error code `DNS_<RCODE>`.
 * A response that cannot be decoded is DNS_BAD_RESPONSE; no response within the attempt's time
 * limit is ETIMEDOUT. details: `{query, recordType, rcode, answers, authority, nameServer, port,
 * protocol, truncatedOverUdp}`.
 */
export const runDnsCheck: Executor = guardedExecutor(probe, 'DNS_PROBE_FAILED', 'DNS check could not run');

async function probe(check: RunnableCheck, ctx: RunContext, startedAt: Date): Promise<ProbeResult> {
  const t0 = performance.now();
  const request = (check.data.request ?? {}) as Record<string, any>;
  const values = variableValues(ctx.variables);
  const query = typeof request.query === 'string' ? interpolateVariables(request.query, values).trim() : '';
  const recordType = (request.recordType ?? 'A') as RecordType;
  const protocol: Protocol = request.protocol === 'TCP' ? 'TCP' : 'UDP';
  const port = request.port == null ? 53 : request.port;
  const assertions: Assertion[] = Array.isArray(request.assertions) ? request.assertions : [];
  const fail = (error: ProbeError, networkError: boolean, details: Record<string, unknown> | null = null) =>
    finishProbe(check, ctx, {
      startedAt, responseTime: Math.round(performance.now() - t0), errors: [error], assertions: [], networkError, details,
    });

  const invalid = requestProblem(query, recordType, port);
  if (invalid) return fail({ code: 'INVALID_REQUEST', message: invalid }, false);

  const configured = typeof request.nameServer === 'string' ? interpolateVariables(request.nameServer, values).trim() : '';
  const located = await locateNameServer(configured, port, ctx, t0);
  if ('error' in located) return fail(located.error, located.networkError);
  const server = located.server;

  const id = randomInt(0, 65536);
  const packet: dnsPacket.Packet = {
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type: recordType, name: query, class: 'IN' }],
    additionals: [{
      type: 'OPT', name: '.', udpPayloadSize: EDNS_UDP_PAYLOAD, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [],
    }],
  };
  const message = dnsPacket.encode(packet);
  const expected: Question = { id, name: query, type: recordType };
  const deadline = t0 + ctx.timeoutMs;
  const sentAt = performance.now();

  let usedProtocol = protocol;
  let truncatedOverUdp = false;
  let exchange = protocol === 'UDP'
    ? await udpExchange(message, server, expected, deadline, ctx.signal)
    : await tcpExchange(message, server, expected, deadline, ctx.signal);
  if (exchange.ok && usedProtocol === 'UDP' && exchange.response.flag_tc) {
    truncatedOverUdp = true;
    usedProtocol = 'TCP';
    exchange = await tcpExchange(message, server, expected, deadline, ctx.signal);
  }
  const responseTime = Math.round(performance.now() - sentAt);
  const baseDetails = { query, recordType, nameServer: server.address, port: server.port, protocol: usedProtocol, truncatedOverUdp };
  if (!exchange.ok) {
    return finishProbe(check, ctx, {
      startedAt, responseTime, errors: [exchange.error], assertions: [], networkError: exchange.networkError,
      details: { ...baseDetails, rcode: null, answers: [], authority: [] },
    });
  }

  const response = exchange.response;
  const rcode = typeof response.rcode === 'string' ? response.rcode : 'NOERROR';
  const answers = records(response.answers);
  const authority = records(response.authorities);
  const outcomes = evaluateAssertions(assertions, { kind: 'DNS', rcode, answers, responseTime });
  const errors: ProbeError[] = assertions.length === 0 && rcode !== 'NOERROR'
    ? [{ code: `DNS_${rcode}`, message: `${rcode} for ${query} ${recordType} from ${hostPort(server.address, server.port)}` }]
    : [];
  return finishProbe(check, ctx, {
    startedAt, responseTime, errors, assertions: outcomes, networkError: false,
    details: { ...baseDetails, rcode, answers, authority },
  });
}

function requestProblem(query: string, recordType: string, port: unknown): string | null {
  if (!(DNS_RECORD_TYPES as readonly string[]).includes(recordType)) {
    return `request.recordType must be one of ${DNS_RECORD_TYPES.join(', ')}`;
  }
  if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535) return 'request.port must be 1..65535';
  if (query === '' || query === '.') return 'request.query must name a domain';
  const labels = query.replace(/\.$/, '').split('.');
  if (Buffer.byteLength(query) > 253 || labels.some((l) => l === '' || Buffer.byteLength(l) > 63)) {
    return `request.query ${JSON.stringify(query)} is not a valid domain name`;
  }
  return null;
}

/** Records of a response section, OPT pseudo-records left out. */
function records(section: readonly dnsPacket.Answer[] | undefined): DnsRecord[] {
  return (section ?? []).filter((a) => a.type !== 'OPT').map(toDnsRecord);
}

async function locateNameServer(
  configured: string, port: number, ctx: RunContext, t0: number,
): Promise<{ server: NameServer } | { error: ProbeError; networkError: boolean }> {
  if (!configured) {
    const server = systemNameServer(dns.getServers(), port);
    if (!server) return { error: { code: 'NO_NAMESERVER', message: 'no name server given and none configured on this machine' }, networkError: false };
    return { server };
  }
  if (net.isIP(configured)) return { server: { address: configured, port } };
  try {
    const { address } = await withDeadline(dns.promises.lookup(configured), t0 + ctx.timeoutMs, ctx.signal);
    return { server: { address, port } };
  } catch (e) {
    if (e === DEADLINE) return { error: { code: TIMEOUT_CODE, message: `resolving name server ${configured} timed out` }, networkError: true };
    if (e === ABORTED) return { error: { code: CANCELLED_CODE, message: 'DNS check was cancelled' }, networkError: false };
    return { error: toProbeError(e, 'ENOTFOUND', `resolving name server ${configured}`), networkError: true };
  }
}

const DEADLINE = Symbol('deadline');
const ABORTED = Symbol('aborted');

function withDeadline<T>(promise: Promise<T>, deadline: number, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(ABORTED);
    const onAbort = () => reject(ABORTED);
    const timer = setTimeout(() => reject(DEADLINE), Math.max(0, deadline - performance.now()));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    });
  });
}

interface Question {
  id: number;
  name: string;
  type: string;
}

type Reading = { kind: 'response'; response: DnsResponse } | { kind: 'foreign' } | { kind: 'bad'; message: string };

/**
 * Reads a message received from the server. Another id is `foreign` (a late answer to an earlier
 * query, or spoofing); a message that does not decode, is not a response or answers another
 * question is `bad`.
 */
export function readDnsResponse(message: Buffer, expected: Question): Reading {
  if (message.length < 12) return { kind: 'bad', message: `DNS response of ${message.length} bytes is shorter than a DNS header` };
  if (message.readUInt16BE(0) !== expected.id) return { kind: 'foreign' };
  let response: DnsResponse;
  try {
    response = dnsPacket.decode(message) as DnsResponse;
  } catch (e) {
    return { kind: 'bad', message: `malformed DNS response: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (response.type !== 'response') return { kind: 'bad', message: 'the server sent a DNS query instead of a response' };
  const question = response.questions?.[0];
  if (question && (question.name.replace(/\.$/, '').toLowerCase() !== expected.name.replace(/\.$/, '').toLowerCase() || question.type !== expected.type)) {
    return { kind: 'bad', message: `DNS response answers ${question.name} ${question.type} instead of ${expected.name} ${expected.type}` };
  }
  return { kind: 'response', response };
}

/** Settles an exchange once: clears the timer and the abort listener, and closes the transport. */
function exchangeSettler(deadline: number, signal: AbortSignal, target: string, protocol: Protocol, close: () => void, resolve: (x: Exchange) => void) {
  let done = false;
  const settle = (x: Exchange): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    try {
      close();
    } catch {
      // Already closed by the peer or by an error: nothing left to release.
    }
    resolve(x);
  };
  const onAbort = () => settle({ ok: false, error: { code: CANCELLED_CODE, message: 'DNS check was cancelled' }, networkError: false });
  const timer = setTimeout(
    () => settle({ ok: false, error: { code: TIMEOUT_CODE, message: `no DNS response from ${target} over ${protocol} in time` }, networkError: true }),
    Math.max(0, deadline - performance.now()),
  );
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return { settle, settled: () => done };
}

function udpExchange(message: Buffer, server: NameServer, expected: Question, deadline: number, signal: AbortSignal): Promise<Exchange> {
  const target = hostPort(server.address, server.port);
  return new Promise<Exchange>((resolve) => {
    const socket = dgram.createSocket(net.isIPv6(server.address) ? 'udp6' : 'udp4');
    const { settle, settled } = exchangeSettler(deadline, signal, target, 'UDP', () => socket.close(), resolve);
    if (settled()) return;
    socket.on('error', (err) => settle({ ok: false, error: toProbeError(err, 'DNS_UDP_ERROR', `DNS query to ${target} over UDP`), networkError: true }));
    socket.on('message', (msg) => {
      const reading = readDnsResponse(msg, expected);
      if (reading.kind === 'foreign') return;
      if (reading.kind === 'bad') settle({ ok: false, error: { code: 'DNS_BAD_RESPONSE', message: reading.message }, networkError: false });
      else settle({ ok: true, response: reading.response });
    });
    // A connected socket only takes datagrams from the server, and hears ICMP port unreachable
    // as ECONNREFUSED instead of waiting for the timeout.
    socket.connect(server.port, server.address, () => {
      socket.send(message, (err) => {
        if (err) settle({ ok: false, error: toProbeError(err, 'DNS_UDP_ERROR', `DNS query to ${target} over UDP`), networkError: true });
      });
    });
  });
}

function tcpExchange(message: Buffer, server: NameServer, expected: Question, deadline: number, signal: AbortSignal): Promise<Exchange> {
  const target = hostPort(server.address, server.port);
  return new Promise<Exchange>((resolve) => {
    const socket = new net.Socket();
    const { settle, settled } = exchangeSettler(deadline, signal, target, 'TCP', () => socket.destroy(), resolve);
    if (settled()) return;
    let received = Buffer.alloc(0);
    socket.on('error', (err) => settle({ ok: false, error: toProbeError(err, 'DNS_TCP_ERROR', `DNS query to ${target} over TCP`), networkError: true }));
    socket.on('close', () => settle({ ok: false, error: { code: 'ECONNCLOSED', message: `${target} closed the TCP connection before a full DNS response` }, networkError: true }));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2) return;
      const length = received.readUInt16BE(0);
      if (received.length < 2 + length) return;
      const reading = readDnsResponse(received.subarray(2, 2 + length), expected);
      if (reading.kind === 'response') settle({ ok: true, response: reading.response });
      else {
        const why = reading.kind === 'bad' ? reading.message : 'DNS response over TCP carries another id than the query';
        settle({ ok: false, error: { code: 'DNS_BAD_RESPONSE', message: why }, networkError: false });
      }
    });
    socket.connect({ host: server.address, port: server.port }, () => {
      const framed = Buffer.alloc(2 + message.length);
      framed.writeUInt16BE(message.length, 0);
      message.copy(framed, 2);
      socket.write(framed);
    });
  });
}
