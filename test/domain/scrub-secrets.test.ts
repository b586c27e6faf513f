import { domainToASCII } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createScrubber, MIN_BASE64_PIECE, SCRUBBED, scrubDeep, secretValues } from '../../src/domain/scrub-secrets.js';

const SECRET = 'Tr0ub4dor&3 Xy/+z';
const HOST = 'MyPrivateHost';
const UNICODE = 'Bücher-Straße';
const QUOTED = 'say "hi"\n';
const scrub = createScrubber([SECRET, HOST, UNICODE, QUOTED]);

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const formEncoded = (text: string) => new URLSearchParams({ s: text }).toString().slice(2);
const swapCase = (text: string) => [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

describe('scrubbing a secret in the forms it takes', () => {
  it.each<[string, string]>([
    ['as written', SECRET],
    ['lower-cased', SECRET.toLowerCase()],
    ['upper-cased', SECRET.toUpperCase()],
    ['in swapped case', swapCase(SECRET)],
    ['as a lower-cased host name', HOST.toLowerCase()],
    ['as an upper-cased host name', HOST.toUpperCase()],
    ['percent-encoded with encodeURIComponent', encodeURIComponent(SECRET)],
    ['percent-encoded with lower-case hex digits', encodeURIComponent(SECRET).toLowerCase()],
    ['percent-encoded with encodeURI', encodeURI(SECRET)],
    ['form-encoded, spaces as +', formEncoded(SECRET)],
    ['in a URL path, as the URL class writes it', new URL(`http://h/${SECRET}`).pathname.slice(1)],
    ['in a URL query, as the URL class writes it', new URL(`http://h/?${SECRET}`).search.slice(1)],
    ['as a URL password, as the URL class writes it', (() => {
      const u = new URL('http://h/');
      u.password = SECRET;
      return u.password;
    })()],
    ['escaped inside a JSON string', JSON.stringify(QUOTED).slice(1, -1)],
    ['with non-ASCII characters, as written', UNICODE],
    ['with non-ASCII characters, upper-cased (ß becomes SS)', UNICODE.toUpperCase()],
    ['with non-ASCII characters, percent-encoded', encodeURIComponent(UNICODE)],
    ['with non-ASCII characters, JSON-escaped as \\u', JSON.stringify(UNICODE).slice(1, -1).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)],
    ['as an IDNA (punycode) host name', domainToASCII(UNICODE)],
    ['base64', base64(SECRET)],
    ['base64 without padding', base64(SECRET).replace(/=+$/, '')],
    ['base64url', base64url(SECRET)],
  ])('replaces it %s', (_form, form) => {
    expect(scrub(`before ${form} after`)).toBe(`before ${SCRUBBED} after`);
  });

  it('replaces every occurrence, however each is written', () => {
    const text = `${SECRET} ${SECRET.toLowerCase()} ${encodeURIComponent(SECRET)} ${base64(SECRET)}`;
    expect(scrub(text)).toBe([SCRUBBED, SCRUBBED, SCRUBBED, SCRUBBED].join(' '));
  });
});

describe('scrubbing a secret inside a longer base64 text', () => {
  // Each prefix puts the secret at another of base64's three byte alignments.
  it.each<[string, string, string, string]>([
    ['at the start', SECRET, '', ':tail'],
    ['after one byte', SECRET, 'u', ''],
    ['after two bytes', SECRET, 'us', '!'],
    ['as the password of HTTP Basic auth', SECRET, 'user:', ''],
    ['as the user of HTTP Basic auth', SECRET, '', ':password'],
    ['of five bytes, after one byte', 'abcde', 'u', 'tail'],
  ])('hides a secret %s and keeps what only the text around it encodes', (_where, secret, before, after) => {
    const encoded = base64(before + secret + after);
    const out = createScrubber([secret])(`Basic ${encoded}`);
    expect(out).toContain(SCRUBBED);
    const [kept, rest] = out.slice('Basic '.length).split(SCRUBBED) as [string, string];
    // What is left either side is at most the characters shared with the neighbouring bytes.
    expect(kept.length).toBeLessThanOrEqual(Math.ceil((before.length * 8) / 6));
    expect(rest.length).toBeLessThanOrEqual(Math.ceil((after.length * 8) / 6) + 3);
    expect(encoded.startsWith(kept)).toBe(true);
    expect(encoded.endsWith(rest)).toBe(true);
  });

  it.each(['', 'u', 'us'])('hides the base64url form after %j too', (before) => {
    const encoded = base64url(`${before}${SECRET}`);
    expect(createScrubber([SECRET])(encoded)).toContain(SCRUBBED);
  });
});

describe('what scrubbing leaves alone', () => {
  it.each<[string, string]>([
    ['a text without the secret', 'GET https://example.com/ answered 200'],
    ['a text with part of the secret', `${SECRET.slice(0, -1)}!`],
    ['the base64 of the secret in another letter case', swapCase(base64(SECRET))],
    ['the base64 of another text', base64('something else entirely')],
    ['an empty text', ''],
  ])('keeps %s', (_what, text) => {
    expect(scrub(text)).toBe(text);
  });

  it('keeps every text when there are no secrets', () => {
    expect(createScrubber([])('anything')).toBe('anything');
    expect(createScrubber([''])('anything')).toBe('anything');
  });

  it(`hides a short secret in any case and as base64, but not by pieces of base64 shorter than ${MIN_BASE64_PIECE} characters`, () => {
    const short = createScrubber(['ab']);
    expect(short('xABx aBx')).toBe(`x${SCRUBBED}x ${SCRUBBED}x`);
    expect(short(base64('ab'))).toBe(SCRUBBED);
    // "user:ab" in base64: the characters carrying only "ab" are too few to match safely.
    expect(short(base64('user:ab'))).toBe(base64('user:ab'));
  });

  it('treats regular expression characters in secrets literally', () => {
    expect(createScrubber(['a.b*c'])('a.b*c axbbc')).toBe(`${SCRUBBED} axbbc`);
  });

  it('hides a longer secret whole before a shorter one it contains', () => {
    expect(createScrubber(['pass', 'password1'])('password1')).toBe(SCRUBBED);
  });

  it('scrubs 100 000 backslashes against a secret of 50 backslashes in one pass', () => {
    const out = createScrubber(['\\'.repeat(50)])(`${'\\'.repeat(100_000)}x`);
    expect(out.endsWith('x')).toBe(true);
    expect(out).not.toContain('\\'.repeat(50));
  });
});

describe('secret values and nested values', () => {
  it('collects only non-empty values of secret variables', () => {
    expect(secretValues([
      { key: 'A', value: 'shown', secret: false },
      { key: 'B', value: 'hidden', secret: true },
      { key: 'C', value: '', secret: true },
      { key: 'D', value: 'unflagged' },
    ])).toEqual(['hidden']);
  });

  it('scrubs every string of a nested value, keys included, and keeps other values', () => {
    const at = new Date(0);
    const value = { list: [`x ${HOST.toLowerCase()}`, 1, null, true], [`k-${HOST}`]: { at, n: 2 } };
    expect(scrubDeep(value, scrub)).toEqual({ list: [`x ${SCRUBBED}`, 1, null, true], [`k-${SCRUBBED}`]: { at, n: 2 } });
  });
});
