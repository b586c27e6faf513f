import { describe, expect, it } from 'vitest';
import { checkHealth, nextCheckStatus, type CheckStatusState, type FinalRun } from '../../src/domain/next-check-status.js';

const run = (o: Partial<FinalRun> = {}): FinalRun => ({
  hasFailures: false, hasErrors: false, isDegraded: false, responseTime: 100, location: 'eu-west-1', checkRunId: 1,
  startedAt: new Date('2024-01-01T10:00:00Z'), sslDaysRemaining: null, ...o,
});
const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 10, minute));

describe('checkHealth', () => {
  it.each([
    [{ hasFailures: false, hasErrors: false, isDegraded: false }, 'PASSING'],
    [{ hasFailures: false, hasErrors: false, isDegraded: true }, 'DEGRADED'],
    [{ hasFailures: true, hasErrors: false, isDegraded: true }, 'FAILING'],
    [{ hasFailures: false, hasErrors: true, isDegraded: false }, 'FAILING'],
  ])('%j is %s', (flags, health) => {
    expect(checkHealth(flags)).toBe(health);
  });
});

describe('nextCheckStatus', () => {
  it('starts from the first run', () => {
    expect(nextCheckStatus(null, run({ responseTime: 123.6, checkRunId: 7, sslDaysRemaining: 20 }), ['eu-west-1'])).toEqual({
      hasFailures: false, hasErrors: false, isDegraded: false, longestRun: 124, shortestRun: 124, lastRunLocation: 'eu-west-1',
      lastCheckRunId: '7', sslDaysRemaining: 20, locationRunTimes: { 'eu-west-1': { responseTime: 123.6, startedAt: at(0).getTime() } },
      lastResultAt: at(0),
    });
  });

  it('spans the latest time of each location and takes flags from the newest run', () => {
    const locations = ['eu-west-1', 'us-east-1'];
    let s: CheckStatusState | null = null;
    s = nextCheckStatus(s, run({ responseTime: 300, startedAt: at(0) }), locations);
    s = nextCheckStatus(s, run({ responseTime: 80, location: 'us-east-1', isDegraded: true, checkRunId: 2, startedAt: at(1) }), locations);
    expect(s).toMatchObject({ longestRun: 300, shortestRun: 80, isDegraded: true, lastRunLocation: 'us-east-1', lastCheckRunId: '2' });
    s = nextCheckStatus(s, run({ responseTime: 90, startedAt: at(2), checkRunId: 3 }), locations);
    expect(s).toMatchObject({ longestRun: 90, shortestRun: 80, isDegraded: false, lastRunLocation: 'eu-west-1' });
  });

  it('lets a late result of an earlier run change neither the flags nor a newer time of its location', () => {
    const first = nextCheckStatus(null, run({ responseTime: 100, startedAt: at(5), checkRunId: 5 }), ['eu-west-1', 'us-east-1']);
    const late = nextCheckStatus(first, run({ responseTime: 900, startedAt: at(1), hasFailures: true, checkRunId: 6 }), ['eu-west-1', 'us-east-1']);
    expect(late).toEqual(first);
    const lateElsewhere = nextCheckStatus(first, run({ responseTime: 900, location: 'us-east-1', startedAt: at(1), hasFailures: true }), ['eu-west-1', 'us-east-1']);
    expect(lateElsewhere).toMatchObject({ hasFailures: false, lastRunLocation: 'eu-west-1', longestRun: 900, shortestRun: 100 });
  });

  it('drops the times of locations the check left', () => {
    const before = nextCheckStatus(null, run({ responseTime: 900 }), ['eu-west-1']);
    const after = nextCheckStatus(before, run({ responseTime: 50, location: 'my-private-dc', startedAt: at(3) }), ['my-private-dc']);
    expect(after).toMatchObject({ longestRun: 50, shortestRun: 50 });
    expect(Object.keys(after.locationRunTimes)).toEqual(['my-private-dc']);
  });

  it('keeps the last known certificate expiry when a run saw none', () => {
    const seen = nextCheckStatus(null, run({ sslDaysRemaining: 9 }), []);
    expect(nextCheckStatus(seen, run({ startedAt: at(1) }), []).sslDaysRemaining).toBe(9);
    expect(nextCheckStatus(seen, run({ startedAt: at(2), sslDaysRemaining: 8 }), []).sslDaysRemaining).toBe(8);
  });
});
