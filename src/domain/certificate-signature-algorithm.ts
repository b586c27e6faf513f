/** Signature algorithm OIDs, named as Go's x509 names them (what Checkly's SSL assertions compare). */
const NAMES: Record<string, string> = {
  '1.2.840.113549.1.1.2': 'MD2-RSA',
  '1.2.840.113549.1.1.4': 'MD5-RSA',
  '1.2.840.113549.1.1.5': 'SHA1-RSA',
  '1.2.840.113549.1.1.11': 'SHA256-RSA',
  '1.2.840.113549.1.1.12': 'SHA384-RSA',
  '1.2.840.113549.1.1.13': 'SHA512-RSA',
  '1.2.840.10040.4.3': 'DSA-SHA1',
  '2.16.840.1.101.3.4.3.2': 'DSA-SHA256',
  '1.2.840.10045.4.1': 'ECDSA-SHA1',
  '1.2.840.10045.4.3.2': 'ECDSA-SHA256',
  '1.2.840.10045.4.3.3': 'ECDSA-SHA384',
  '1.2.840.10045.4.3.4': 'ECDSA-SHA512',
  '1.3.101.112': 'Ed25519',
};
const RSA_PSS = '1.2.840.113549.1.1.10';
const PSS_HASHES: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'SHA256-RSAPSS', '2.16.840.1.101.3.4.2.2': 'SHA384-RSAPSS', '2.16.840.1.101.3.4.2.3': 'SHA512-RSAPSS',
};

interface Tlv {
  tag: number;
  start: number;
  end: number;
}

/**
 * The signature algorithm of a DER certificate (`Certificate ::= SEQUENCE { tbsCertificate,
 * signatureAlgorithm, signature }`), named as Go names it (SHA256-RSA, ECDSA-SHA384, Ed25519...);
 * the dotted OID when it has no such name, null when the bytes are not a certificate. Never throws.
 */
export function certificateSignatureAlgorithm(der: Uint8Array): string | null {
  const cert = readTlv(der, 0);
  if (!cert || cert.tag !== 0x30) return null;
  const tbs = readTlv(der, cert.start);
  const algorithm = tbs && readTlv(der, tbs.end);
  const oid = algorithm && algorithm.tag === 0x30 ? readTlv(der, algorithm.start) : null;
  if (!algorithm || !oid || oid.tag !== 0x06) return null;
  const dotted = decodeOid(der.subarray(oid.start, oid.end));
  if (dotted !== RSA_PSS) return NAMES[dotted] ?? dotted;
  // RSASSA-PSS names its hash in the parameters: the first hash OID found there.
  for (let at = oid.end; at < algorithm.end; at++) {
    if (der[at] !== 0x06) continue;
    const inner = readTlv(der, at);
    if (!inner || inner.end > algorithm.end) continue;
    const name = PSS_HASHES[decodeOid(der.subarray(inner.start, inner.end))];
    if (name) return name;
  }
  return 'SHA256-RSAPSS';
}

function readTlv(der: Uint8Array, at: number): Tlv | null {
  if (at + 2 > der.length) return null;
  const tag = der[at]!;
  let length = der[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || start + bytes > der.length) return null;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    start += bytes;
  }
  const end = start + length;
  return end > der.length ? null : { tag, start, end };
}

function decodeOid(bytes: Uint8Array): string {
  if (bytes.length === 0) return '';
  const parts: number[] = [];
  const first = bytes[0]!;
  parts.push(first < 80 ? Math.floor(first / 40) : 2, first < 80 ? first % 40 : first - 80);
  let value = 0;
  for (let i = 1; i < bytes.length; i++) {
    value = value * 128 + (bytes[i]! & 0x7f);
    if (!(bytes[i]! & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}
