import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanErrorMessage, errorHash } from '../../src/domain/clean-error-message.js';

describe('cleaning error messages', () => {
  it.each([
    ['an ISO timestamp', 'failed at 2024-05-01T12:34:56.789Z', 'failed at <timestamp>'],
    ['a timestamp with an offset', 'at 2024-05-01T12:34:56+02:00 done', 'at <timestamp> done'],
    ['a timestamp with a space', 'logged 2024-05-01 12:34:56 here', 'logged <timestamp> here'],
    ['a bare date', 'expired on 2024-05-01.', 'expired on <date>.'],
    ['a time of day', 'at 09:15:02 the job', 'at <time> the job'],
    ['a UUID', 'check 3f2b8c1e-9d4a-4e7b-8f6a-1c2d3e4f5a6b not found', 'check <uuid> not found'],
    ['an upper-case UUID', 'id 3F2B8C1E-9D4A-4E7B-8F6A-1C2D3E4F5A6B', 'id <uuid>'],
    ['a hex hash', 'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 failed', 'commit <hex> failed'],
    ['an 8-character hex id', 'trace 0a1b2c3d lost', 'trace <hex> lost'],
    ['a 0x number', 'segfault at 0x7ffe', 'segfault at <hex>'],
    ['an IPv4 address and port', 'connect ECONNREFUSED 127.0.0.1:5432', 'connect ECONNREFUSED <ip>:<port>'],
    ['an IPv4 address alone', 'host 10.0.12.7 unreachable', 'host <ip> unreachable'],
    ['an IPv6 address', 'connect ECONNREFUSED 2001:db8:85a3::8a2e:370:7334', 'connect ECONNREFUSED <ip>'],
    ['an IPv6 loopback with port', 'connect ECONNREFUSED [::1]:8080', 'connect ECONNREFUSED [<ip>]:<port>'],
    ['an IPv4-mapped IPv6 address', 'from ::ffff:192.0.2.1 denied', 'from <ip> denied'],
    ['a query string of a URL', 'GET https://api.example.com/v1/items?page=2&token=abc failed', 'GET https://api.example.com/v<n>/items?<query> failed'],
    ['a duration in ms', 'Timeout of 30000ms exceeded', 'Timeout of <duration> exceeded'],
    ['a duration with a space and unit word', 'took 1.5 seconds', 'took <duration>'],
    ['a quoted id', 'user "a8f3k2x" has no access', 'user "<id>" has no access'],
    ['a single-quoted id', "session 'req_91x' expired", "session '<id>' expired"],
    ['other numbers', 'Expected 3 items but got 4', 'Expected <n> items but got <n>'],
    ['digits glued to a name', 'job_8412 failed on attempt3', 'job_<n> failed on attempt<n>'],
    ['whitespace runs', '  line one\n\n\tline   two  ', 'line one line two'],
  ])('replaces %s', (_name, raw, cleaned) => {
    expect(cleanErrorMessage(raw)).toBe(cleaned);
  });

  it.each([
    ['plain words that happen to be hex letters', 'the deadbeef decoded value was accepted'],
    ['a quoted selector without digits', 'waiting for selector "#submit-button" failed'],
    ['C++-style names', 'Error::NotFound in Foo::bar'],
    ['an error code', 'ECONNRESET: socket hang up'],
  ])('keeps %s', (_name, raw) => {
    expect(cleanErrorMessage(raw)).toBe(raw);
  });

  it.each([
    ['a long URL path', `http://a/${'b'.repeat(100_000)}?x=1`, `http://a/${'b'.repeat(100_000)}?<query>`],
    ['many URL-like pieces', 'a://'.repeat(30_000), 'a://'.repeat(30_000)],
    ['a long run of hex letters', `${'ab'.repeat(50_000)}x`, `${'ab'.repeat(50_000)}x`],
  ])('cleans %s of 100 000 characters in one pass', (_name, raw, cleaned) => {
    expect(cleanErrorMessage(raw)).toBe(cleaned);
  });

  it('keeps the fragment of a URL and cleans the query of a second URL in the same word', () => {
    expect(cleanErrorMessage('https://a.test/x?y=z#top,https://b.test/?q=w')).toBe('https://a.test/x?<query>#top,https://b.test/?<query>');
    expect(cleanErrorMessage('https://a.test/x#frag?not-a-query')).toBe('https://a.test/x#frag?not-a-query');
  });

  it('cleans the empty string to the empty string', () => {
    expect(cleanErrorMessage('')).toBe('');
  });
});

