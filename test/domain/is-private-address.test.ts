import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/domain/is-private-address.js';
import { privateWebhookIssues } from '../../src/domain/private-webhook-issues.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '::1', '[::1]', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', '::ffff:127.0.0.1', '::ffff:7f00:1',
    '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', 'ff02::1',
  ])('counts %s as private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', 'example.com', 'localhost'])('counts %s as public (names are checked once resolved)', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('privateWebhookIssues', () => {
  it('names each webhook written as a private address or localhost, leaving emails and public hosts alone', () => {
    expect(privateWebhookIssues([
      { type: 'WEBHOOK', config: 'https://hooks.example.com/x' },
      { type: 'WEBHOOK', config: 'http://[::1]:8080/x' },
      { type: 'EMAIL', config: 'ops@127.0.0.1' },
      { type: 'WEBHOOK', config: 'http://api.localhost/x' },
      { type: 'WEBHOOK', config: 'not a url' },
    ]).map((i) => i.key)).toEqual(['subscriptions.1.config', 'subscriptions.3.config']);
  });
});
