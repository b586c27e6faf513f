import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import type { buildConnector } from 'undici';

/** SSL certificate facts of an HTTPS target, kept as the result's `details.ssl`. */
export interface SslCertificateInfo {
  /** Whole days until `validTo` (negative once expired). */
  daysRemaining: number;
  validFrom: string;
  validTo: string;
  issuer: string;
  subject: string;
  /** Whether the chain and host name verified (false for self-signed, expired, wrong host). */
  authorized: boolean;
  authorizationError: string | null;
}

/** How long one new connection took to open, phase by phase (ms). */
export interface ConnectionTiming {
  hostname: string;
  remoteAddress: string | null;
  dns: number;
  tcp: number;
  tls: number;
  /** performance.now() when the connection was ready to carry the request. */
  readyAt: number;
  /** The server's certificate, for TLS connections. */
  ssl: SslCertificateInfo | null;
}

/** A client certificate to present in a TLS handshake (mutual TLS). */
export interface TlsClientCredentials {
  cert: string;
  key: string;
  passphrase: string | null;
  /** Certificates trusted for the server in addition to the usual roots. */
  ca: string | null;
}

export interface TimedConnectorOptions {
  /** Address family asked of the resolver; IP literals connect as written. */
  family: 4 | 6;
  /** When false (skipSSL), certificate problems are recorded but the request goes on. */
  verifyCertificates: boolean;
  /** The client certificate to present to `hostname` (as the URL names it), if any. */
  clientCertificateFor?(hostname: string): TlsClientCredentials | undefined;
  onConnection(timing: ConnectionTiming): void;
}

/** An undici connector and a way to close whatever it opened. */
export interface TimedConnector {
  connect: buildConnector.connector;
  /** Destroys every socket it created, including connects still in progress. */
  destroyAll(): void;
  /**
   * The first TLS error of an established connection (`ERR_SSL_*`): with TLS 1.3 a server refuses
   * a missing or unknown client certificate only after the handshake, and the HTTP client then
   * sees nothing but a closed socket.
   */
  tlsFailure(): { code: string; message: string } | null;
}

/** Messages of the OpenSSL verify codes a monitor meets most; others show their code. */
const VERIFY_MESSAGES: Record<string, string> = {
  CERT_HAS_EXPIRED: 'certificate has expired',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in certificate chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the first certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unable to get local issuer certificate',
  CERT_REVOKED: 'certificate revoked',
};

const DAY_MS = 86_400_000;

/**
 * A connector that opens each connection itself so every phase is measured for real: the
 * resolver call (`dns`), the TCP handshake up to the socket's `connect` event (`tcp`) and the
 * TLS handshake up to `secureConnect` (`tls`). TLS always completes the handshake without
 * rejecting, so the certificate is recorded even when it is expired or self-signed; verification
 * is then enforced here, failing the connection with the OpenSSL code (CERT_HAS_EXPIRED,
 * DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID...) unless `verifyCertificates` is false.
 */
