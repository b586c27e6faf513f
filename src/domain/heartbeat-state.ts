import { UNIT_SECONDS, type TimeUnit } from './catalog.js';

/** The heartbeat states of conventions.md. */
export type HeartbeatState = 'EARLY' | 'RECEIVED' | 'GRACE' | 'LATE' | 'FAILING';

/** The schedule part of a check's `heartbeat`. */
export interface HeartbeatSchedule {
  period: number;
  periodUnit: TimeUnit;
  grace: number;
  graceUnit: TimeUnit;
}

export interface HeartbeatEvaluation {
  state: HeartbeatState;
  /**
   * When the check is due: the latest ping (or, before the first ping, the creation) plus period
   * plus grace. Still ahead for EARLY, RECEIVED and GRACE; the deadline that was missed for LATE
   * and FAILING.
   */
  nextDeadline: Date;
}

/**
 * The state of a heartbeat check at `now`. With base = lastPingAt, or createdAt before any ping:
 * - EARLY: no ping yet and now < createdAt + period + grace;
 * - RECEIVED: now < lastPingAt + period;
 * - GRACE: lastPingAt + period ≤ now < lastPingAt + period + grace (never with grace 0);
 * - past the deadline (now ≥ base + period + grace) the check is LATE on the first evaluation
 *   past that deadline — `lastEvaluatedAt` is null or before it — and FAILING on every later one.
 *   LATE is the moment the miss is noticed (the run that fails and alerts); FAILING says the miss
 *   was already known. A new ping starts over from RECEIVED.
 */
export function heartbeatState(
  heartbeat: HeartbeatSchedule,
  lastPingAt: Date | null,
  createdAt: Date,
  now: Date,
  lastEvaluatedAt: Date | null = null,
): HeartbeatEvaluation {
  const periodMs = heartbeat.period * UNIT_SECONDS[heartbeat.periodUnit] * 1000;
  const graceMs = heartbeat.grace * UNIT_SECONDS[heartbeat.graceUnit] * 1000;
  const base = (lastPingAt ?? createdAt).getTime();
  const deadline = base + periodMs + graceMs;
  const t = now.getTime();
  const result = (state: HeartbeatState): HeartbeatEvaluation => ({ state, nextDeadline: new Date(deadline) });

  if (t < deadline) {
    if (!lastPingAt) return result('EARLY');
    return result(t < base + periodMs ? 'RECEIVED' : 'GRACE');
  }
  const noticedBefore = lastEvaluatedAt !== null && lastEvaluatedAt.getTime() >= deadline;
  return result(noticedBefore ? 'FAILING' : 'LATE');
}
