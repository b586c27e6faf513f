/** Names the browser executor gives kept files: a UUID and an extension (`<uuid>.png`). */
export const ASSET_FILE_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.[a-z0-9]{1,10}$';
const ASSET_FILE = new RegExp(ASSET_FILE_PATTERN);

/** Whether `name` is a file name the assets folder holds for results (anything else there is left alone). */
export function isAssetFileName(name: string): boolean {
  return ASSET_FILE.test(name);
}

/** The parts of a result that keep files in the assets folder (each lists them as `jobAssets`). */
export const ASSET_PARTS = ['browserCheckResult', 'multiStepCheckResult', 'agenticCheckResult'] as const;

/**
 * The jobAssets entries of a result (`{name, type, contentType, size, file}`): those of its browser,
 * multi-step or agentic part. Works on a stored detail and on a REST view alike; anything that is
 * not an object is left out.
 */
export function jobAssetsOf(detail: unknown): Record<string, unknown>[] {
  if (!detail || typeof detail !== 'object') return [];
  const entries: Record<string, unknown>[] = [];
  for (const key of ASSET_PARTS) {
    const part = (detail as Record<string, unknown>)[key];
    const assets = part && typeof part === 'object' ? (part as Record<string, unknown>).jobAssets : undefined;
    if (!Array.isArray(assets)) continue;
    for (const a of assets) if (a && typeof a === 'object') entries.push(a as Record<string, unknown>);
  }
  return entries;
}

/**
 * The asset files a stored result refers to (jobAssetsOf). Names that are not asset file names are
 * ignored, so nothing outside the assets folder is ever named.
 */
export function assetFilesOf(detail: unknown): string[] {
  return jobAssetsOf(detail).map((a) => a.file).filter((file): file is string => typeof file === 'string' && isAssetFileName(file));
}
