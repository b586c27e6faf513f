import { execFileSync } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { ProbeResult } from '../../src/domain/check-result.js';
import { storedFileName } from '../../src/domain/code-bundle-key.js';
import { createPlaywrightCheckExecutor, DEFAULT_FFMPEG_PATH } from '../../src/runner/executors/run-playwright-check.js';
import { createSandbox } from '../../src/runner/sandbox/create-sandbox.js';
import type { Sandbox } from '../../src/runner/sandbox/sandbox.js';
import { CHROMIUM, chromiumInstalled, NO_CHROMIUM } from '../support/chromium.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';
import { startPageTarget, type PageTarget } from '../support/page-target.js';
import { SANDBOX_SKIP_REASON, sandboxWorks } from '../support/sandbox.js';

/**
 * Videos of Playwright check suites: Playwright records them with Debian's ffmpeg (its own build
 * cannot be downloaded), in every mode the suite's `use.video` asks for, and they are kept as the
 * result's assets like traces. Without ffmpeg the suite still runs, without videos, and its log
 * says why.
 */

const ffmpegInstalled = (() => {
  try {
    accessSync(DEFAULT_FFMPEG_PATH, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
})();
const skip = !chromiumInstalled ? NO_CHROMIUM : !sandboxWorks ? SANDBOX_SKIP_REASON : '';
const skipVideo = skip || (!ffmpegInstalled ? `no ffmpeg at ${DEFAULT_FFMPEG_PATH}: apt-get install -y --no-install-recommends ffmpeg (.ci/run installs it)` : '');
if (skipVideo) console.warn(`run-playwright-check.test.ts: skipping suite runs (${skipVideo})`);

const ACCOUNT = '00000000-0000-4000-8000-000000000002';
const BUNDLE_KEY = 'code-bundle/6d0f1c7e-3b7a-4c55-9a43-2f1e0c9d8b11';
const UID_BASE = 300_000 + ((process.pid + 7) % 10_000) * 10;

/** A project whose `always` project records every test and whose `failures` project keeps the videos of failed tests only. */
const PROJECT: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'videos', private: true, devDependencies: { '@playwright/test': '*' } }),
  'playwright.config.ts': `import { defineConfig } from '@playwright/test'
export default defineConfig({
  testDir: './tests',
  timeout: 20_000,
  retries: 0,
  use: { baseURL: process.env.PAGE_URL },
  projects: [
    { name: 'always', use: { video: 'on' }, testMatch: /home\\.spec\\.ts/ },
    { name: 'failures', use: { video: { mode: 'retain-on-failure', size: { width: 640, height: 360 } } } },
  ],
})
`,
  'tests/home.spec.ts': `import { test, expect } from '@playwright/test'
test('the home page has its title', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveTitle('Video shop')
})
`,
  'tests/broken.spec.ts': `import { test, expect } from '@playwright/test'
test('the page has another title', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveTitle('Not this one', { timeout: 1_000 })
})
`,
};

type Json = Record<string, any>;