describe('error hashes', () => {
  it.each([
    ['connect ECONNREFUSED 127.0.0.1:5432', 'connect ECONNREFUSED 10.1.2.3:6543'],
    ['Timeout of 30000ms exceeded at 2024-05-01T12:00:00Z', 'Timeout of 5000ms exceeded at 2025-01-09T08:30:00.120Z'],
    ['check 3f2b8c1e-9d4a-4e7b-8f6a-1c2d3e4f5a6b: expected 200 got 503', 'check 11111111-2222-4333-8444-555555555555: expected 200 got 502'],
    ['GET https://x.test/a?sig=1 failed after 3 retries', 'GET https://x.test/a?sig=zz&t=9 failed after 2 retries'],
    ['user "u1x9" not found (trace 0a1b2c3d4e)', 'user "u7q2" not found (trace ffee99887766)'],
    ['connect ECONNREFUSED [::1]:80', 'connect ECONNREFUSED [fe80::1ff:fe23:4567:890a]:443'],
    ['  spaced\nout ', 'spaced out'],
  ])('groups "%s" with "%s"', (one, other) => {
    expect(errorHash(cleanErrorMessage(one))).toBe(errorHash(cleanErrorMessage(other)));
  });

  it.each([
    ['connect ECONNREFUSED 127.0.0.1:5432', 'connect ETIMEDOUT 127.0.0.1:5432'],
    ['GET https://x.test/a failed', 'GET https://x.test/b failed'],
    ['expected JSON_BODY $.status to equal "ok"', 'expected JSON_BODY $.state to equal "ok"'],
    ['Element not found: #login', 'Element not found: #logout'],
  ])('tells "%s" from "%s"', (one, other) => {
    expect(errorHash(cleanErrorMessage(one))).not.toBe(errorHash(cleanErrorMessage(other)));
  });

  it('is the hex SHA-256 of the cleaned message', () => {
    expect(errorHash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(errorHash('x')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('cleaning properties', () => {
  /** Strings dense in the characters the rules look at, so the rules interact. */
  const volatile = fc.stringMatching(/^[0-9a-fA-F:.\-TZ+ x"'`<>[\]?&=/\n\tmsuµnhpt]{0,60}$/);
  const pieces = fc.array(fc.oneof(
    fc.constantFrom('2024-05-01T12:34:56Z', '127.0.0.1:80', '::1', '[::1]:8080', 'https://h.test/p?q=1', '30000ms', '"ab12"',
      '0xff', '9fceb02d0ae5', '3f2b8c1e-9d4a-4e7b-8f6a-1c2d3e4f5a6b', '12:30', '<n>', '<ip>', 'a:b:c', ' ', ':', '.'),
    fc.string({ maxLength: 5 }),
    fc.integer().map(String),
  ), { maxLength: 12 }).map((parts) => parts.join(''));

  it('is idempotent on arbitrary strings', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), volatile, pieces), (raw) => {
      const once = cleanErrorMessage(raw);
      expect(cleanErrorMessage(once)).toBe(once);
    }), { numRuns: 3000 });
  });

  it('never throws and leaves no digits behind', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), volatile, pieces), (raw) => {
      expect(cleanErrorMessage(raw)).not.toMatch(/\d/);
    }), { numRuns: 2000 });
  });
});
