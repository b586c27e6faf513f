import { describe, expect, it } from 'vitest';
import { mergeCheckUpdate, stripServerOwnedFields, withCheckDefaults, withRetryDefaults } from '../../src/domain/check-defaults.js';

describe('check defaults', () => {
  it('fills every field of an API check the spec gives a default for', () => {
    const c = withCheckDefaults('API', { name: 'x', request: { url: 'https://a.test' } }, 'http://h');
    expect(c).toMatchObject({
      activated: true, muted: false, doubleCheck: true, shouldFail: false, useGlobalAlertSettings: true,
      frequency: 10, runParallel: false, degradedResponseTime: 5000, maxResponseTime: 20000, retryStrategy: null,
      locations: ['us-east-1'], tags: [], groupId: null,
      request: { method: 'GET', followRedirects: true, skipSSL: false, bodyType: 'NONE', assertions: [] },
      alertSettings: { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, reminders: { amount: 0, interval: 5 } },
    });
  });

  it.each([
    ['TCP', { request: { hostname: 'h', port: 1 } }, 3000, 5000],
    ['DNS', { request: { query: 'a.test' } }, 500, 1000],
  ] as const)('gives %s checks their own response-time limits', (type, extra, degraded, max) => {
    expect(withCheckDefaults(type, { name: 'x', ...extra }, '')).toMatchObject({ degradedResponseTime: degraded, maxResponseTime: max });
  });

  it('leaves locations empty for a check placed in a group', () => {
    expect(withCheckDefaults('API', { name: 'x', groupId: 3, request: { url: 'https://a.test' } }, '').locations).toEqual([]);
  });

  it('gives a heartbeat a ping token and a ping URL under the public URL', () => {
    const c = withCheckDefaults('HEARTBEAT', { name: 'h', heartbeat: { period: 1, periodUnit: 'hours', grace: 5, graceUnit: 'minutes' } }, 'https://lookout.test/');
    expect(c.heartbeat.pingToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(c.heartbeat.pingUrl).toBe(`https://lookout.test/ping/${c.heartbeat.pingToken}`);
  });

  it('never lets a client choose the ping token', () => {
    expect(stripServerOwnedFields({ heartbeat: { period: 1, pingToken: 'mine', pingUrl: 'x' } })).toEqual({ heartbeat: { period: 1 } });
  });

  it('merges a partial request into the stored one', () => {
    const stored = withCheckDefaults('API', { name: 'x', request: { url: 'https://a.test', method: 'POST' } }, '');
    const merged = mergeCheckUpdate('API', stored, { request: { url: 'https://b.test' }, name: 'y' });
    expect(merged.request).toMatchObject({ url: 'https://b.test', method: 'POST' });
    expect(merged.name).toBe('y');
  });

  it.each([
    [null, null],
    [{ type: 'FIXED' }, { type: 'FIXED', baseBackoffSeconds: 60, maxRetries: 2, maxDurationSeconds: 600, sameRegion: true, onlyOn: null }],
    [{ type: 'SINGLE_RETRY', maxRetries: 5 }, { type: 'SINGLE_RETRY', baseBackoffSeconds: 60, maxRetries: 1, maxDurationSeconds: 600, sameRegion: true, onlyOn: null }],
  ])('fills retry strategy %j', (input, expected) => expect(withRetryDefaults(input as never)).toEqual(expected));
});
