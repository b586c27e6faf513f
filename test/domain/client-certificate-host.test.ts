import { describe, expect, it } from 'vitest';
import { matchClientCertificate, toClientCertificateHost } from '../../src/domain/client-certificate-host.js';

describe('the host of a client certificate', () => {
  it.each([
    ['api.example.com', 'api.example.com'],
    ['API.Example.COM.', 'api.example.com'],
    ['  localhost ', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['*.example.com', '*.example.com'],
    ['*.EXAMPLE.com', '*.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['under_score.example', 'under_score.example'],
  ])('keeps %j as %j', (input, stored) => {
    expect(toClientCertificateHost(input)).toBe(stored);
  });

  it.each([
    ['https://api.example.com'],
    ['api.example.com:443'],
    ['api.example.com/path'],
    ['*'],
    ['*.'],
    ['a.*.example.com'],
    ['api*.example.com'],
    ['-leading.example.com'],
    ['double..dot.example'],
    [''],
    [`${'a'.repeat(64)}.example`],
    [`${'a.'.repeat(127)}com`],
  ])('refuses %j', (input) => {
    expect(toClientCertificateHost(input)).toBeNull();
  });
});

describe('choosing the client certificate for a connection', () => {
  const certs = [
    { host: '*.example.com', name: 'wildcard' },
    { host: '*.eu.example.com', name: 'eu wildcard' },
    { host: 'api.example.com', name: 'exact' },
    { host: '127.0.0.1', name: 'loopback' },
    { host: '::1', name: 'loopback v6' },
    { host: 'localhost', name: 'localhost' },
  ];

  it.each([
    ['api.example.com', 'exact'],
    ['API.EXAMPLE.COM', 'exact'],
    ['api.example.com.', 'exact'],
    ['www.example.com', 'wildcard'],
    ['deep.www.example.com', 'wildcard'],
    ['api.eu.example.com', 'eu wildcard'],
    ['127.0.0.1', 'loopback'],
    ['[::1]', 'loopback v6'],
    ['localhost', 'localhost'],
    ['example.com', undefined],
    ['notexample.com', undefined],
    ['example.com.evil.test', undefined],
    ['127.0.0.2', undefined],
  ])('presents to %j the certificate %j', (hostname, expected) => {
    expect(matchClientCertificate(certs, hostname)?.name).toBe(expected);
  });

  it('never matches an IP address with a wildcard', () => {
    expect(matchClientCertificate([{ host: '*.0.0.1' }], '127.0.0.1')).toBeUndefined();
  });

  it('presents nothing when the account has no certificates', () => {
    expect(matchClientCertificate([], 'api.example.com')).toBeUndefined();
  });
});
