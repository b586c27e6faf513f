import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import type { ProbeError, TimingPhases } from '../domain/check-result.js';
import { CANCELLED_CODE, TIMEOUT_CODE } from './executors/network-error.js';
import { matchClientCertificate } from '../domain/client-certificate-host.js';
import { createTimedConnector, type ConnectionTiming, type SslCertificateInfo, type TlsClientCredentials } from './timed-connector.js';

/** Redirects followed before the run fails with TOO_MANY_REDIRECTS. */
export const MAX_REDIRECTS = 10;
/** Bytes of a response body read (and seen by assertions); the rest is not downloaded. */
export const MAX_BODY_READ_BYTES = 5 * 1024 * 1024;

/** One HTTP request as the probe sends it, variables already substituted. */
export interface HttpProbeRequest {
  method: string;
  /** Absolute http(s) URL, query string included. */
  url: string;
  /** Header name/value pairs in the order given (repeats allowed). */
  headers: [string, string][];
  body: string | null;
  followRedirects: boolean;
  /** Go on when the certificate does not verify (it is still recorded). */
  skipSSL: boolean;
  /** Address family asked of the resolver. */
  family: 4 | 6;
  timeoutMs: number;
  signal: AbortSignal;
  /** Client certificates: each TLS connection presents the one matching its host (matchClientCertificate). */
  clientCertificates?: readonly (TlsClientCredentials & { host: string })[];
}

/** The final response of the exchange (after redirects). */
export interface HttpProbeResponse {
  status: number;
  statusText: string;
  /** Lower-case names as node gives them; repeated headers as arrays. */
  headers: Record<string, string | string[]>;
  /** Decoded body text, at most MAX_BODY_READ_BYTES of it. */
  body: string;
  /** Bytes of body received (after decompression when the server compressed it). */
  bodySize: number;
  /** The body was longer than MAX_BODY_READ_BYTES and was cut there. */
  bodyTruncated: boolean;
  /** The URL that answered, after redirects. */
  url: string;
}

/** Timing phases plus `wait`, the name analytics uses for time to first byte. */
export type HttpTimingPhases = TimingPhases & { wait: number };

/**
 * Moments of the exchange in ms since it started, the way `request`-style clients report them:
 * first connection resolved (`lookup`), connected (`connect`), finished TLS (`secureConnect`),
 * final response headers (`response`) and body end (`end`). Null when that moment never came.
 */
export interface HttpTimings {
  lookup: number | null;
  connect: number | null;
  secureConnect: number | null;
  response: number | null;
  end: number | null;
}

export interface HttpProbeOutcome {
  response: HttpProbeResponse | null;
  error: ProbeError | null;
  /** The failure happened on the network (connect, DNS, TLS, timeout) — retry `onlyOn: NETWORK_ERROR`. */
  networkError: boolean;
  timingPhases: HttpTimingPhases;
  timings: HttpTimings;
  /** Certificate of the first TLS connection of the exchange (the target's own for an https URL). */
  ssl: SslCertificateInfo | null;
  /** One line per hop (`GET https://… → 301`), redirects included, with when it was answered. */
  log: { time: string; message: string }[];
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials and are not forwarded to another origin on redirect. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * Sends one HTTP request over a fresh undici Agent (connection set-up is part of what a monitor
 * measures, so nothing is reused across attempts) and closes it afterwards. Never throws.
 *
 * How the phases are measured (ms, from performance.now()):
 * - dns, tcp, tls: by the timed connector — resolver call, TCP handshake, TLS handshake — of
 *   each new connection; 0 for a phase that did not happen (IP literal, plain HTTP, reused
 *   connection);
 * - firstByte (and `wait`, the same value): from the connection being ready (or the request
 *   being handed to a reused one) to the response headers;
 * - download: from the headers to the end of the body;
 * - total: from the start to the end of the final body.
 * With redirects each phase is the sum over the hops, and total covers the whole chain.
 *
 * Redirects (3xx with Location, at most MAX_REDIRECTS) follow fetch's rules: 303 becomes GET
 * without body (HEAD stays HEAD), 301/302 turn POST into GET, 307/308 repeat the request as is;
 * credentials (Authorization, Cookie) are dropped when the redirect leaves the origin.
 */
export async function probeHttp(req: HttpProbeRequest): Promise<HttpProbeOutcome> {
  const start = performance.now();
  const phases = { dns: 0, tcp: 0, tls: 0, firstByte: 0, download: 0 };
  const timings: HttpTimings = { lookup: null, connect: null, secureConnect: null, response: null, end: null };
  const log: HttpProbeOutcome['log'] = [];
  let ssl: SslCertificateInfo | null = null;
  let hopConnection: ConnectionTiming | null = null;

  const connector = createTimedConnector({
    family: req.family,
    verifyCertificates: !req.skipSSL,
    clientCertificateFor: (hostname) => matchClientCertificate(req.clientCertificates ?? [], hostname),
    onConnection(c) {
      hopConnection = c;
      phases.dns += c.dns;
      phases.tcp += c.tcp;
      phases.tls += c.tls;
      if (timings.connect === null) {
        const readyOffset = c.readyAt - start;
        timings.secureConnect = c.ssl ? round(readyOffset) : null;
        timings.connect = round(readyOffset - c.tls);
        timings.lookup = round(readyOffset - c.tls - c.tcp);
      }
      ssl ??= c.ssl;
    },
  });
  // One connection per origin: the hops of an exchange go one after another, so a pool could never
  // open a second, and with `connections: 1` the Agent makes a bare Client per origin instead of a
  // Pool, whose 2,048-slot request queue (16 KB) per probe was most of what the runner promoted
  // to the old space (bench/memory.ts with BENCH_PROMOTED_PROFILE).
  const agent = new Agent({ connect: connector.connect, headersTimeout: 0, bodyTimeout: 0, pipelining: 1, connections: 1 });

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, Math.max(0, req.timeoutMs));
  const onCancel = () => controller.abort(new Error('cancelled'));
  if (req.signal.aborted) onCancel();
  else req.signal.addEventListener('abort', onCancel, { once: true });

