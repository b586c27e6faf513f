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
  let hourly = marks.hourly;
  if (!hourly) {
    const oldest = await repo.oldestResult();
    hourly = oldest ? floorTo(oldest, HOUR_MS) : null;
  }
  while (hourly && hourly.getTime() < horizon.getTime()) {
    const from = hourly;
    const to = new Date(Math.min(from.getTime() + HOURS_PER_STEP * HOUR_MS, horizon.getTime()));
    await db.transaction(async (tx) => {
      const inTx = createResultRollupsRepository(tx);
      await inTx.rollUpHours(from, to);
      await inTx.advanceWatermark('hourly', to);
    });
    hourly = to;
  }
  if (!hourly) return repo.watermarks();
  // Whole days whose hours are all rolled up.
  const dayHorizon = floorTo(hourly, DAY_MS);
  let daily = marks.daily;
  if (!daily) {
    const oldest = await repo.oldestHourly();
    daily = oldest ? floorTo(oldest, DAY_MS) : null;
  }
  while (daily && daily.getTime() < dayHorizon.getTime()) {
    const from = daily;
    const to = new Date(Math.min(from.getTime() + DAYS_PER_STEP * DAY_MS, dayHorizon.getTime()));
    await db.transaction(async (tx) => {
      const inTx = createResultRollupsRepository(tx);
      await inTx.rollUpDays(from, to);
      await inTx.advanceWatermark('daily', to);
    });
    daily = to;
  }
  return repo.watermarks();
}
