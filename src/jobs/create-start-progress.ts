import type { Logger } from 'pino';

/** Says at info which step a starting process is at, so a first start (minutes on a slow disk) is never silent. */
export interface StartProgress {
  /** Logs the step the start is at; until the next step, a line every few seconds says it is still at it. */
  step(message: string, fields?: Record<string, unknown>): void;
  /** Updates what the "still …" lines report about the current step (e.g. migrations applied of how many). */
  detail(fields: Record<string, unknown>): void;
  /** Stops the "still …" lines: the start is over, or failed. */
  close(): void;
}

/** Options of createStartProgress. */
export interface StartProgressOptions {
  logger: Logger;
  /** How often a long step is reported again (default 5 s). */
  everyMs?: number;
}

/** A start's progress, logged through `logger`: one line per step, then one per `everyMs` while a step lasts. */
export function createStartProgress({ logger, everyMs = 5_000 }: StartProgressOptions): StartProgress {
  let current: { message: string; fields: Record<string, unknown>; since: number } | undefined;
  const timer = setInterval(() => {
    // A step that just began was announced already.
    if (!current || Date.now() - current.since < everyMs / 2) return;
    const seconds = Math.round((Date.now() - current.since) / 1000);
    logger.info({ ...current.fields, seconds }, `still ${current.message}`);
  }, everyMs);
  // Progress lines never keep a process alive on their own.
  timer.unref();
  return {
    step(message, fields = {}) {
      current = { message, fields, since: Date.now() };
      logger.info(fields, message);
    },
    detail(fields) {
      if (current) current.fields = { ...current.fields, ...fields };
    },
    close() {
      current = undefined;
      clearInterval(timer);
    },
  };
}
