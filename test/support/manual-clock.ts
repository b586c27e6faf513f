import type { AlertClock, ClockTimer } from '../../src/jobs/alerting/alert-clock.js';

/** A clock that only moves when told: timers fire, in time order, as `advance` passes them. */
export interface ManualClock extends AlertClock {
  /** Moves time forward by `ms`, firing every timer due on the way. */
  advance(ms: number): void;
  /** Timers not fired yet. */
  pending(): number;
}

export function createManualClock(start: Date = new Date()): ManualClock {
  let now = start.getTime();
  let next = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => new Date(now),
    setTimer(fn, ms) {
      const id = next++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return { id };
    },
    clearTimer(timer: ClockTimer) {
      timers.delete(timer.id);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= until).sort((x, y) => x[1].at - y[1].at || x[0] - y[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].fn();
      }
      now = until;
    },
    pending: () => timers.size,
  };
}