export function createTimedConnector(options: TimedConnectorOptions): TimedConnector {
  const sockets = new Set<net.Socket>();
  let closed = false;
  let tlsFailure: { code: string; message: string } | null = null;

  const connect: buildConnector.connector = ({ hostname, protocol, port, servername }, callback) => {
    const start = performance.now();
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      callback(err, null);
    };
    const succeed = (socket: net.Socket) => {
      if (settled) return;
      settled = true;
      callback(null, socket);
    };
    const secure = protocol === 'https:';
    const portNumber = Number(port) || (secure ? 443 : 80);

    resolve(hostname, options.family).then(({ address, dnsMs }) => {
      if (closed) return fail(new ConnectorClosedError());
      const dnsDone = start + dnsMs;
      const raw = net.connect({ host: address, port: portNumber, family: net.isIP(address), noDelay: true });
      sockets.add(raw);
      raw.once('close', () => sockets.delete(raw));
      raw.once('error', fail);
      raw.once('connect', () => {
        const tcpDone = performance.now();
        if (!secure) {
          raw.removeListener('error', fail);
          options.onConnection({ hostname, remoteAddress: address, dns: dnsMs, tcp: tcpDone - dnsDone, tls: 0, readyAt: tcpDone, ssl: null });
          return succeed(raw);
        }
        const name = servername || (net.isIP(hostname) ? undefined : hostname);
        let socket: tls.TLSSocket;
        try {
          socket = tls.connect({
            socket: raw,
            host: hostname,
            servername: name,
            rejectUnauthorized: false,
            ALPNProtocols: ['http/1.1'],
            ...clientCredentials(options.clientCertificateFor?.(hostname)),
          });
        } catch (err) {
          // Only a stored client certificate OpenSSL refuses gets here; thrown from an event handler it would end the process.
          raw.destroy();
          return fail(Object.assign(
            new Error(`the client certificate for ${hostname} cannot be used: ${opensslReason(err instanceof Error ? err.message : String(err))}`),
            { code: 'CLIENT_CERTIFICATE_UNUSABLE' },
          ));
        }
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        socket.once('error', fail);
        socket.once('secureConnect', () => {
          const tlsDone = performance.now();
          const ssl = certificateInfo(socket);
          options.onConnection({
            hostname, remoteAddress: address, dns: dnsMs, tcp: tcpDone - dnsDone, tls: tlsDone - tcpDone, readyAt: tlsDone, ssl,
          });
          if (options.verifyCertificates && !socket.authorized) {
            socket.destroy();
            return fail(verificationError(socket, hostname));
          }
          socket.removeListener('error', fail);
          raw.removeListener('error', fail);
          // Failures of the wrapped socket surface on the TLS socket, which undici listens to.
          raw.on('error', () => undefined);
          socket.on('error', (err: Error & { code?: string }) => {
            if (typeof err.code === 'string' && err.code.startsWith('ERR_SSL_')) tlsFailure ??= { code: err.code, message: opensslReason(err.message) };
          });
          succeed(socket);
        });
      });
    }, fail);
  };

  return {
    connect,
    tlsFailure: () => tlsFailure,
    destroyAll() {
      closed = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
  };
}

/**
 * TLS options presenting a client certificate. Its `ca` is added to the usual roots rather than
 * replacing them, so a server with a public certificate still verifies.
 */
function clientCredentials(credentials: TlsClientCredentials | undefined): tls.ConnectionOptions {
  if (!credentials) return {};
  return {
    cert: credentials.cert,
    key: credentials.key,
    passphrase: credentials.passphrase ?? undefined,
    ...(credentials.ca ? { ca: [...tls.rootCertificates, credentials.ca] } : {}),
  };
}

/** `tlsv13 alert certificate required` out of OpenSSL's `803C...:error:0A00045C:SSL routines:ssl3_read_bytes:<reason>:<file>:<line>:...`. */
function opensslReason(message: string): string {
  return /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1]?.trim() || message;
}

/** Raised for a connect that finishes after the attempt was closed. */
class ConnectorClosedError extends Error {
  readonly code = 'CANCELLED';
  constructor() {
    super('connection closed: the attempt ended');
  }
}

async function resolve(hostname: string, family: 4 | 6): Promise<{ address: string; dnsMs: number }> {
  if (net.isIP(hostname)) return { address: hostname, dnsMs: 0 };
  const start = performance.now();
  const { address } = await lookup(hostname, { family });
  return { address, dnsMs: performance.now() - start };
}

function certificateInfo(socket: tls.TLSSocket): SslCertificateInfo | null {
  const cert = socket.getPeerCertificate();
  if (!cert || !cert.valid_to) return null;
  const validTo = new Date(cert.valid_to);
  const validFrom = new Date(cert.valid_from);
  const error = socket.authorizationError as unknown as string | Error | null | undefined;
  return {
    daysRemaining: Math.floor((validTo.getTime() - Date.now()) / DAY_MS),
    validFrom: validFrom.toISOString(),
    validTo: validTo.toISOString(),
    issuer: distinguishedName(cert.issuer),
    subject: distinguishedName(cert.subject),
    authorized: socket.authorized,
    authorizationError: error == null ? null : typeof error === 'string' ? error : ((error as { code?: string }).code ?? error.message),
  };
}

/** `CN=example.com, O=Example` from node's certificate name object (repeated fields joined). */
function distinguishedName(name: tls.Certificate | undefined): string {
  if (!name) return '';
  return Object.entries(name)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`)
    .join(', ');
}

function verificationError(socket: tls.TLSSocket, hostname: string): Error {
  const raw = socket.authorizationError as unknown as string | Error | null | undefined;
  const code = raw == null ? 'TLS_VERIFY_FAILED' : typeof raw === 'string' ? raw : ((raw as { code?: string }).code ?? 'TLS_VERIFY_FAILED');
  let message = VERIFY_MESSAGES[code] ?? code;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    message = tls.checkServerIdentity(hostname, socket.getPeerCertificate())?.message ?? "host name does not match the certificate's altnames";
  }
  return Object.assign(new Error(message), { code });
}
