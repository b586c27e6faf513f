import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_RETENTION } from '../../src/domain/retention-policy.js';

describe('retention settings', () => {
  it('default to the documented values', () => {
    expect(loadConfig({}).retention).toEqual(DEFAULT_RETENTION);
  });

  it('read every variable', () => {
    const env = {
      LOOKOUT_RESULT_RETENTION_DAYS: '7', LOOKOUT_HOURLY_ROLLUP_RETENTION_DAYS: '14', LOOKOUT_DAILY_ROLLUP_RETENTION_DAYS: '0',
      LOOKOUT_PING_RETENTION_DAYS: '1', LOOKOUT_ALERT_RETENTION_DAYS: '2', LOOKOUT_TEST_SESSION_RETENTION_DAYS: '3',
      LOOKOUT_ERROR_GROUP_RETENTION_DAYS: '4', LOOKOUT_NOTIFICATION_RETENTION_DAYS: '5', LOOKOUT_DEPLOYMENTS_KEPT: '6',
      LOOKOUT_AUDIT_RETENTION_DAYS: '8',
    };
    expect(loadConfig(env).retention).toEqual({
      resultDays: 7, hourlyRollupDays: 14, dailyRollupDays: 0, pingDays: 1, alertDays: 2, testSessionDays: 3, errorGroupDays: 4, notificationDays: 5, deploymentsKept: 6,
      auditDays: 8,
    });
  });

  it('keeps results for ever with 0 days, whatever the roll-ups are kept for', () => {
    expect(loadConfig({ LOOKOUT_RESULT_RETENTION_DAYS: '0' }).retention.resultDays).toBe(0);
  });

  it.each([
    [{ LOOKOUT_PING_RETENTION_DAYS: 'a week' }, 'LOOKOUT_PING_RETENTION_DAYS must be a non-negative integer'],
    [{ LOOKOUT_DEPLOYMENTS_KEPT: '-1' }, 'LOOKOUT_DEPLOYMENTS_KEPT must be a non-negative integer'],
    [{ LOOKOUT_RESULT_RETENTION_DAYS: '120' }, 'LOOKOUT_HOURLY_ROLLUP_RETENTION_DAYS must be 0 or at least LOOKOUT_RESULT_RETENTION_DAYS'],
    [{ LOOKOUT_DAILY_ROLLUP_RETENTION_DAYS: '30' }, 'LOOKOUT_DAILY_ROLLUP_RETENTION_DAYS must be 0 or at least LOOKOUT_HOURLY_ROLLUP_RETENTION_DAYS'],
  ])('refuse %o at start with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