  let response: HttpProbeResponse | null = null;
  let error: ProbeError | null = null;
  let networkError = false;
  let end = start;
  try {
    let url = parseHttpUrl(req.url);
    let method = req.method.toUpperCase();
    let body = method === 'HEAD' ? null : req.body;
    let headers = req.headers;
    for (let hop = 0; ; hop++) {
      hopConnection = null;
      const hopStart = performance.now();
      const res = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers: headers.flat(),
        body,
        signal: controller.signal,
      });
      const headersAt = performance.now();
      const connection = hopConnection as ConnectionTiming | null;
      phases.firstByte += headersAt - (connection?.readyAt ?? hopStart);
      const location = headerText(res.headers.location);
      log.push({ time: new Date().toISOString(), message: `${method} ${url.href} → ${res.statusCode}` });

      if (req.followRedirects && REDIRECT_STATUSES.has(res.statusCode) && location) {
        await res.body.dump();
        phases.download += performance.now() - headersAt;
        if (hop >= MAX_REDIRECTS) {
          throw Object.assign(new Error(`more than ${MAX_REDIRECTS} redirects`), { code: 'TOO_MANY_REDIRECTS' });
        }
        const next = parseHttpUrl(new URL(location, url).href);
        if (res.statusCode === 303 ? method !== 'HEAD' : (res.statusCode === 301 || res.statusCode === 302) && method === 'POST') {
          method = 'GET';
          body = null;
          headers = headers.filter(([k]) => !/^content-(type|length|encoding|language|location)$/i.test(k));
        }
        if (next.origin !== url.origin) headers = headers.filter(([k]) => !CREDENTIAL_HEADERS.has(k.toLowerCase()));
        url = next;
        continue;
      }

      timings.response = round(headersAt - start);
      const read = await readBody(res.body);
      end = performance.now();
      phases.download += end - headersAt;
      timings.end = round(end - start);
      const resHeaders = res.headers as Record<string, string | string[]>;
      const decoded = decode(read.bytes, resHeaders, read.truncated);
      response = {
        status: res.statusCode,
        statusText: STATUS_CODES[res.statusCode] ?? '',
        headers: resHeaders,
        body: decoded.text,
        bodySize: decoded.size,
        bodyTruncated: read.truncated,
        url: url.href,
      };
      break;
    }
  } catch (err) {
    end = performance.now();
    const mapped = requestError(err, { timedOut, cancelled: req.signal.aborted, timeoutMs: req.timeoutMs });
    // A server refusing the client certificate after a TLS 1.3 handshake: its alert says why, the reset does not.
    const tlsFailure = mapped.error.code === 'ECONNRESET' ? connector.tlsFailure() : null;
    error = tlsFailure ?? mapped.error;
    networkError = mapped.networkError;
  } finally {
    clearTimeout(timer);
    req.signal.removeEventListener('abort', onCancel);
    if (error) {
      connector.destroyAll();
      await agent.destroy().catch(() => undefined);
    } else {
      // A finished exchange closes gracefully: destroying live sockets makes undici build (and
      // source-map) an error per run, a large share of the runner's CPU at scale.
      await agent.close().catch(() => undefined);
      connector.destroyAll();
    }
  }

  const rounded = {
    dns: round(phases.dns), tcp: round(phases.tcp), tls: round(phases.tls),
    firstByte: round(phases.firstByte), download: round(phases.download),
  };
  const sum = rounded.dns + rounded.tcp + rounded.tls + rounded.firstByte + rounded.download;
  // Rounding each phase may make their sum pass the rounded wall time by a hair.
  const total = Math.max(round(end - start), round(sum));
  return {
    response,
    error,
    networkError,
    timingPhases: { ...rounded, total, wait: rounded.firstByte },
    timings,
    ssl,
    log,
  };
}