describe('Playwright check suite videos', () => {
  let page: PageTarget;
  let sandbox: Sandbox;
  let runTmp: string;
  let storageDir: string;
  let assetsDir: string;

  beforeAll(async () => {
    page = await startPageTarget('Video shop');
    runTmp = await mkdtemp(path.join(tmpdir(), 'lookout-suite-runs-'));
    // The runs' own users pass through it to their folders.
    await chmod(runTmp, 0o711);
    storageDir = await mkdtemp(path.join(tmpdir(), 'lookout-suite-storage-'));
    assetsDir = await mkdtemp(path.join(tmpdir(), 'lookout-suite-assets-'));
    const source = await mkdtemp(path.join(tmpdir(), 'lookout-suite-project-'));
    for (const [file, text] of Object.entries(PROJECT)) {
      await mkdir(path.dirname(path.join(source, file)), { recursive: true });
      await writeFile(path.join(source, file), text);
    }
    await mkdir(path.join(storageDir, ACCOUNT), { recursive: true });
    execFileSync('tar', ['-czf', path.join(storageDir, ACCOUNT, storedFileName(BUNDLE_KEY)), '-C', source, '.']);
    await rm(source, { recursive: true, force: true });
    sandbox = createSandbox({
      settings: { ...loadConfig().sandbox, uidBase: UID_BASE }, chromiumPath: CHROMIUM, protectedPaths: [], scratchDir: runTmp,
      logger: pino({ level: 'silent' }),
    });
  });

  afterAll(async () => {
    sandbox?.close();
    await page?.close();
    for (const dir of [runTmp, storageDir, assetsDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  const run = (ffmpegPath: string, testCommand: string): Promise<ProbeResult> => {
    const executor = createPlaywrightCheckExecutor({ chromiumPath: CHROMIUM, ffmpegPath, assetsDir, storageDir, sandbox });
    const check = runnableCheck('PLAYWRIGHT', { codeBundlePath: BUNDLE_KEY, testCommand });
    return executor(check, runContext({ timeoutMs: 120_000, variables: [{ key: 'PAGE_URL', value: page.url, secret: false }] }));
  };

  it.skipIf(skipVideo !== '')('records the videos use.video asks for with Debian\'s ffmpeg and keeps them as playable webm assets', async () => {
    const result = await run(DEFAULT_FFMPEG_PATH, 'npx playwright test');
    const detail = result.browserCheckResult as Json;
    const tests = Object.fromEntries((detail.playwrightTestResults.tests as Json[]).map((t) => [`${t.project} ${t.title}`, t]));
    expect(Object.keys(tests).sort()).toEqual([
      'always the home page has its title', 'failures the home page has its title', 'failures the page has another title',
    ]);
    expect(detail.errors.map((e: Json) => e.code)).toEqual(['TEST_FAILED']);
    const videos = detail.playwrightTestVideos as Json[];
    const videosOf = (name: string) => videos.filter((v) => tests[name]!.assets.includes(v.file));
    // 'on': the passing test's video; 'retain-on-failure': the failed test's only.
    expect(videosOf('always the home page has its title')).toHaveLength(1);
    expect(videosOf('failures the page has another title')).toHaveLength(1);
    expect(videosOf('failures the home page has its title')).toHaveLength(0);
    expect(videos).toHaveLength(2);
    for (const video of videos) {
      expect(video).toMatchObject({ type: 'video', contentType: 'video/webm', name: 'video.webm' });
      const file = path.join(assetsDir, video.file as string);
      const bytes = await readFile(file);
      // EBML magic: a Matroska/WebM file.
      expect(bytes.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
      const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration:stream=codec_name', '-of', 'json', file], { encoding: 'utf8' }));
      expect(Number(probe.format.duration)).toBeGreaterThan(0);
      expect(probe.streams.map((s: Json) => s.codec_name)).toEqual([expect.stringMatching(/^vp[89]$/)]);
    }
    const jobLog = (detail.jobLog as Json[]).map((l) => l.message).join('\n');
    expect(jobLog).not.toContain('videos are not recorded');
  });

  it.skipIf(skip !== '')('runs a suite asking for videos without them when the runner has no ffmpeg, and its log says why', async () => {
    const missing = path.join(runTmp, 'no-such-ffmpeg');
    const result = await run(missing, 'npx playwright test --project always');
    const detail = result.browserCheckResult as Json;
    expect(result.hasFailures).toBe(false);
    expect(detail.playwrightTestResults.tests).toHaveLength(1);
    expect(detail.playwrightTestVideos).toEqual([]);
    expect((detail.jobAssets as Json[]).filter((a) => a.type === 'video')).toEqual([]);
    const why = `videos are not recorded: this runner has no ffmpeg at ${missing}`;
    const projects = Object.fromEntries((detail.playwrightTestResults.projects as Json[]).map((p) => [p.name, p]));
    expect(projects.always.notes).toEqual([expect.stringContaining(why)]);
    expect(detail.jobLog).toContainEqual(expect.objectContaining({ source: 'runner', level: 'warn', message: expect.stringContaining(`project "always": ${why}`) }));
  });
});
