import { describe, expect, it } from 'vitest';
import { interpolateVariables, variableValues } from '../../src/runner/interpolate-variables.js';
import { createScrubber, SCRUBBED, scrubDeep, secretValues } from '../../src/domain/scrub-secrets.js';

describe('interpolateVariables', () => {
  const values = variableValues([
    { key: 'HOST', value: 'example.com' },
    { key: 'TOKEN', value: 'first' },
    { key: 'TOKEN', value: 'second' },
    { key: 'LOOP', value: '{{HOST}}' },
  ]);

  it.each([
    ['https://{{HOST}}/a', 'https://example.com/a'],
    ['{{ HOST }} and {{HOST}}', 'example.com and example.com'],
    ['{{TOKEN}}', 'second'],
    ['{{UNKNOWN}} stays', '{{UNKNOWN}} stays'],
    ['{{LOOP}}', '{{HOST}}'],
    ['no placeholders', 'no placeholders'],
    ['{{not valid-name}}', '{{not valid-name}}'],
  ])('turns %j into %j', (text, expected) => {
    expect(interpolateVariables(text, values)).toBe(expected);
  });

  it('fills the dynamic placeholders with fresh values', () => {
    const out = interpolateVariables('{{$UUID}} {{$RANDOM_NUMBER}} {{$UNIX_TIMESTAMP}} {{$ISO_TIMESTAMP}}', values);
    const [uuid, random, unix, iso] = out.split(' ');
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(random).toMatch(/^\d+$/);
    expect(unix).toMatch(/^\d{10}$/);
    expect(Number.isNaN(Date.parse(iso ?? ''))).toBe(false);
  });
});

describe('secret scrubbing', () => {
  const secret = 'p@ss w/rd+1';
  const scrub = createScrubber([secret, 'p@ss']);

  it.each([
    ['raw', `value ${secret} end`],
    ['percent-encoded', `?t=${encodeURIComponent(secret)}&x`],
    ['form-encoded', `t=${new URLSearchParams({ s: secret }).toString().slice(2)}`],
    ['base64', `Bearer ${Buffer.from(secret).toString('base64')}`],
    ['base64url', `jwt.${Buffer.from(secret).toString('base64url')}.sig`],
  ])('replaces the %s form of a secret', (_form, text) => {
    const out = scrub(text);
    expect(out).toContain(SCRUBBED);
    expect(out).not.toContain('p@ss');
    expect(out).not.toContain(Buffer.from(secret).toString('base64'));
  });

  it('replaces a secret escaped inside a JSON string', () => {
    const quoted = 'say "hi"\n';
    expect(createScrubber([quoted])(JSON.stringify({ a: quoted }))).toBe(`{"a":"${SCRUBBED}"}`);
  });

  it('hides the longer secret whole before a shorter one inside it', () => {
    expect(scrub(`${secret}`)).toBe(SCRUBBED);
  });

  it('treats regular expression characters in secrets literally', () => {
    expect(createScrubber(['a.b*c'])('a.b*c axbbc')).toBe(`${SCRUBBED} axbbc`);
  });

  it('keeps text unchanged when there are no secrets', () => {
    expect(createScrubber([])('anything')).toBe('anything');
    expect(createScrubber([''])('anything')).toBe('anything');
  });

  it('collects only non-empty secret variable values', () => {
    expect(secretValues([
      { key: 'A', value: 'shown', secret: false },
      { key: 'B', value: 'hidden', secret: true },
      { key: 'C', value: '', secret: true },
    ])).toEqual(['hidden']);
  });

  it('scrubs every string of a nested value, keys included, and keeps other values', () => {
    const at = new Date(0);
    const value = { list: ['x p@ss', 1, null, true], [`k-${secret}`]: { at, n: 2 } };
    expect(scrubDeep(value, scrub)).toEqual({ list: [`x ${SCRUBBED}`, 1, null, true], [`k-${SCRUBBED}`]: { at, n: 2 } });
  });
});
