import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { assetFilesOf, isAssetFileName } from '../domain/result-asset-files.js';
import type { RetentionRepository } from '../store/retention-repository.js';

/**
 * Deletes the asset files `rows` (results' stored assets, as the retention repository returns
 * them) list from `dir`. Called only after the rows are gone for good: a crash in between leaves
 * an orphan file for the sweep, never a result pointing at a missing file. A file already gone is
 * fine; returns how many were deleted.
 */
export async function deleteAssetFiles(dir: string, rows: readonly { assets: unknown }[], logger?: Logger): Promise<number> {
  let deleted = 0;
  for (const file of rows.flatMap((r) => assetFilesOf(r.assets))) {
    try {
      await unlink(path.join(dir, file));
      deleted++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') logger?.warn({ err, file }, 'deleting an asset file failed');
    }
  }
  return deleted;
}

/** How the orphan sweep runs. */
export interface OrphanSweepOptions {
  dir: string;
  retention: RetentionRepository;
  /** Files younger than this are left alone: their run may not be stored yet. */
  graceMs: number;
  now: Date;
  /** Files looked up per query. */
  batchSize?: number;
  logger: Logger;
}

/**
 * Deletes asset files no result lists any more and older than the grace period: what a crash
 * between a delete and its file deletion, a run that never got stored, or a delete of a whole
 * account or group left behind. Only the folder's own `<uuid>.<ext>` files are considered
 * (subfolders such as checkly-storage are not touched). Returns how many were deleted.
 */
export async function sweepOrphanAssets({ dir, retention, graceMs, now, batchSize = 500, logger }: OrphanSweepOptions): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  const candidates: string[] = [];
  for (const e of entries) {
    if (!e.isFile() || !isAssetFileName(e.name)) continue;
    const info = await stat(path.join(dir, e.name)).catch(() => null);
    if (info && now.getTime() - info.mtimeMs > graceMs) candidates.push(e.name);
  }
  let deleted = 0;
  for (let i = 0; i < candidates.length; i += batchSize) {
    const batch = candidates.slice(i, i + batchSize);
    const kept = await retention.referencedAssetFiles(batch);
    const orphans = batch.filter((f) => !kept.has(f));
    deleted += await deleteAssetFiles(dir, orphans.map((file) => ({ assets: { browserCheckResult: { jobAssets: [{ file }] } } })), logger);
  }
  return deleted;
}
