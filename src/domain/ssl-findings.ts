/** TLS versions as SSL monitors name them, oldest first (their order is what `greaterThan` compares). */
export const TLS_VERSIONS = ['TLS1.0', 'TLS1.1', 'TLS1.2', 'TLS1.3'] as const;

/** What a baseline rule does when broken. */
export type BaselineSeverity = 'fail' | 'degrade' | 'ignore';

/** The certificate the server presented (its leaf, or one of its chain). */
export interface SslCertificateFacts {
  subject: string;
  subjectCN: string | null;
  issuer: string;
  issuerCN: string | null;
  sans: string[];
  validFrom: string;
  validTo: string;
  daysUntilExpiry: number;
  serialNumber: string;
  fingerprintSha256: string;
  issuerFingerprintSha256: string | null;
  /** RSA, ECDSA, Ed25519, Ed448, DSA... */
  keyAlgorithm: string | null;
  keySizeBits: number | null;
  /** As Go's x509 names it (SHA256-RSA, ECDSA-SHA256...), which is what Checkly's assertions compare. */
  signatureAlgorithm: string | null;
  selfSigned: boolean;
  isCA: boolean;
}

/** What one handshake established. */
export interface SslHandshakeFacts {
  /** TLS1.0 … TLS1.3, or what the server negotiated when it is none of those. */
  protocol: string | null;
  /** IANA name of the negotiated cipher suite. */
  cipherSuite: string | null;
  chainTrusted: boolean;
  /** Why the chain is not trusted (OpenSSL's code, e.g. DEPTH_ZERO_SELF_SIGNED_CERT), when it is not. */
  chainError: string | null;
  hostnameVerified: boolean;
  hostnameError: string | null;
  /** Older protocols (TLS1.0/1.1) the server still accepts; null when not probed. */
  legacyProtocolsOffered: string[] | null;
  leaf: SslCertificateFacts | null;
}

/** The security baseline of an SSL monitor (the CLI's `securityBaseline`), every rule optional. */
export interface SslBaseline {
  enabled?: boolean | null;
  minTLSVersion?: { value?: string | null; severity?: BaselineSeverity | null } | null;
  minKeySizeBits?: { value?: number | null; severity?: BaselineSeverity | null } | null;
  weakSignatureAlgorithm?: { severity?: BaselineSeverity | null } | null;
  weakCipherSuite?: { severity?: BaselineSeverity | null } | null;
  recommendedTLSVersion?: { value?: string | null; severity?: BaselineSeverity | null } | null;
  recommendedKeySizeBits?: { value?: number | null; severity?: BaselineSeverity | null } | null;
}

/** The settings the findings depend on. */
export interface SslFindingSettings {
  alertDaysBeforeExpiry: number;
  skipChainValidation: boolean;
  securityBaseline: SslBaseline | null;
}

/** One thing found about the server's TLS: a stable code, what it does to the run, and why. */
export interface SslFinding {
  code: string;
  severity: 'fail' | 'degrade' | 'info';
  message: string;
}

/** The baseline used where a monitor gives none (or leaves a rule out). */
export const DEFAULT_SSL_BASELINE = {
  minTLSVersion: { value: 'TLS1.2', severity: 'fail' },
  minKeySizeBits: { value: 2048, severity: 'fail' },
  weakSignatureAlgorithm: { severity: 'fail' },
  weakCipherSuite: { severity: 'degrade' },
  recommendedTLSVersion: { value: 'TLS1.3', severity: 'ignore' },
  recommendedKeySizeBits: { value: 3072, severity: 'ignore' },
} as const;

const WEAK_SIGNATURE = /^(MD2|MD5|SHA1)-|-SHA1$/;
const WEAK_CIPHER = /RC4|_DES_|3DES|_NULL_|NULL_|EXPORT|_anon_|_MD5$/i;
// Key sizes only mean the same across RSA and DSA; an EC key's bits are its curve's.
const SIZED_KEYS = new Set(['RSA', 'DSA']);

/** The rank of a TLS version (-1 when unknown), for ordered comparisons. */
export function tlsVersionRank(version: string | null | undefined): number {
  return TLS_VERSIONS.indexOf(version as (typeof TLS_VERSIONS)[number]);
}

/**
 * The findings of one handshake: expired or not yet valid, expiring within alertDaysBeforeExpiry,
 * self-signed or untrusted (only informative with skipChainValidation), hostname mismatch, and
 * the security baseline's rules (a protocol or key below the minimum, a weak signature or cipher,
 * older protocols still accepted) at the severity the baseline gives them.
 */
