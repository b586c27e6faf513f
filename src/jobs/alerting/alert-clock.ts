/** A timer that a clock can cancel. */
export type ClockTimer = { readonly id: number };

/**
 * Time as alerting sees it: the current time and timers. The real clock uses unref'd timers (a
 * pending reminder never keeps the process alive); tests pass a manual one.
 */
export interface AlertClock {
  now(): Date;
  setTimer(fn: () => void, ms: number): ClockTimer;
  clearTimer(timer: ClockTimer): void;
}

/** Longest single wait of setTimeout; longer waits are chained. */
const MAX_TIMEOUT = 2_147_483_647;

/** The system clock. */
export function systemClock(): AlertClock {
  let next = 1;
  const handles = new Map<number, NodeJS.Timeout>();
  const arm = (id: number, fn: () => void, ms: number) => {
    const wait = Math.min(Math.max(0, ms), MAX_TIMEOUT);
    const handle = setTimeout(() => {
      if (ms > MAX_TIMEOUT) return arm(id, fn, ms - MAX_TIMEOUT);
      handles.delete(id);
      fn();
    }, wait);
    handle.unref();
    handles.set(id, handle);
  };
  return {
    now: () => new Date(),
    setTimer(fn, ms) {
      const id = next++;
      arm(id, fn, ms);
      return { id };
    },
    clearTimer(timer) {
      const handle = handles.get(timer.id);
      if (handle) clearTimeout(handle);
      handles.delete(timer.id);
    },
  };
}
