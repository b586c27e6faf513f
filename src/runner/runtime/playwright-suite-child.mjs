// Runs one Playwright check suite in the sandbox (run-playwright-check.ts): extracts the project's
// code bundle into the working folder, runs the runtime's @playwright/test on the project's own
// config (adapted by playwright-suite-config.mjs) and reports per test and per project. Plain
// JavaScript so it starts under bare `node`. The runner owns the time limit.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { adaptSuiteConfig } from './playwright-suite-config.mjs';
import { readJob, send } from './runner-channel.mjs';

const REPORT_FILE = '.lookout-playwright-report.json';
const MAX_ERROR = 4000;
/** Where Playwright looks for its config when none is named. */
const DEFAULT_CONFIGS = ['playwright.config.ts', 'playwright.config.js', 'playwright.config.mts', 'playwright.config.mjs', 'playwright.config.cts', 'playwright.config.cjs'];
// Playwright's own ANSI colours in messages and stacks (FORCE_COLOR=0 does not reach every one).
const ANSI = /\u001b\[[0-9;]*m/g;

const fail = (code, message) => send({ type: 'result', error: { code, message } });
const clean = (text) => String(text ?? '').replace(ANSI, '').slice(0, MAX_ERROR);

/**
 * job: {bundle (the archive, read-only), work (the writable working folder), workingDir and
 * configPath (as the CLI sent them, relative), args (Playwright arguments of testCommand without
 * --config), nodeModules (the runtime's packages), chromiumPath, launchArgs, ffmpegPath (the
 * runner's ffmpeg, or null), ffmpegMissing (why there is none), variables, globalTimeoutMs}.
 */
async function main(job) {
  const tar = spawnSync('tar', ['-xzf', job.bundle, '-C', job.work, '--no-same-owner', '--no-same-permissions'], { encoding: 'utf8' });
  if (tar.status !== 0) return fail('BUNDLE_ERROR', `the code bundle could not be extracted: ${(tar.stderr || tar.error?.message || `tar exited ${tar.status}`).trim()}`);
  // The project's imports of @playwright/test and friends resolve to the runtime's copies.
  const ownModules = path.join(job.work, 'node_modules');
  if (!existsSync(ownModules)) symlinkSync(job.nodeModules, ownModules, 'dir');

  const cwd = path.resolve(job.work, job.workingDir || '.');
  const configPath = job.configPath ?? DEFAULT_CONFIGS.find((name) => existsSync(path.join(cwd, name))) ?? DEFAULT_CONFIGS[0];
  const config = path.resolve(cwd, configPath);
  if (!isWithin(job.work, cwd) || !isWithin(job.work, config)) return fail('CONFIG_NOT_FOUND', `the Playwright config ${configPath} lies outside the project`);
  if (!existsSync(config) || !statSync(config).isFile()) return fail('CONFIG_NOT_FOUND', `the code bundle has no Playwright config at ${path.posix.join(job.workingDir || '.', configPath)}`);
  noteMissingPackages(job, cwd);

  const browsersPath = path.join(process.env.TMPDIR || '/tmp', 'ms-playwright');
  const videoOffReason = linkFfmpeg(job, browsersPath);
  const wrapper = writeWrapper(config, { chromiumPath: job.chromiumPath, launchArgs: job.launchArgs, videoOffReason });
  const report = path.join(job.work, REPORT_FILE);
  const args = [
    path.join(job.nodeModules, '@playwright', 'test', 'cli.js'), 'test', ...job.args,
    '--config', wrapper, '--reporter', 'list,json', '--pass-with-no-tests', '--global-timeout', String(job.globalTimeoutMs),
  ];
  const env = {
    ...pick(process.env, ['PATH', 'HOME', 'TMPDIR', 'LANG']), CI: '1', ...job.variables,
    FORCE_COLOR: '0', PLAYWRIGHT_JSON_OUTPUT_FILE: report, PLAYWRIGHT_BROWSERS_PATH: browsersPath,
  };
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exitCode = await new Promise((resolve) => {
    child.on('error', () => resolve(null));
    child.on('exit', (code) => resolve(code));
  });
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    return fail('PLAYWRIGHT_ERROR', `Playwright ended (exit ${exitCode}) without a report: see the log`);
  }
  send({ type: 'result', exitCode, ...summarize(parsed, job.work) });
}

/**
 * Makes the runner's ffmpeg Playwright's: Playwright records videos with the ffmpeg of its browser
 * registry (`$PLAYWRIGHT_BROWSERS_PATH/ffmpeg-<revision>/ffmpeg-linux`, a build that cannot be
 * downloaded here), so that file of this run's own registry (in its private TMPDIR) becomes a link
 * to the runner's. The path is the one Playwright's registry itself computes, so it follows
 * Playwright's revision and platform. Returns why videos cannot be recorded, or null.
 */