export function sslFindings(h: SslHandshakeFacts, settings: SslFindingSettings): SslFinding[] {
  const out: SslFinding[] = [];
  const leaf = h.leaf;
  if (leaf) {
    const days = leaf.daysUntilExpiry;
    if (days < 0) out.push({ code: 'SSL_CERT_EXPIRED', severity: 'fail', message: `the certificate expired ${-days} day(s) ago (${leaf.validTo})` });
    else if (days < settings.alertDaysBeforeExpiry) {
      out.push({ code: 'SSL_CERT_EXPIRING', severity: 'fail', message: `the certificate expires in ${days} day(s) (${leaf.validTo}), within alertDaysBeforeExpiry (${settings.alertDaysBeforeExpiry})` });
    }
    if (Date.parse(leaf.validFrom) > Date.now()) out.push({ code: 'SSL_CERT_NOT_YET_VALID', severity: 'fail', message: `the certificate is valid only from ${leaf.validFrom}` });
    const chainSeverity = settings.skipChainValidation ? 'info' : 'fail';
    if (leaf.selfSigned) out.push({ code: 'SSL_SELF_SIGNED', severity: chainSeverity, message: 'the certificate is self-signed' });
    if (!h.chainTrusted) {
      out.push({ code: 'SSL_CHAIN_UNTRUSTED', severity: chainSeverity, message: `the certificate chain is not trusted${h.chainError ? ` (${h.chainError})` : ''}` });
    }
  }
  if (!h.hostnameVerified) out.push({ code: 'SSL_HOSTNAME_MISMATCH', severity: 'fail', message: h.hostnameError ?? 'the certificate does not name the host' });
  out.push(...baselineFindings(h, settings.securityBaseline));
  return out;
}

function baselineFindings(h: SslHandshakeFacts, given: SslBaseline | null): SslFinding[] {
  if (given?.enabled === false) return [];
  const rule = <K extends keyof typeof DEFAULT_SSL_BASELINE>(key: K) => ({ ...DEFAULT_SSL_BASELINE[key], ...stripNulls(given?.[key]) });
  const out: SslFinding[] = [];
  const add = (severity: BaselineSeverity, code: string, message: string) => {
    if (severity !== 'ignore') out.push({ code, severity, message });
  };
  const minTls = rule('minTLSVersion');
  if (h.protocol && tlsVersionRank(h.protocol) < tlsVersionRank(String(minTls.value))) {
    add(minTls.severity as BaselineSeverity, 'SSL_WEAK_PROTOCOL', `the server negotiated ${h.protocol}, below ${minTls.value}`);
  }
  const recommendedTls = rule('recommendedTLSVersion');
  if (h.protocol && tlsVersionRank(h.protocol) < tlsVersionRank(String(recommendedTls.value))) {
    add(recommendedTls.severity as BaselineSeverity, 'SSL_BELOW_RECOMMENDED_PROTOCOL', `the server negotiated ${h.protocol}, below the recommended ${recommendedTls.value}`);
  }
  if (h.legacyProtocolsOffered && h.legacyProtocolsOffered.length > 0) {
    add('degrade', 'SSL_WEAK_PROTOCOL_OFFERED', `the server still accepts ${h.legacyProtocolsOffered.join(' and ')}`);
  }
  const leaf = h.leaf;
  if (leaf && leaf.keyAlgorithm && SIZED_KEYS.has(leaf.keyAlgorithm) && leaf.keySizeBits !== null) {
    const min = rule('minKeySizeBits');
    const recommended = rule('recommendedKeySizeBits');
    if (leaf.keySizeBits < Number(min.value)) add(min.severity as BaselineSeverity, 'SSL_WEAK_KEY', `the ${leaf.keyAlgorithm} key has ${leaf.keySizeBits} bits, below ${min.value}`);
    else if (leaf.keySizeBits < Number(recommended.value)) {
      add(recommended.severity as BaselineSeverity, 'SSL_BELOW_RECOMMENDED_KEY', `the ${leaf.keyAlgorithm} key has ${leaf.keySizeBits} bits, below the recommended ${recommended.value}`);
    }
  }
  if (leaf?.signatureAlgorithm && WEAK_SIGNATURE.test(leaf.signatureAlgorithm)) {
    add(rule('weakSignatureAlgorithm').severity as BaselineSeverity, 'SSL_WEAK_SIGNATURE', `the certificate is signed with ${leaf.signatureAlgorithm}`);
  }
  if (h.cipherSuite && WEAK_CIPHER.test(h.cipherSuite)) {
    add(rule('weakCipherSuite').severity as BaselineSeverity, 'SSL_WEAK_CIPHER', `the server negotiated the weak cipher suite ${h.cipherSuite}`);
  }
  return out;
}

function stripNulls(o: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v != null));
}
