import { createHash } from 'node:crypto';

/**
 * When a check runs. Runs happen on slots aligned to the UNIX epoch, so any process computes the
 * same times for a check without coordination:
 *
 *   slot k starts at k × period + phase   (period = frequency, phase within [0, period))
 *
 * - frequency 0 (sub-minute API/TCP/DNS): period = frequencyOffset seconds, phase from the check id.
 * - frequency f ≥ 1 minutes: period = f minutes. `frequencyOffset` picks the phase: for f ≤ 60 in
 *   steps of 6 seconds (offset 1..f×10 spans the period), above 60 in steps of one hour
 *   (offset 1..ceil(f/60)). Without an offset the phase is derived from the check id, spreading
 *   checks of the same frequency evenly instead of firing them all at minute boundaries.
 */
export interface Cadence {
  periodMs: number;
  phaseMs: number;
}

/** A stable number in [0, 1) from a check id, for spreading phases. */
export function idFraction(id: string): number {
  const h = createHash('sha1').update(id).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

/** The cadence of a check from its frequency fields. */
export function cadenceOf(check: { id: string; frequency: number; frequencyOffset?: number | null }): Cadence {
  if (check.frequency === 0) {
    const periodMs = (check.frequencyOffset ?? 10) * 1000;
    return { periodMs, phaseMs: Math.floor(idFraction(check.id) * periodMs) };
  }
  const periodMs = check.frequency * 60_000;
  if (check.frequencyOffset == null) return { periodMs, phaseMs: Math.floor(idFraction(check.id) * periodMs) };
  const stepMs = check.frequency <= 60 ? 6_000 : 3_600_000;
  return { periodMs, phaseMs: ((check.frequencyOffset - 1) * stepMs) % periodMs };
}

/** The first slot strictly after `afterMs`. */
export function nextSlotAfter(cadence: Cadence, afterMs: number): number {
  const k = Math.floor((afterMs - cadence.phaseMs) / cadence.periodMs) + 1;
  return k * cadence.periodMs + cadence.phaseMs;
}

/** The slot number of a slot time (used for round-robin over locations). */
export function slotIndex(cadence: Cadence, slotMs: number): number {
  return Math.round((slotMs - cadence.phaseMs) / cadence.periodMs);
}

/**
 * What to do at start for a check whose next slot was persisted as `persistedNextMs`: if that slot
 * passed while the process was down, run once now for it (never once per missed slot), then go on
 * with the slots after now. Otherwise keep the persisted slot (no double run after a restart).
 */
export function resumeSchedule(cadence: Cadence, persistedNextMs: number | null, nowMs: number): { runNow: boolean; nextMs: number } {
  if (persistedNextMs == null) return { runNow: false, nextMs: nextSlotAfter(cadence, nowMs) };
  if (persistedNextMs > nowMs) return { runNow: false, nextMs: persistedNextMs };
  return { runNow: true, nextMs: nextSlotAfter(cadence, nowMs) };
}

/** The location(s) of one run: round-robin by slot, or all of them for runParallel. */
export function locationsForSlot(locations: string[], runParallel: boolean, slot: number): string[] {
  if (locations.length === 0) return [];
  if (runParallel) return [...locations];
  const i = ((slot % locations.length) + locations.length) % locations.length;
  return [locations[i]!];
}
