/** Jobs of one holder of the connection (an open transaction), run in the order they were queued. */
export interface TurnLease {
  readonly queue: Array<() => void>;
}

/**
 * Serialises the jobs of a connection that runs synchronously inside this process (PGlite): one job
 * at a time, and at most one job per event-loop turn.
 */
export interface TurnScheduler {
  /** Runs `job` alone on the connection; inside `hold`, pass its lease. */
  run<T>(job: () => Promise<T>, lease?: TurnLease): Promise<T>;
  /** Keeps the connection for `fn` (a transaction): until it settles, only jobs run with its lease start. */
  hold<T>(fn: (lease: TurnLease) => Promise<T>): Promise<T>;
}

/**
 * Why one job per turn: each PGlite query runs synchronously on the event loop, and libuv accepts
 * one connection per turn. Handing the next query over in a microtask (PGlite's own mutex) answers
 * every request read in a turn within that turn, so a saturated server goes seconds between accepts
 * and connections starve. Starting the next job from `setImmediate` lets the loop poll sockets and
 * run timers between any two queries. A job queued while the connection is idle and nothing ran
 * in this turn starts at once, so an idle server adds no latency.
 */
export function createTurnScheduler(): TurnScheduler {
  const rootQueue: Array<() => void> = [];
  let holder: TurnLease | undefined;
  let running = false;
  let turnUsed = false;

  const newTurn = () => {
    turnUsed = false;
    dispatch();
  };
  function dispatch(): void {
    while (!running && !turnUsed) {
      const next = (holder ? holder.queue : rootQueue).shift();
      if (!next) return;
      // A job marks `running`, a lease start sets `holder`; either way the loop re-checks the queues.
      next();
    }
  }
  function useTurn(): void {
    running = true;
    turnUsed = true;
    setImmediate(newTurn);
  }

  function run<T>(job: () => Promise<T>, lease?: TurnLease): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        useTurn();
        job().then(resolve, reject).finally(() => {
          running = false;
          dispatch();
        });
      };
      (lease ? lease.queue : rootQueue).push(start);
      dispatch();
    });
  }

  function hold<T>(fn: (lease: TurnLease) => Promise<T>): Promise<T> {
    const lease: TurnLease = { queue: [] };
    return new Promise<T>((resolve, reject) => {
      rootQueue.push(() => {
        holder = lease;
        fn(lease).then(resolve, reject).finally(() => {
          holder = undefined;
          dispatch();
        });
      });
      dispatch();
    });
  }

  return { run, hold };
}