function linkFfmpeg(job, browsersPath) {
  if (!job.ffmpegPath) return job.ffmpegMissing || 'this runner has no ffmpeg';
  try {
    // The registry reads PLAYWRIGHT_BROWSERS_PATH once, when it loads.
    process.env.PLAYWRIGHT_BROWSERS_PATH = browsersPath;
    const load = createRequire(path.join(job.nodeModules, 'lookout-runtime.js'));
    const { registry } = load('playwright-core/lib/coreBundle').registry;
    const target = registry.findExecutable('ffmpeg').executablePath();
    if (!target) return 'Playwright has no ffmpeg for this platform';
    mkdirSync(path.dirname(target), { recursive: true });
    if (!existsSync(target)) symlinkSync(job.ffmpegPath, target);
    return null;
  } catch (err) {
    return `the runner's ffmpeg could not be given to Playwright: ${clean(err?.message ?? err)}`;
  }
}

/** The config Playwright is given: the user's, through adaptSuiteConfig, in a file of the same kind beside it. */
function writeWrapper(config, settings) {
  const ext = path.extname(config);
  const file = path.join(path.dirname(config), `lookout-suite-${process.pid}.config${ext}`);
  const own = `./${path.basename(config)}`;
  const adapt = `const adaptSuiteConfig = ${adaptSuiteConfig.toString()};\n`;
  const settingsJson = JSON.stringify(settings);
  const text = ext === '.cjs'
    ? `const loaded = require(${JSON.stringify(own)});\n${adapt}module.exports = adaptSuiteConfig(loaded.default ?? loaded, ${settingsJson});\n`
    : `import userConfig from ${JSON.stringify(own)};\n${adapt}export default adaptSuiteConfig(userConfig, ${settingsJson});\n`;
  writeFileSync(file, text);
  return file;
}

/** Logs the packages the project declares that the runtime does not carry (nothing is installed). */
function noteMissingPackages(job, cwd) {
  const manifests = [path.join(cwd, 'package.json'), path.join(job.work, 'package.json')];
  const file = manifests.find((f) => existsSync(f));
  if (!file) return;
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return;
  }
  const names = Object.keys({ ...(pkg.dependencies ?? {}), ...(pkg.devDependencies ?? {}) }).filter((n) => !n.startsWith('@types/'));
  const missing = names.filter((n) => !existsSync(path.join(job.nodeModules, n)));
  if (missing.length > 0) {
    console.error(`[lookout] the runtime does not carry ${missing.join(', ')}; Lookout installs no packages (installCommand is not run), so tests importing them fail`);
  }
}

/** Per test and per project, from Playwright's JSON report. */
function summarize(report, work) {
  const tests = [];
  const walk = (suite, titles) => {
    const here = suite.title && !suite.file?.endsWith(suite.title) ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const results = t.results ?? [];
        const last = results[results.length - 1];
        const errors = results.flatMap((r) => r.errors ?? []).map((e) => clean(e.message ?? e.value));
        tests.push({
          title: spec.title,
          titlePath: [...here, spec.title],
          file: spec.file,
          line: spec.line,
          project: t.projectName ?? '',
          outcome: t.status,
          status: last?.status ?? 'skipped',
          durationMs: results.reduce((sum, r) => sum + (r.duration ?? 0), 0),
          retries: Math.max(0, results.length - 1),
          errors: [...new Set(errors)],
          stdout: results.flatMap((r) => (r.stdout ?? []).map((o) => o.text ?? '')).join('').slice(0, MAX_ERROR),
          attachments: results.flatMap((r) => (r.attachments ?? []).filter((a) => typeof a.path === 'string').map((a) => ({
            name: a.name, contentType: a.contentType, path: path.relative(work, a.path),
          }))),
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  const projects = (report.config?.projects ?? []).map((p) => ({
    name: p.name ?? '',
    notRun: typeof p.metadata?.lookoutNotRun === 'string' ? p.metadata.lookoutNotRun : null,
    notes: Array.isArray(p.metadata?.lookoutNotes) ? p.metadata.lookoutNotes : [],
  }));
  return { tests, projects, errors: (report.errors ?? []).map((e) => clean(e.message ?? e.value)) };
}

function isWithin(dir, file) {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function pick(obj, keys) {
  return Object.fromEntries(keys.filter((k) => obj[k] !== undefined).map((k) => [k, obj[k]]));
}

main(readJob()).catch((err) => fail('RUNNER_ERROR', clean(err?.stack ?? err)));
