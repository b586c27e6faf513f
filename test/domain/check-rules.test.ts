import { describe, expect, it } from 'vitest';
import { checkRuleIssues, frequencyOffsetProblem, isRequestUrl, maxFrequencyOffset } from '../../src/domain/check-rules.js';
import { withCheckDefaults } from '../../src/domain/check-defaults.js';

const api = (extra: Record<string, unknown> = {}) =>
  withCheckDefaults('API', { name: 'x', request: { url: 'https://example.com' }, ...extra }, 'http://localhost:4000');

describe('frequencyOffset rules', () => {
  it.each([
    [0, 10, true], [0, 20, true], [0, 30, true], [0, 15, false], [0, null, false],
    [1, 1, true], [1, 10, true], [1, 11, false], [5, 50, true], [5, 51, false],
    [60, 600, true], [60, 601, false], [120, 2, true], [120, 3, false], [720, 12, true], [720, 13, false],
    [1440, 24, true], [1440, 25, false], [10, null, true],
  ])('frequency %i with offset %s is allowed: %s', (frequency, offset, ok) => {
    expect(frequencyOffsetProblem(frequency, offset) === undefined).toBe(ok);
  });

  it.each([[1, 10], [5, 50], [60, 600], [61, 2], [720, 12], [1440, 24]])(
    'the largest offset for frequency %i is %i',
    (frequency, max) => expect(maxFrequencyOffset(frequency)).toBe(max),
  );
});

describe('check rules', () => {
  it('accepts a complete API check with defaults', () => {
    expect(checkRuleIssues('API', api())).toEqual([]);
  });

  it.each([
    ['a frequency outside the set', { frequency: 3 }, 'frequency'],
    ['a sub-minute frequency without an offset', { frequency: 0 }, 'frequencyOffset'],
    ['an offset too large for the frequency', { frequency: 5, frequencyOffset: 51 }, 'frequencyOffset'],
    ['a degraded time above the ceiling', { degradedResponseTime: 30001, maxResponseTime: 30000 }, 'degradedResponseTime'],
    ['a degraded time above the max time', { degradedResponseTime: 9000, maxResponseTime: 8000 }, 'degradedResponseTime'],
    ['duplicated variable keys', { environmentVariables: [{ key: 'A', value: '1' }, { key: 'A', value: '2' }] }, 'environmentVariables.1.key'],
    ['a URL that is not http', { request: { url: 'ftp://example.com' } }, 'request.url'],
    ['an assertion regex that does not compile', { request: { url: 'https://x.test', assertions: [{ source: 'TEXT_BODY', comparison: 'CONTAINS', regex: '(' }] } }, 'request.assertions.0.regex'],
    ['a LESS_THAN assertion whose target is not a number', { request: { url: 'https://x.test', assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }, { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: 'fast' }] } }, 'request.assertions.1.target'],
    ['a GREATER_THAN assertion without a target', { request: { url: 'https://x.test', assertions: [{ source: 'JSON_BODY', property: '$.count', comparison: 'GREATER_THAN', target: '' }] } }, 'request.assertions.0.target'],
    ['a JSON body that is not JSON', { request: { url: 'https://x.test', bodyType: 'JSON', body: '{nope' } }, 'request.body'],
  ])('rejects %s', (_name, extra, key) => {
    expect(checkRuleIssues('API', api(extra)).map((i) => i.key)).toContain(key);
  });

  it.each([['2000'], [' 1.5e3 '], ['-1'], ['{{MAX_MS}}']])('accepts the ordering target %j (a number, or a variable filled in at run time)', (target) => {
    const assertions = [{ source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target }, { source: 'JSON_BODY', property: '$.n', comparison: 'GREATER_THAN', target }];
    expect(checkRuleIssues('API', api({ request: { url: 'https://x.test', assertions } }))).toEqual([]);
  });

  it('accepts a check with no location at all: it is idle (see idle-reason.ts), not invalid', () => {
    expect(checkRuleIssues('API', api({ locations: [], privateLocations: [] }))).toEqual([]);
  });

  it('allows frequency 0 for TCP checks but not for browser checks', () => {
    const tcp = withCheckDefaults('TCP', { name: 't', frequency: 0, frequencyOffset: 10, request: { hostname: 'h', port: 1 } }, '');
    const browser = withCheckDefaults('BROWSER', { name: 'b', frequency: 0, frequencyOffset: 10, script: '' }, '');
    expect(checkRuleIssues('TCP', tcp)).toEqual([]);
    expect(checkRuleIssues('BROWSER', browser).map((i) => i.key)).toEqual(['frequency']);
  });

  it('keeps a heartbeat period between 30 seconds and 365 days', () => {
    const hb = (period: number, periodUnit: string) =>
      checkRuleIssues('HEARTBEAT', withCheckDefaults('HEARTBEAT', { name: 'h', heartbeat: { period, periodUnit, grace: 0, graceUnit: 'seconds' } }, ''));
    expect(hb(29, 'seconds').map((i) => i.key)).toEqual(['heartbeat.period']);
    expect(hb(30, 'seconds')).toEqual([]);
    expect(hb(366, 'days').map((i) => i.key)).toEqual(['heartbeat.period']);
  });

  it.each([
    ['https://example.com/a?b=1', true], ['http://127.0.0.1:8080', true], ['{{BASE}}/health', true],
    ['example.com', false], ['mailto:a@b.c', false], ['', false],
  ])('treats %j as a request URL: %s', (url, ok) => expect(isRequestUrl(url)).toBe(ok));
});