/** Milliseconds to a tenth, never negative. */
function round(ms: number): number {
  return Math.max(0, Math.round(ms * 10) / 10);
}

function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw Object.assign(new Error(`invalid URL ${JSON.stringify(text)}`), { code: 'INVALID_URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw Object.assign(new Error(`unsupported URL scheme ${url.protocol} (http: or https: expected)`), { code: 'INVALID_URL' });
  }
  return url;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(body: Dispatcher.ResponseData['body']): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = MAX_BODY_READ_BYTES - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size += room;
      // The rest is not needed: stop the download rather than wait for a huge or endless body.
      body.destroy();
      return { bytes: Buffer.concat(chunks, size), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { bytes: Buffer.concat(chunks, size), truncated: false };
}

/** Body bytes as text: decompressed per Content-Encoding when complete, decoded per charset. */
function decode(bytes: Buffer, headers: Record<string, string | string[]>, truncated: boolean): { text: string; size: number } {
  let data = bytes;
  const encoding = headerText(headers['content-encoding'])?.trim().toLowerCase();
  if (!truncated && encoding && bytes.length > 0) {
    const opts = { maxOutputLength: MAX_BODY_READ_BYTES };
    try {
      if (encoding === 'gzip' || encoding === 'x-gzip') data = zlib.gunzipSync(bytes, opts);
      else if (encoding === 'deflate') data = zlib.inflateSync(bytes, opts);
      else if (encoding === 'br') data = zlib.brotliDecompressSync(bytes, opts);
    } catch {
      // Not what the header claims (or larger than the cap): keep the bytes as received.
      data = bytes;
    }
  }
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(headerText(headers['content-type']) ?? '')?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return { text: decoder.decode(data), size: data.length };
}

/** Codes that mean the request itself was unusable, not that the network failed. */
const NOT_NETWORK = new Set(['INVALID_URL', 'INVALID_REQUEST', CANCELLED_CODE, 'TOO_MANY_REDIRECTS', 'CLIENT_CERTIFICATE_UNUSABLE']);

/** Undici's own codes mapped to stable ones. */
const UNDICI_CODES: Record<string, string> = {
  UND_ERR_SOCKET: 'ECONNRESET',
  UND_ERR_CLOSED: 'ECONNRESET',
  UND_ERR_CONNECT_TIMEOUT: TIMEOUT_CODE,
  UND_ERR_HEADERS_TIMEOUT: TIMEOUT_CODE,
  UND_ERR_BODY_TIMEOUT: TIMEOUT_CODE,
  UND_ERR_HEADERS_OVERFLOW: 'INVALID_RESPONSE',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'INVALID_RESPONSE',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'INVALID_RESPONSE',
  UND_ERR_INVALID_ARG: 'INVALID_REQUEST',
  UND_ERR_NOT_SUPPORTED: 'INVALID_REQUEST',
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'INVALID_REQUEST',
};

/**
 * A thrown request failure as a stable code and message, the same codes as the other executors:
 * the attempt's own timeout (and undici's) is ETIMEDOUT, a cancelled run CANCELLED; node's errno
 * codes (ECONNREFUSED, ENOTFOUND, EAI_AGAIN, ECONNRESET, EHOSTUNREACH...) and OpenSSL verify
 * codes (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT...) stay as they are; undici's are mapped
 * (UND_ERR_SOCKET → ECONNRESET, parser errors → INVALID_RESPONSE); anything else is REQUEST_FAILED.
 */
function requestError(
  err: unknown,
  state: { timedOut: boolean; cancelled: boolean; timeoutMs: number },
): { error: ProbeError; networkError: boolean } {
  if (state.timedOut) {
    return { error: { code: TIMEOUT_CODE, message: `no complete response within ${state.timeoutMs} ms` }, networkError: true };
  }
  if (state.cancelled) return { error: { code: CANCELLED_CODE, message: 'the run was cancelled' }, networkError: false };
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  let code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : 'REQUEST_FAILED';
  const message = typeof e?.message === 'string' && e.message ? e.message : String(err);
  if (code.startsWith('HPE_')) code = 'INVALID_RESPONSE';
  code = UNDICI_CODES[code] ?? code;
  return { error: { code, message }, networkError: !NOT_NETWORK.has(code) };
}
