// How a Playwright check suite's own config is run in the sandbox: the child writes a small
// config beside the user's that imports it and passes it through `adaptSuiteConfig` (inlined as
// source: the user's config may be compiled to CommonJS, which cannot import this module).
// Kept free of imports for that reason.

/**
 * The user's Playwright config as Lookout runs it (`settings`: `{chromiumPath, launchArgs, videoOffReason}`):
 * - every Chromium-based project (browserName or device `chromium`, any Chrome/Edge `channel`)
 *   launches the runtime's Chromium (`chromiumPath`) headless, its channel dropped;
 * - a project whose browser the runtime lacks (Firefox, WebKit), and every project depending on
 *   one, keeps its name but runs no test: its `metadata.lookoutNotRun` says why (the runner
 *   reports it per project as not run, not as failed);
 * - when the runner has no ffmpeg for Playwright (`videoOffReason` says why), videos are switched
 *   off and `metadata.lookoutNotes` of each project that asked for them records it.
 * Everything else (baseURL, timeouts, retries, trace, screenshot and video modes, …) is the user's.
 */
export function adaptSuiteConfig(config, settings) {
  const base = config && typeof config === 'object' ? config : {};
  const topUse = base.use && typeof base.use === 'object' ? base.use : {};
  const named = Array.isArray(base.projects) && base.projects.length > 0;
  const projects = named ? base.projects : [{ name: '' }];
  const nameOf = (p) => (typeof p?.name === 'string' ? p.name : '');
  const browserOf = (use) => String(use.browserName ?? use.defaultBrowserType ?? 'chromium');
  const lacking = { firefox: 'Firefox', webkit: 'WebKit' };
  const notRun = new Map();
  for (const p of projects) {
    const browser = browserOf({ ...topUse, ...(p?.use ?? {}) });
    if (browser !== 'chromium') {
      notRun.set(nameOf(p), `this runner has no ${lacking[browser] ?? browser} browser (Playwright's own ${lacking[browser] ?? browser} build is not installed; only Chromium-based projects run, with the runtime's Chromium)`);
    }
  }
  // A project needing one that cannot run cannot run either.
  for (let changed = true; changed;) {
    changed = false;
    for (const p of projects) {
      if (notRun.has(nameOf(p))) continue;
      const missing = (Array.isArray(p?.dependencies) ? p.dependencies : []).find((d) => notRun.has(d));
      if (missing !== undefined) {
        notRun.set(nameOf(p), `it depends on project "${missing}", which cannot run on this runner`);
        changed = true;
      }
    }
  }
  const chromiumUse = (use) => {
    const notes = [];
    const launchOptions = { ...(topUse.launchOptions ?? {}), ...(use.launchOptions ?? {}) };
    const out = {
      ...use,
      headless: true,
      channel: undefined,
      launchOptions: {
        ...launchOptions,
        executablePath: settings.chromiumPath,
        args: [...(Array.isArray(launchOptions.args) ? launchOptions.args : []), ...settings.launchArgs],
      },
    };
    const video = use.video ?? topUse.video;
    if (settings.videoOffReason && video && video !== 'off' && (typeof video !== 'object' || video.mode !== 'off')) {
      out.video = 'off';
      notes.push(`videos are not recorded: ${settings.videoOffReason}`);
    }
    return { use: out, notes };
  };
  const adapt = (p) => {
    const reason = notRun.get(nameOf(p));
    if (reason !== undefined) {
      return { ...p, testMatch: /(?!)/, dependencies: [], teardown: undefined, metadata: { ...(p.metadata ?? {}), lookoutNotRun: reason } };
    }
    const { use, notes } = chromiumUse({ ...(p.use ?? {}) });
    return { ...p, use, metadata: { ...(p.metadata ?? {}), ...(notes.length ? { lookoutNotes: notes } : {}) } };
  };
  if (named) return { ...base, projects: base.projects.map(adapt) };
  // No projects: the config itself is the one project.
  const only = adapt({ name: '', use: topUse, metadata: base.metadata });
  return { ...base, use: only.use ?? topUse, metadata: only.metadata, ...(only.testMatch ? { testMatch: only.testMatch } : {}) };
}
