import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript of the sandbox runtime, without type declarations
import { adaptSuiteConfig } from '../../src/runner/runtime/playwright-suite-config.mjs';

/** How a suite's own Playwright config is adapted for the sandbox: what happens to `use.video`. */

const settings = (videoOffReason: string | null) => ({ chromiumPath: '/usr/bin/chromium', launchArgs: ['--no-sandbox'], videoOffReason });

describe('adaptSuiteConfig and videos', () => {
  it('keeps every project\'s video mode when the runner can record videos', () => {
    const out = adaptSuiteConfig({
      use: { video: 'retain-on-failure' },
      projects: [{ name: 'top' }, { name: 'own', use: { video: { mode: 'on', size: { width: 640, height: 360 } } } }],
    }, settings(null));
    expect(out.projects[0].use.video).toBeUndefined();
    expect(out.use.video).toBe('retain-on-failure');
    expect(out.projects[1].use.video).toEqual({ mode: 'on', size: { width: 640, height: 360 } });
    expect(out.projects.map((p: { metadata: Record<string, unknown> }) => p.metadata.lookoutNotes)).toEqual([undefined, undefined]);
  });

  it('switches videos off with a note naming why when it cannot, only where they were asked for', () => {
    const why = 'this runner has no ffmpeg at /usr/bin/ffmpeg';
    const out = adaptSuiteConfig({
      use: { video: 'on-first-retry' },
      projects: [{ name: 'inherits' }, { name: 'off', use: { video: 'off' } }, { name: 'object', use: { video: { mode: 'on' } } }],
    }, settings(why));
    expect(out.projects.map((p: { use: { video?: unknown } }) => p.use.video)).toEqual(['off', 'off', 'off']);
    expect(out.projects.map((p: { metadata: Record<string, unknown> }) => p.metadata.lookoutNotes))
      .toEqual([[`videos are not recorded: ${why}`], undefined, [`videos are not recorded: ${why}`]]);
  });

  it('adapts a config without projects as its one project', () => {
    const out = adaptSuiteConfig({ use: { video: 'on' } }, settings('no ffmpeg'));
    expect(out.use.video).toBe('off');
    expect(out.metadata.lookoutNotes).toEqual(['videos are not recorded: no ffmpeg']);
  });
});
