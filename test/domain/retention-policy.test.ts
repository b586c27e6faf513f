import { describe, expect, it } from 'vitest';
import {
  DAY_MS, DEFAULT_RETENTION, HOUR_MS, RAW_RESULT_SLACK_MS, retentionCutoffs, rollupHorizon, type RetentionSettings,
} from '../../src/domain/retention-policy.js';

const now = new Date('2024-06-30T12:34:56.000Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * DAY_MS);
const settings = (patch: Partial<RetentionSettings> = {}): RetentionSettings => ({ ...DEFAULT_RETENTION, ...patch });
const rolled = { hourly: new Date('2024-06-30T11:00:00.000Z'), daily: new Date('2024-06-30T00:00:00.000Z') };

describe('retention cutoffs', () => {
  it('cuts each table its own number of days before now', () => {
    const cut = retentionCutoffs(settings(), now, rolled);
    expect(cut).toMatchObject({
      pings: daysAgo(30), alerts: daysAgo(90), testSessions: daysAgo(30), notifications: daysAgo(90), dailyRollups: daysAgo(730),
      audit: daysAgo(365),
    });
  });

  it('keeps raw results a day past their retention, so "the last N days" still reads raw results', () => {
    expect(retentionCutoffs(settings({ resultDays: 30 }), now, rolled).results).toEqual(new Date(daysAgo(30).getTime() - RAW_RESULT_SLACK_MS));
  });

  it.each([
    ['nothing was rolled up yet', { hourly: null, daily: null }, null],
    ['the roll-ups lag behind the retention', { hourly: daysAgo(40), daily: null }, daysAgo(40)],
  ])('never prunes results of hours not rolled up: %s', (_name, watermarks, expected) => {
    expect(retentionCutoffs(settings({ resultDays: 30 }), now, watermarks).results).toEqual(expected);
  });

  it('prunes hourly roll-ups at a day boundary, and only days already in the daily roll-ups', () => {
    expect(retentionCutoffs(settings({ hourlyRollupDays: 90 }), now, rolled).hourlyRollups).toEqual(new Date('2024-04-01T00:00:00.000Z'));
    expect(retentionCutoffs(settings({ hourlyRollupDays: 90 }), now, { ...rolled, daily: new Date('2024-03-01T00:00:00.000Z') }).hourlyRollups)
      .toEqual(new Date('2024-03-01T00:00:00.000Z'));
    expect(retentionCutoffs(settings({ hourlyRollupDays: 90 }), now, { ...rolled, daily: null }).hourlyRollups).toBeNull();
  });

  it.each<[string, Partial<RetentionSettings>, 'results' | 'pings' | 'alerts' | 'testSessions' | 'notifications' | 'dailyRollups']>([
    ['results', { resultDays: 0 }, 'results'],
    ['pings', { pingDays: 0 }, 'pings'],
    ['alerts', { alertDays: 0 }, 'alerts'],
    ['test sessions', { testSessionDays: 0 }, 'testSessions'],
    ['notifications', { notificationDays: 0 }, 'notifications'],
    ['daily roll-ups', { dailyRollupDays: 0 }, 'dailyRollups'],
  ])('keeps %s for ever when their days are 0', (_name, patch, key) => {
    expect(retentionCutoffs(settings(patch), now, rolled)[key]).toBeNull();
  });

  it('keeps error groups as long as the results and test sessions that name them', () => {
    expect(retentionCutoffs(settings({ errorGroupDays: 10, resultDays: 30, testSessionDays: 20 }), now, rolled).errorGroups)
      .toEqual(new Date(daysAgo(30).getTime() - RAW_RESULT_SLACK_MS));
    expect(retentionCutoffs(settings({ errorGroupDays: 10, resultDays: 5, testSessionDays: 20 }), now, rolled).errorGroups).toEqual(daysAgo(20));
    expect(retentionCutoffs(settings({ errorGroupDays: 90, resultDays: 0 }), now, rolled).errorGroups).toBeNull();
  });
});

describe('roll-up horizon', () => {
  it.each([
    ['2024-06-30T12:14:59.000Z', '2024-06-30T11:00:00.000Z'],
    ['2024-06-30T12:15:00.000Z', '2024-06-30T12:00:00.000Z'],
    ['2024-06-30T12:59:59.000Z', '2024-06-30T12:00:00.000Z'],
  ])('at %s rolls up the hours before %s (an hour closes 15 minutes after it ends)', (at, until) => {
    expect(rollupHorizon(new Date(at))).toEqual(new Date(until));
    expect(new Date(until).getTime() % HOUR_MS).toBe(0);
  });
});
