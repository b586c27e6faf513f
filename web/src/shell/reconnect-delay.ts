/** First wait before reconnecting the live socket, in ms. */
export const RECONNECT_MIN_MS = 1000;
/** Longest wait between two reconnection attempts, in ms: a console left open finds the server within this. */
export const RECONNECT_MAX_MS = 30_000;

/**
 * How long to wait before reconnection attempt `attempt` (0 for the first): doubling from 1 s and
 * capped at 30 s, each wait shortened by up to a quarter at random (`random` in [0, 1)) so that the
 * consoles of a restarted server do not all knock at the same instant.
 */
export function reconnectDelay(attempt: number, random: number = Math.random()): number {
  const exponent = Math.max(0, Math.min(attempt, 16));
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** exponent);
  return Math.round(base * (1 - 0.25 * Math.min(Math.max(random, 0), 1)));
}
