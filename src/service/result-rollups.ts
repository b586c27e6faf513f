import { DAY_MS, floorTo, HOUR_MS, rollupHorizon, type RollupWatermarks } from '../domain/retention-policy.js';
import type { Db } from '../store/db.js';
import { createResultRollupsRepository } from '../store/result-rollups-repository.js';

/** Hours (days) rolled up per transaction, so catching up after a long pause never holds one huge statement. */
const HOURS_PER_STEP = 24;
const DAYS_PER_STEP = 7;

/**
 * Rolls up every closed hour since the hourly watermark (from the oldest result the first time)
 * into hourly roll-ups, then every whole day of those into daily ones, moving each watermark in
 * the transaction that wrote its rows. Each step recomputes its rows from the finer data and
 * replaces them, so a repeated or concurrent run never counts a run twice. Returns the watermarks.
 */
export async function rollUpResults(db: Db, now: Date): Promise<RollupWatermarks> {
  const repo = createResultRollupsRepository(db);
  const marks = await repo.watermarks();
  const horizon = rollupHorizon(now);
  /** Rolls [from, horizon) up in steps of `stepMs`, each step and the watermark's move in one transaction. */
  async function advance(from: Date | null, limit: Date, stepMs: number, tier: 'hourly' | 'daily'): Promise<Date | null> {
    let mark = from;
    while (mark && mark.getTime() < limit.getTime()) {
      const start = mark;
      const end = new Date(Math.min(start.getTime() + stepMs, limit.getTime()));
      await db.transaction(async (tx) => {
        const inTx = createResultRollupsRepository(tx);
        await (tier === 'hourly' ? inTx.rollUpHours(start, end) : inTx.rollUpDays(start, end));
        await inTx.advanceWatermark(tier, end);
      });
      mark = end;
    }
    return mark;
  }
  const oldestResult = marks.hourly ? null : await repo.oldestResult();
  const hourly = await advance(marks.hourly ?? (oldestResult ? floorTo(oldestResult, HOUR_MS) : null), horizon, HOURS_PER_STEP * HOUR_MS, 'hourly');
  if (!hourly) return repo.watermarks();
  // Whole days whose hours are all rolled up.
  const oldestHourly = marks.daily ? null : await repo.oldestHourly();
  await advance(marks.daily ?? (oldestHourly ? floorTo(oldestHourly, DAY_MS) : null), floorTo(hourly, DAY_MS), DAYS_PER_STEP * DAY_MS, 'daily');
  return repo.watermarks();
}
