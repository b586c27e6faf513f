import { once } from 'node:events';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';

const HOUR_MS = 3_600_000;
const YEAR_MS = 365 * 24 * HOUR_MS;

/** A certificate with its private key, PEM. */
export interface Pem {
  cert: string;
  key: string;
}

/** A certificate authority generated for one test run, issuing server and client certificates. */
export interface TestCa extends Pem {
  /** A client certificate with `commonName`; its key encrypted when `passphrase` is given. */
  issueClient(commonName: string, passphrase?: string): Promise<Pem>;
}

const validity = () => ({ notBeforeDate: new Date(Date.now() - HOUR_MS), notAfterDate: new Date(Date.now() + YEAR_MS) });

/** A fresh CA (EC P-256, so generating it and its certificates takes milliseconds). */
export async function createTestCa(commonName = 'Lookout Test CA'): Promise<TestCa> {
  const ca = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...validity(),
    extensions: [{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true }],
  });
  const signer = { key: ca.private, cert: ca.cert };
  return {
    cert: ca.cert,
    key: ca.private,
    async issueClient(name, passphrase) {
      const pems = await generate([{ name: 'commonName', value: name }], {
        keyType: 'ec', algorithm: 'sha256', ...validity(), ca: signer, passphrase,
        extensions: [{ name: 'basicConstraints', cA: false }, { name: 'extKeyUsage', clientAuth: true }],
      });
      return { cert: pems.cert, key: pems.private };
    },
  };
}

/** An HTTPS server that refuses every client without a certificate issued by its CA. */
export interface MtlsTarget {
  /** `https://127.0.0.1:<port>`; the server certificate is also valid for localhost and ::1. */
  url: string;
  port: number;
  /** The CA that issued the server certificate and whose client certificates are accepted. */
  ca: TestCa;
  close(): Promise<void>;
}

/**
 * Starts the target on loopback: TLS with `requestCert` and `rejectUnauthorized`, so a handshake
 * without a client certificate of `ca` fails. Every request is answered with JSON
 * `{client: <common name of the certificate presented>}`.
 */
export async function startMtlsTarget(ca: TestCa): Promise<MtlsTarget> {
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec', algorithm: 'sha256', ...validity(), ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  });
  const listener = https.createServer(
    { key: server.private, cert: server.cert, ca: ca.cert, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ client: peer?.subject?.CN ?? null }));
    },
  );
  // Handshakes this server refuses are the point of the tests, not failures of the server.
  listener.on('tlsClientError', () => undefined);
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const port = (listener.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    ca,
    close: () => new Promise<void>((resolve) => {
      listener.closeAllConnections();
      listener.close(() => resolve());
    }),
  };
}
