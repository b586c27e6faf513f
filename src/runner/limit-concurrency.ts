import type { Executor } from './executor.js';

/**
 * Lets at most `max` attempts of `executor` run at once; the others wait their turn (their wait
 * counts against nothing: the attempt's own time limit starts when it starts). Browser checks
 * need this: each holds a Chromium of a few hundred MB and a core while it runs.
 */
export function limitConcurrency(executor: Executor, max: number): Executor {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (check, ctx) => {
    if (active >= max) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await executor(check, ctx);
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}
