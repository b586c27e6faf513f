import { describe, expect, it } from 'vitest';
import { distinctSubscriptions, subscriptionAddressKey, subscriptionAddressProblem } from '../../src/domain/status-page-subscription-issues.js';

describe('subscriptionAddressProblem', () => {
  it.each(['ops@example.com', 'first.last+tag@mail.example.co.uk', "o'brien@example.com", 'x@a.b'])('accepts the email address %s', (address) => {
    expect(subscriptionAddressProblem('EMAIL', address)).toBeUndefined();
  });
  it.each([
    '', 'ops', 'ops@', '@example.com', 'ops@localhost', 'ops@@example.com', 'Ops <ops@example.com>', 'ops@example.com,boss@example.com',
    'ops@example.com\r\nBcc: x@example.com', ' ops@example.com', 'a..b@example.com', '.a@example.com', 'ops@-example.com', 'ops@example..com',
    `${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(63)}.com`,
  ])('refuses %j as an email address', (address) => {
    expect(subscriptionAddressProblem('EMAIL', address)).toContain('email address');
  });
  it('accepts http and https URLs as webhooks, nothing else', () => {
    expect(subscriptionAddressProblem('WEBHOOK', 'https://hooks.example/status?x=1')).toBeUndefined();
    expect(subscriptionAddressProblem('WEBHOOK', 'http://127.0.0.1:8080/hook')).toBeUndefined();
    for (const url of ['hooks.example/x', 'ftp://hooks.example/x', 'ops@example.com', 'mailto:ops@example.com', '']) {
      expect(subscriptionAddressProblem('WEBHOOK', url), url).toEqual(expect.stringContaining('URL'));
    }
  });
});

describe('distinctSubscriptions', () => {
  it('keeps the first spelling of an address sent twice, comparing emails without case and URLs as parsed', () => {
    expect(subscriptionAddressKey('EMAIL', 'Ops@Example.COM')).toBe('ops@example.com');
    expect(subscriptionAddressKey('WEBHOOK', 'HTTPS://Hooks.Example:443/a')).toBe('https://hooks.example/a');
    const { issues, subscriptions } = distinctSubscriptions([
      { type: 'EMAIL', config: 'Ops@example.com' },
      { type: 'EMAIL', config: 'ops@EXAMPLE.com' },
      { type: 'WEBHOOK', config: 'https://hooks.example/a' },
      { type: 'WEBHOOK', config: 'HTTPS://hooks.example:443/a' },
      { type: 'EMAIL', config: 'dev@example.com' },
    ]);
    expect(issues).toEqual([]);
    expect(subscriptions).toEqual([
      { type: 'EMAIL', address: 'Ops@example.com', key: 'ops@example.com' },
      { type: 'WEBHOOK', address: 'https://hooks.example/a', key: 'https://hooks.example/a' },
      { type: 'EMAIL', address: 'dev@example.com', key: 'dev@example.com' },
    ]);
  });
  it('names every entry that is no address of its type, and then keeps none', () => {
    const { issues, subscriptions } = distinctSubscriptions([
      { type: 'EMAIL', config: 'ok@example.com' }, { type: 'EMAIL', config: 'nope' }, { type: 'WEBHOOK', config: 'ops@example.com' },
    ]);
    expect(issues.map((i) => i.key)).toEqual(['subscriptions.1.config', 'subscriptions.2.config']);
    expect(issues[1]!.message).toContain('(type WEBHOOK)');
    expect(subscriptions).toEqual([]);
  });
});
