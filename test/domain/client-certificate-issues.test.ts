import { beforeAll, describe, expect, it } from 'vitest';
import { clientCertificateIssues, type ClientCertificateInput } from '../../src/domain/client-certificate-issues.js';
import { createTestCa, type Pem, type TestCa } from '../support/mtls-target.js';

describe('whether a client certificate can be presented', () => {
  let ca: TestCa;
  let plain: Pem;
  let encrypted: Pem;
  let other: Pem;
  beforeAll(async () => {
    ca = await createTestCa();
    [plain, encrypted, other] = await Promise.all([ca.issueClient('plain'), ca.issueClient('encrypted', 'open sesame'), ca.issueClient('other')]);
  });

  const valid = (): ClientCertificateInput => ({ host: 'api.example.com', cert: plain.cert, key: plain.key });

  it('finds nothing wrong with a certificate and its own key', () => {
    expect(clientCertificateIssues(valid())).toEqual([]);
    expect(clientCertificateIssues({ ...valid(), ca: ca.cert })).toEqual([]);
    expect(clientCertificateIssues({ ...valid(), ca: `${ca.cert}\n${other.cert}` })).toEqual([]);
  });

  it('opens an encrypted key with its passphrase', () => {
    expect(clientCertificateIssues({ host: '*.example.com', cert: encrypted.cert, key: encrypted.key, passphrase: 'open sesame' })).toEqual([]);
  });

  it.each<[string, (input: ClientCertificateInput) => ClientCertificateInput, string[]]>([
    ['a URL as host', (i) => ({ ...i, host: 'https://api.example.com' }), ['host']],
    ['a certificate that is not PEM', (i) => ({ ...i, cert: 'not a certificate' }), ['cert']],
    ['the key given as certificate', (i) => ({ ...i, cert: i.key }), ['cert']],
    ['a key that is not PEM', (i) => ({ ...i, key: 'not a key' }), ['key']],
    ['the key of another certificate', (i) => ({ ...i, key: other.key }), ['key']],
    ['an encrypted key without passphrase', () => ({ host: 'a.example', cert: encrypted.cert, key: encrypted.key }), ['passphrase']],
    ['an encrypted key with the wrong passphrase', () => ({ host: 'a.example', cert: encrypted.cert, key: encrypted.key, passphrase: 'wrong' }), ['passphrase']],
    ['a CA that is not PEM', (i) => ({ ...i, ca: 'not a CA' }), ['ca']],
    ['a CA bundle with a broken certificate', (i) => ({ ...i, ca: `${ca.cert}\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----` }), ['ca']],
    ['everything wrong at once', () => ({ host: 'a b', cert: 'x', key: 'y', ca: 'z' }), ['host', 'cert', 'key', 'ca']],
  ])('refuses %s, naming the key', (_name, change, keys) => {
    expect(clientCertificateIssues(change(valid())).map((i) => i.key)).toEqual(keys);
  });

  it('never quotes the key or the passphrase in its messages', () => {
    const issues = [
      ...clientCertificateIssues({ host: 'a.example', cert: encrypted.cert, key: encrypted.key, passphrase: 'wrong-passphrase-123' }),
      ...clientCertificateIssues({ host: 'a.example', cert: plain.cert, key: other.key }),
    ];
    const text = JSON.stringify(issues);
    expect(text).not.toContain('wrong-passphrase-123');
    for (const line of [...encrypted.key.split('\n'), ...other.key.split('\n')].filter((l) => l && !l.startsWith('-----'))) {
      expect(text).not.toContain(line);
    }
  });
});
