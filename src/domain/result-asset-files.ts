/** Names the browser executor gives kept files: a UUID and an extension (`<uuid>.png`). */
export const ASSET_FILE_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.[a-z0-9]{1,10}$';
const ASSET_FILE = new RegExp(ASSET_FILE_PATTERN);

/** Whether `name` is a file name the assets folder holds for results (anything else there is left alone). */
export function isAssetFileName(name: string): boolean {
  return ASSET_FILE.test(name);
}

/**
 * The asset files a stored result refers to: the jobAssets of its browser or multi-step part. Works
 * on a result's stored detail and on its REST view alike (both carry those parts); names that are
 * not asset file names are ignored, so nothing outside the assets folder is ever named.
 */
export function assetFilesOf(detail: unknown): string[] {
  if (!detail || typeof detail !== 'object') return [];
  const files: string[] = [];
  for (const key of ['browserCheckResult', 'multiStepCheckResult']) {
    const part = (detail as Record<string, unknown>)[key];
    const assets = part && typeof part === 'object' ? (part as Record<string, unknown>).jobAssets : undefined;
    if (!Array.isArray(assets)) continue;
    for (const a of assets) {
      const file = a && typeof a === 'object' ? (a as Record<string, unknown>).file : undefined;
      if (typeof file === 'string' && isAssetFileName(file)) files.push(file);
    }
  }
  return files;
}
