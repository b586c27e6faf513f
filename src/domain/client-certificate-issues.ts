import { KeyObject, X509Certificate, createPrivateKey } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { toClientCertificateHost } from './client-certificate-host.js';
import type { Issue } from './lookout-error.js';

/** A client certificate as a client sends it (wire names of the public API). */
export interface ClientCertificateInput {
  host: string;
  /** The certificate, PEM (may be followed by its intermediates). */
  cert: string;
  /** Its private key, PEM, possibly encrypted. */
  key: string;
  passphrase?: string | null;
  /** Certificates (PEM) to trust for the server besides the usual roots. */
  ca?: string | null;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const ENCRYPTED_KEY = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,\s*ENCRYPTED/;

function parseCertificate(pem: string): X509Certificate | null {
  try {
    return new X509Certificate(pem);
  } catch {
    return null;
  }
}

/** The private key, or the issue explaining why it cannot be read (messages never repeat the input). */
function parseKey(key: string, passphrase: string | null | undefined): KeyObject | Issue {
  try {
    return createPrivateKey({ key, format: 'pem', passphrase: passphrase || undefined });
  } catch (err) {
    if (ENCRYPTED_KEY.test(key)) {
      if (!passphrase) return { key: 'passphrase', message: 'is required: the private key is encrypted' };
      if ((err as { code?: string }).code === 'ERR_OSSL_BAD_DECRYPT') return { key: 'passphrase', message: 'does not decrypt the private key' };
    }
    return { key: 'key', message: 'must be a private key in PEM format (-----BEGIN PRIVATE KEY----- ...)' };
  }
}

/**
 * Why a client certificate cannot be used in a TLS handshake, one issue per key: `host` is not a
 * host name or wildcard (see toClientCertificateHost), `cert` or `ca` is not PEM X.509, `key` does
 * not parse or does not belong to `cert`, `passphrase` is missing for or does not open an encrypted
 * key. Empty when the handshake can present it. No message quotes the key or the passphrase.
 */
export function clientCertificateIssues(input: ClientCertificateInput): Issue[] {
  const issues: Issue[] = [];
  if (toClientCertificateHost(input.host) === null) {
    issues.push({ key: 'host', message: 'must be a host name or IP address without scheme, port or path, or a wildcard such as *.example.com' });
  }
  const certificate = parseCertificate(input.cert);
  if (!certificate) issues.push({ key: 'cert', message: 'must be an X.509 certificate in PEM format (-----BEGIN CERTIFICATE----- ...)' });
  const key = parseKey(input.key, input.passphrase);
  if (!(key instanceof KeyObject)) issues.push(key);
  else if (certificate && !certificate.checkPrivateKey(key)) issues.push({ key: 'key', message: 'is not the private key of the certificate' });
  if (input.ca) {
    const blocks = input.ca.match(PEM_CERTIFICATE) ?? [];
    if (blocks.length === 0 || !blocks.every((b) => parseCertificate(b))) {
      issues.push({ key: 'ca', message: 'must be one or more X.509 certificates in PEM format' });
    }
  }
  if (issues.length === 0) {
    // What the handshake will do with them: catches what parses alone but cannot be used together.
    try {
      createSecureContext({ cert: input.cert, key: input.key, passphrase: input.passphrase || undefined });
    } catch {
      issues.push({ key: 'cert', message: 'cannot be used for TLS together with its key' });
    }
  }
  return issues;
}
