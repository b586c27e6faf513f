import { describe, expect, it } from 'vitest';
import { applyGroupSettings } from '../../src/domain/apply-group-settings.js';
import { withCheckDefaults } from '../../src/domain/check-defaults.js';
import { withGroupDefaults } from '../../src/domain/group-defaults.js';

const check = (extra: Record<string, unknown> = {}) => ({
  ...withCheckDefaults('API', { name: 'c', groupId: 1, locations: ['eu-west-1'], tags: ['own'], request: { url: '{{GROUP_BASE_URL}}/health', headers: [{ key: 'X-A', value: 'check' }] }, environmentVariables: [{ key: 'A', value: 'check' }], ...extra }, ''),
  checkType: 'API',
});

describe('group settings applied to a check', () => {
  const group = withGroupDefaults({
    name: 'g', locations: ['us-west-2'], tags: ['grp'], runtimeId: '2024.09', activated: true, muted: true,
    environmentVariables: [{ key: 'A', value: 'group' }, { key: 'B', value: 'group' }],
    apiCheckDefaults: { url: 'https://api.test/', headers: [{ key: 'x-a', value: 'group' }, { key: 'X-G', value: 'g' }], assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    retryStrategy: { type: 'LINEAR' },
  });
  const applied = applyGroupSettings(check(), group, [{ alertChannelId: 7, activated: true }]);

  it('takes the group locations and runtime', () => {
    expect(applied.locations).toEqual(['us-west-2']);
    expect(applied.runtimeId).toBe('2024.09');
  });
  it('unites tags and lets the check win on variable and header keys', () => {
    expect(applied.tags).toEqual(['grp', 'own']);
    expect(applied.environmentVariables).toEqual([{ key: 'B', value: 'group', locked: false, secret: false }, { key: 'A', value: 'check', locked: false, secret: false }]);
    expect(applied.request.headers).toEqual([{ key: 'X-G', value: 'g', locked: false }, { key: 'X-A', value: 'check', locked: false }]);
  });
  it('resolves the group base URL and puts group assertions first', () => {
    expect(applied.request.url).toBe('https://api.test/health');
    expect(applied.request.assertions[0]).toMatchObject({ source: 'STATUS_CODE' });
  });
  it('uses the group subscriptions, retry strategy and mute flag', () => {
    expect(applied.alertChannelSubscriptions).toEqual([{ alertChannelId: 7, activated: true }]);
    expect(applied.retryStrategy).toMatchObject({ type: 'LINEAR' });
    expect(applied.muted).toBe(true);
  });
  it('keeps the check retry strategy when the group says FALLBACK', () => {
    const own = check({ retryStrategy: { type: 'FIXED', baseBackoffSeconds: 5 } });
    expect(applyGroupSettings(own, withGroupDefaults({ name: 'g', retryStrategy: 'FALLBACK' }), []).retryStrategy).toMatchObject({ type: 'FIXED', baseBackoffSeconds: 5 });
  });
  it('keeps the check locations when the group names none', () => {
    expect(applyGroupSettings(check(), withGroupDefaults({ name: 'g' }), []).locations).toEqual(['eu-west-1']);
  });
  it('deactivates the check when the group is deactivated', () => {
    expect(applyGroupSettings(check(), withGroupDefaults({ name: 'g', activated: false }), []).activated).toBe(false);
  });
});
