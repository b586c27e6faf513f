import { X509Certificate } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { certificateSignatureAlgorithm } from '../../domain/certificate-signature-algorithm.js';
import type { SslCertificateFacts } from '../../domain/ssl-findings.js';

const DAY_MS = 86_400_000;
const KEY_ALGORITHMS: Record<string, string> = { rsa: 'RSA', 'rsa-pss': 'RSA', ec: 'ECDSA', ed25519: 'Ed25519', ed448: 'Ed448', dsa: 'DSA' };
const CURVE_BITS: Record<string, number> = { prime256v1: 256, secp256r1: 256, secp384r1: 384, secp521r1: 521, secp256k1: 256 };

/** Where and how to shake hands. */
export interface HandshakeTarget {
  /** The address to connect to (already resolved). */
  address: string;
  port: number;
  /** SNI name; null for none (an IP address target). */
  servername: string | null;
  timeoutMs: number;
  signal: AbortSignal;
  /** A client certificate to present. */
  clientCertificate?: { cert: string; key: string; passphrase: string | null; ca: string | null } | null;
  /** Only these protocol versions (to find out whether older ones are still accepted). */
  versions?: { min: tls.SecureVersion; max: tls.SecureVersion; ciphers: string };
}

/** What one handshake showed, or why it failed. */
export type Handshake =
  | {
      ok: true;
      handshakeMs: number;
      protocol: string | null;
      cipherSuite: string | null;
      authorized: boolean;
      authorizationError: string | null;
      peer: tls.PeerCertificate | null;
      chain: SslCertificateFacts[];
    }
  | { ok: false; handshakeMs: number; error: { code: string; message: string } };

/**
 * One TLS handshake that accepts whatever certificate the server presents (trust is reported,
 * not enforced: `authorized` is OpenSSL's verdict against Node's trust store, which
 * NODE_EXTRA_CA_CERTS extends), with the presented chain read as facts. Never throws.
 */
export function readTlsHandshake(target: HandshakeTarget, now: Date = new Date()): Promise<Handshake> {
  const t0 = performance.now();
  return new Promise<Handshake>((resolve) => {
    let settled = false;
    const done = (h: Handshake): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      target.signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(h);
    };
    const fail = (code: string, message: string) => done({ ok: false, handshakeMs: round(performance.now() - t0), error: { code, message } });
    const cc = target.clientCertificate;
    const socket = tls.connect({
      host: target.address,
      port: target.port,
      servername: target.servername ?? undefined,
      rejectUnauthorized: false,
      ...(cc ? { cert: cc.cert, key: cc.key, passphrase: cc.passphrase ?? undefined } : {}),
      ...(target.versions ? { minVersion: target.versions.min, maxVersion: target.versions.max, ciphers: target.versions.ciphers } : {}),
    }, () => {
      const handshakeMs = round(performance.now() - t0);
      const peer = socket.getPeerCertificate(true);
      const hasPeer = peer && Object.keys(peer).length > 0;
      done({
        ok: true,
        handshakeMs,
        protocol: tlsName(socket.getProtocol()),
        cipherSuite: socket.getCipher()?.standardName ?? null,
        authorized: socket.authorized,
        authorizationError: socket.authorizationError ? String(socket.authorizationError) : null,
        peer: hasPeer ? peer : null,
        chain: hasPeer ? chainOf(peer, now) : [],
      });
    });
    socket.on('error', (e: NodeJS.ErrnoException) => fail(e.code && /^E[A-Z0-9_]+$/.test(e.code) ? e.code : 'SSL_HANDSHAKE_FAILED', e.message || String(e)));
    const timer = setTimeout(() => fail('ETIMEDOUT', `no TLS handshake within ${target.timeoutMs} ms`), target.timeoutMs);
    const onAbort = (): void => fail('CANCELLED', 'the run was cancelled');
    if (target.signal.aborted) onAbort();
    else target.signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `TLSv1.3` → `TLS1.3` (the names SSL monitors use). */
function tlsName(protocol: string | null): string | null {
  if (!protocol) return null;
  const m = /^TLSv(\d(?:\.\d)?)$/.exec(protocol);
  return m ? `TLS${m[1]!.includes('.') ? m[1] : `${m[1]}.0`}` : protocol;
}

/** The presented chain, leaf first (as far as the server sent it, each certificate once). */
function chainOf(peer: tls.DetailedPeerCertificate, now: Date): SslCertificateFacts[] {
  const out: SslCertificateFacts[] = [];
  const seen = new Set<string>();
  let at: tls.DetailedPeerCertificate | undefined = peer;
  while (at?.raw && !seen.has(at.fingerprint256) && out.length < 10) {
    seen.add(at.fingerprint256);
    const issuer: tls.DetailedPeerCertificate | null = at.issuerCertificate && at.issuerCertificate !== at ? at.issuerCertificate : null;
    out.push(certificateFacts(at.raw, issuer?.raw ?? null, now));
    at = issuer ?? undefined;
  }
  return out;
}

/** The facts of one DER certificate (and of its issuer's, for the issuer's fingerprint). */
export function certificateFacts(der: Buffer, issuerDer: Buffer | null, now: Date): SslCertificateFacts {
  const x = new X509Certificate(der);
  const issuer = issuerDer ? new X509Certificate(issuerDer) : null;
  const details = x.publicKey.asymmetricKeyDetails ?? {};
  const type = x.publicKey.asymmetricKeyType ?? '';
  const keySizeBits = details.modulusLength ?? (details.namedCurve ? (CURVE_BITS[details.namedCurve] ?? null) : type === 'ed25519' ? 256 : type === 'ed448' ? 456 : null);
  const selfSigned = x.subject === x.issuer && safe(() => x.verify(x.publicKey));
  return {
    subject: oneLine(x.subject),
    subjectCN: commonName(x.subject),
    issuer: oneLine(x.issuer),
    issuerCN: commonName(x.issuer),
    sans: (x.subjectAltName ?? '').split(/,\s*/).map((s) => s.replace(/^(DNS|IP Address):/, '').trim()).filter((s) => s !== ''),
    validFrom: new Date(x.validFrom).toISOString(),
    validTo: new Date(x.validTo).toISOString(),
    daysUntilExpiry: Math.floor((new Date(x.validTo).getTime() - now.getTime()) / DAY_MS),
    serialNumber: x.serialNumber,
    fingerprintSha256: x.fingerprint256,
    issuerFingerprintSha256: issuer ? issuer.fingerprint256 : selfSigned ? x.fingerprint256 : null,
    keyAlgorithm: KEY_ALGORITHMS[type] ?? (type ? type.toUpperCase() : null),
    keySizeBits,
    signatureAlgorithm: certificateSignatureAlgorithm(der),
    selfSigned,
    isCA: x.ca,
  };
}

function safe(f: () => boolean): boolean {
  try {
    return f();
  } catch {
    return false;
  }
}

function oneLine(name: string): string {
  return name.split('\n').filter((l) => l !== '').join(', ');
}

function commonName(name: string): string | null {
  const line = name.split('\n').find((l) => l.startsWith('CN='));
  return line ? line.slice(3) : null;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
