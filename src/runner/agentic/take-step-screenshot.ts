import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { BrowserJobAsset } from '../executors/run-browser-check.js';

/** Largest screenshot kept; a larger one (a huge viewport) is dropped rather than filling the disk. */
const MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024;

/**
 * A PNG of what `page` shows now (the viewport, as a person would see it), written to
 * `<assetsDir>/<uuid>.png` and described as the result asset `name`. Null when the page cannot be
 * captured in `timeoutMs` (crashed, closed, still busy) or the image is too large: a missing
 * screenshot never fails the run, the step just has none.
 */
export async function takeStepScreenshot(page: Page, assetsDir: string, name: string, timeoutMs: number): Promise<BrowserJobAsset | null> {
  let image: Buffer;
  try {
    image = await page.screenshot({ type: 'png', timeout: Math.max(1, timeoutMs), animations: 'disabled' });
  } catch {
    return null;
  }
  if (image.length === 0 || image.length > MAX_SCREENSHOT_BYTES) return null;
  const file = `${randomUUID()}.png`;
  const to = path.join(assetsDir, file);
  try {
    await mkdir(assetsDir, { recursive: true });
    await writeFile(to, image, { flag: 'wx' });
  } catch {
    // A full or read-only disk: no screenshot, and no half-written file left behind.
    await rm(to, { force: true });
    return null;
  }
  return { name, type: 'screenshot', contentType: 'image/png', size: image.length, file };
}
