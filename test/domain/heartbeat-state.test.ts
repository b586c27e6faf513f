import { describe, expect, it } from 'vitest';
import { heartbeatState, type HeartbeatSchedule } from '../../src/domain/heartbeat-state.js';

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
const at = (minute: number) => new Date(T0 + minute * 60_000);
/** A period of 10 minutes with 5 minutes of grace; created at minute 0. */
const tenMinutes: HeartbeatSchedule = { period: 10, periodUnit: 'minutes', grace: 5, graceUnit: 'minutes' };

describe('heartbeat states', () => {
  it.each([
    { name: 'a new check without pings is early', lastPing: null, now: 0, evaluated: null, state: 'EARLY', deadline: 15 },
    { name: 'a check without pings is early until the first period and grace end', lastPing: null, now: 14.99, evaluated: null, state: 'EARLY', deadline: 15 },
    { name: 'a check without pings is late at the end of the first period and grace', lastPing: null, now: 15, evaluated: 14, state: 'LATE', deadline: 15 },
    { name: 'a check without pings is failing once the miss was noticed', lastPing: null, now: 16, evaluated: 15, state: 'FAILING', deadline: 15 },
    { name: 'a ping just received is received', lastPing: 20, now: 20, evaluated: 19, state: 'RECEIVED', deadline: 35 },
    { name: 'a ping within the period is received', lastPing: 20, now: 29.99, evaluated: 29, state: 'RECEIVED', deadline: 35 },
    { name: 'a check is in grace once the period since the last ping is over', lastPing: 20, now: 30, evaluated: 29, state: 'GRACE', deadline: 35 },
    { name: 'a check is in grace until the grace ends', lastPing: 20, now: 34.99, evaluated: 34, state: 'GRACE', deadline: 35 },
    { name: 'a check is late at the first evaluation past the deadline', lastPing: 20, now: 35, evaluated: 34, state: 'LATE', deadline: 35 },
    { name: 'a check is late when it was never evaluated before', lastPing: 20, now: 50, evaluated: null, state: 'LATE', deadline: 35 },
    { name: 'a check is late when the previous evaluation was before the deadline, however long ago', lastPing: 20, now: 500, evaluated: 30, state: 'LATE', deadline: 35 },
    { name: 'a check is failing when the previous evaluation was at the deadline', lastPing: 20, now: 36, evaluated: 35, state: 'FAILING', deadline: 35 },
    { name: 'a check stays failing at later evaluations', lastPing: 20, now: 600, evaluated: 599, state: 'FAILING', deadline: 35 },
    { name: 'a new ping after failing makes the check received again', lastPing: 601, now: 602, evaluated: 600, state: 'RECEIVED', deadline: 616 },
    { name: 'a ping from the future (clock skew) counts as received', lastPing: 30, now: 25, evaluated: null, state: 'RECEIVED', deadline: 45 },
  ] as const)('$name', ({ lastPing, now, evaluated, state, deadline }) => {
    const result = heartbeatState(tenMinutes, lastPing === null ? null : at(lastPing), at(0), at(now), evaluated === null ? null : at(evaluated));
    expect(result).toEqual({ state, nextDeadline: at(deadline) });
  });

  it('goes straight from received to late without grace', () => {
    const noGrace: HeartbeatSchedule = { period: 1, periodUnit: 'hours', grace: 0, graceUnit: 'seconds' };
    expect(heartbeatState(noGrace, at(0), at(0), at(59.99)).state).toBe('RECEIVED');
    expect(heartbeatState(noGrace, at(0), at(0), at(60)).state).toBe('LATE');
  });

  it.each([
    [{ period: 30, periodUnit: 'seconds', grace: 30, graceUnit: 'seconds' }, 1],
    [{ period: 2, periodUnit: 'hours', grace: 1, graceUnit: 'hours' }, 180],
    [{ period: 1, periodUnit: 'days', grace: 2, graceUnit: 'hours' }, 1560],
    [{ period: 7, periodUnit: 'days', grace: 1, graceUnit: 'days' }, 11520],
  ] as const)('converts the units of %j into a deadline %i minutes after the last ping', (schedule, minutes) => {
    expect(heartbeatState(schedule, at(0), at(0), at(0)).nextDeadline).toEqual(at(minutes));
  });

  it('defaults to "never evaluated before", so the first evaluation past the deadline is late', () => {
    expect(heartbeatState(tenMinutes, null, at(0), at(100)).state).toBe('LATE');
  });
});
