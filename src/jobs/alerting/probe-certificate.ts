import tls from 'node:tls';

const DAY_MS = 86_400_000;

/** The certificate a TLS server presents, as certificate alerts need it. */
export interface ProbedCertificate {
  domain: string;
  daysRemaining: number;
  validTo: string;
}

/**
 * Opens a TLS connection to `target` (`host` or `host:port`, port 443 by default; SNI is the
 * host) and reads the certificate it presents, whether or not it verifies (an expired or
 * self-signed certificate still has an expiry date worth alerting on). Resolves null when no
 * certificate could be read within `timeoutMs`: a probe never throws.
 */
export function probeCertificate(target: string, timeoutMs: number, now: Date = new Date()): Promise<ProbedCertificate | null> {
  const match = /^\[?([^\]]+?)\]?(?::(\d{1,5}))?$/.exec(target.trim());
  const host = match?.[1];
  const port = Number(match?.[2] ?? 443);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) return Promise.resolve(null);
  return new Promise((resolve) => {
    let settled = false;
    const done = (value: ProbedCertificate | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const socket = tls.connect({ host, port, servername: /^[\d.:]+$/.test(host) ? undefined : host, rejectUnauthorized: false }, () => {
      const cert = socket.getPeerCertificate();
      if (!cert?.valid_to) return done(null);
      const validTo = new Date(cert.valid_to);
      done({ domain: host, daysRemaining: Math.floor((validTo.getTime() - now.getTime()) / DAY_MS), validTo: validTo.toISOString() });
    });
    socket.on('error', () => done(null));
    const timer = setTimeout(() => done(null), timeoutMs);
    timer.unref();
  });
}
