import { X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { certificateSignatureAlgorithm } from '../../src/domain/certificate-signature-algorithm.js';
import { sslFindings, type SslCertificateFacts, type SslFindingSettings, type SslHandshakeFacts } from '../../src/domain/ssl-findings.js';

const leaf = (over: Partial<SslCertificateFacts> = {}): SslCertificateFacts => ({
  subject: 'CN=shop.example', subjectCN: 'shop.example', issuer: 'CN=Example CA', issuerCN: 'Example CA', sans: ['shop.example'],
  validFrom: '2020-01-01T00:00:00.000Z', validTo: '2099-01-01T00:00:00.000Z', daysUntilExpiry: 300, serialNumber: '01',
  fingerprintSha256: 'AA', issuerFingerprintSha256: 'BB', keyAlgorithm: 'RSA', keySizeBits: 2048, signatureAlgorithm: 'SHA256-RSA',
  selfSigned: false, isCA: false, ...over,
});
const handshake = (over: Partial<SslHandshakeFacts> = {}): SslHandshakeFacts => ({
  protocol: 'TLS1.3', cipherSuite: 'TLS_AES_256_GCM_SHA384', chainTrusted: true, chainError: null, hostnameVerified: true, hostnameError: null,
  legacyProtocolsOffered: [], leaf: leaf(), ...over,
});
const settings: SslFindingSettings = { alertDaysBeforeExpiry: 20, skipChainValidation: false, securityBaseline: null };
const found = (h: SslHandshakeFacts, s = settings) => sslFindings(h, s).map((f) => [f.code, f.severity]);

describe('sslFindings', () => {
  it('finds nothing on a current, trusted, well-configured server', () => {
    expect(found(handshake())).toEqual([]);
  });

  it('applies the default baseline: weak key and signature fail, weak cipher degrades, TLS 1.1 fails', () => {
    expect(found(handshake({ leaf: leaf({ keySizeBits: 1024, signatureAlgorithm: 'SHA1-RSA' }) }))).toEqual([['SSL_WEAK_KEY', 'fail'], ['SSL_WEAK_SIGNATURE', 'fail']]);
    expect(found(handshake({ protocol: 'TLS1.2', cipherSuite: 'TLS_RSA_WITH_3DES_EDE_CBC_SHA' }))).toEqual([['SSL_WEAK_CIPHER', 'degrade']]);
    expect(found(handshake({ protocol: 'TLS1.1' }))).toEqual([['SSL_WEAK_PROTOCOL', 'fail']]);
  });

  it('lets the monitor\'s baseline change a rule\'s severity or switch the baseline off', () => {
    const weak = handshake({ leaf: leaf({ keySizeBits: 1024 }) });
    expect(found(weak, { ...settings, securityBaseline: { minKeySizeBits: { severity: 'degrade' } } })).toEqual([['SSL_WEAK_KEY', 'degrade']]);
    expect(found(weak, { ...settings, securityBaseline: { enabled: false } })).toEqual([]);
    expect(found(handshake({ protocol: 'TLS1.2' }), { ...settings, securityBaseline: { recommendedTLSVersion: { severity: 'degrade' } } }))
      .toEqual([['SSL_BELOW_RECOMMENDED_PROTOCOL', 'degrade']]);
  });

  it('does not hold an EC key to RSA key sizes', () => {
    expect(found(handshake({ leaf: leaf({ keyAlgorithm: 'ECDSA', keySizeBits: 256, signatureAlgorithm: 'ECDSA-SHA256' }) }))).toEqual([]);
  });
});

describe('certificateSignatureAlgorithm', () => {
  it('names RSA and ECDSA signatures as Go does, and answers null for bytes that are no certificate', async () => {
    for (const [keyType, name] of [['rsa', 'SHA256-RSA'], ['ec', 'ECDSA-SHA256']] as const) {
      const pems = await generate([{ name: 'commonName', value: 'x' }], { keyType, keySize: 2048, algorithm: 'sha256' });
      expect(certificateSignatureAlgorithm(new X509Certificate(pems.cert).raw)).toBe(name);
    }
    expect(certificateSignatureAlgorithm(new Uint8Array([0x30, 0x03, 0x02, 0x01]))).toBeNull();
    expect(certificateSignatureAlgorithm(new Uint8Array([]))).toBeNull();
  });
});
