import { constants as fsConstants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { AgenticSettings } from '../../config.js';
import { agenticModelMissingMessage } from '../../domain/agentic-check-issues.js';
import type { AssertionOutcome, ProbeError, ProbeResult } from '../../domain/check-result.js';
import { createScrubber, scrubDeep, secretValues } from '../../domain/scrub-secrets.js';
import { agenticPromptVariables } from '../agentic/agentic-prompt-variables.js';
import { runAgentLoop, type AgentReport } from '../agentic/run-agent-loop.js';
import { startSandboxedBrowser } from '../agentic/start-sandboxed-browser.js';
import { takeStepScreenshot } from '../agentic/take-step-screenshot.js';
import type { Executor, RunContext, RunnableCheck } from '../executor.js';
import { SANDBOX_ERROR_CODES, type Sandbox } from '../sandbox/sandbox.js';
import { finishProbe } from './finish-probe.js';
import { CANCELLED_CODE } from './network-error.js';

/** What agentic runs need: the model (null: none configured), the browser, the sandbox it runs in, where screenshots go. */
export interface AgenticRunnerOptions {
  settings: AgenticSettings | null;
  chromiumPath: string;
  sandbox: Sandbox;
  /** Folder the step screenshots are written to (config `assetsDir`, env LOOKOUT_ASSETS_DIR). */
  assetsDir: string;
}

/** The error code of runs of AGENTIC checks stored while no model is configured. */
export const AGENTIC_NOT_CONFIGURED = 'AGENTIC_MODEL_NOT_CONFIGURED';

const EMPTY_REPORT: AgentReport = { summary: null, steps: [], assertions: [], suggestions: [], jobAssets: [], failure: null };

/**
 * The executor of AGENTIC checks. Each attempt starts Chromium in the sandbox (as browser checks
 * do; startSandboxedBrowser) and holds the conversation with the configured model here in the
 * runner: the check's `prompt` and the browser tools (navigate, click, type, read_page, assert,
 * finish) go to `<LOOKOUT_AGENTIC_MODEL_URL>/chat/completions`, each tool call runs on the page,
 * within LOOKOUT_AGENTIC_MAX_STEPS turns and the shorter of the run's limit and LOOKOUT_AGENTIC_TIMEOUT_MS.
 *
 * The run passes when the agent made at least one assertion and all passed (each is evaluated on
 * the live page, not taken from the model). It fails with: a failed assertion (its expected and
 * actual values), AGENTIC_NO_ASSERTIONS, AGENTIC_MODEL_ERROR (the model refused, answered
 * nonsense or could not be reached), AGENTIC_MAX_STEPS, ETIMEDOUT, CANCELLED, NO_BROWSER,
 * BROWSER_LAUNCH_FAILED, BROWSER_CRASHED (the page crashed), a sandbox limit that ended the browser
 * (SANDBOX_MEMORY, …), SANDBOX_UNAVAILABLE, or AGENTIC_MODEL_NOT_CONFIGURED (a check stored while
 * the server had a model, run after it was removed). Every failure is a failed run, whatever
 * `shouldFail` says.
 *
 * The prompt's `{{NAME}}` placeholders take the run's variables (agenticPromptVariables: secret
 * values never go to the model). After each navigate, click and type a screenshot of the page is
 * kept in the assets folder: the step's `screenshot` names its file, listed in `jobAssets` as
 * browser checks list theirs (and served by the same routes).
 *
 * `agenticCheckResult` is `{summary, prompt (as the model got it), assertions: [{condition, kind,
 * passed, expected, actual}], suggestions: [{summary, category}], steps: [{sequenceNumber, type,
 * name, input, output, timestamp, screenshot?}], errors: [{error: {code, message}}], jobAssets:
 * [{name, type, contentType, size, file}], artifactManifest: null}`; the model's key and the run's
 * secret variables are scrubbed from it, and the model's name is not part of it.
 */
export function createAgenticCheckExecutor(options: AgenticRunnerOptions): Executor {
  return async (check, ctx) => {
    const startedAt = new Date();
    const settings = options.settings;
    const fail = (code: string, message: string) => finish(check, ctx, startedAt, settings, EMPTY_REPORT, { code, message });
    if (!settings) return fail(AGENTIC_NOT_CONFIGURED, agenticModelMissingMessage(check.name));
    if (!(await isExecutable(options.chromiumPath))) {
      return fail('NO_BROWSER', `no Chromium browser at ${options.chromiumPath}: install it with \`apt-get install chromium\` or set LOOKOUT_CHROMIUM_PATH to a Chromium binary`);
    }
    if (options.sandbox.unavailable) return fail(SANDBOX_ERROR_CODES.unavailable, `the browser cannot run: ${options.sandbox.unavailable} (LOOKOUT_SANDBOX)`);
    if (ctx.signal.aborted) return fail(CANCELLED_CODE, 'the run was cancelled before it started');
    const limitMs = Math.min(ctx.timeoutMs, settings.timeoutMs);
    const deadlineAt = startedAt.getTime() + limitMs;
    try {
      const started = await startSandboxedBrowser(options.sandbox, options.chromiumPath, limitMs + 5000, ctx.signal);
      if (!('browser' in started)) return fail(started.code, started.message);
      // A browser ended by a sandbox limit or a crash ends the conversation with that reason.
      const gone = new AbortController();
      void started.exited.then((why) => gone.abort(why));
      try {
        const context = await started.browser.newContext();
        const page = await context.newPage();
        page.on('crash', () => gone.abort({ code: 'BROWSER_CRASHED', message: `the page crashed in the browser at ${page.url()} (out of memory, or a renderer fault)` }));
        const prompt = agenticPromptVariables(String(check.data.prompt ?? ''), ctx.variables);
        const report = await runAgentLoop({
          endpoint: settings, prompt, page, maxSteps: settings.maxSteps, deadlineAt,
          actionTimeoutMs: 15_000, signal: AbortSignal.any([ctx.signal, gone.signal]),
          screenshot: (name, timeoutMs) => takeStepScreenshot(page, options.assetsDir, name, timeoutMs),
        });
        return finish(check, ctx, startedAt, settings, report, report.failure, prompt.prompt);
      } finally {
        await started.close();
      }
    } catch (err) {
      ctx.logger.error({ err: scrubDeep(String(err), keyScrubber(settings)), checkId: check.id }, 'agentic executor failed unexpectedly');
      return fail('RUNNER_ERROR', `the AGENTIC check could not run: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}

function finish(
  check: RunnableCheck, ctx: RunContext, startedAt: Date, settings: AgenticSettings | null, report: AgentReport, failure: { code: string; message: string } | null,
  prompt: string | null = typeof check.data.prompt === 'string' ? check.data.prompt : null,
): ProbeResult {
  const errors: ProbeError[] = failure ? [failure] : [];
  if (!failure && report.assertions.length === 0) {
    errors.push({ code: 'AGENTIC_NO_ASSERTIONS', message: 'the agent made no assertions, so nothing of the prompt was verified' });
  }
  const assertions: AssertionOutcome[] = report.assertions.map((a) => ({
    source: 'AGENT', property: a.condition, comparison: a.kind, target: a.expected, regex: null, actual: a.actual, passed: a.passed,
  }));
  const stoppedAt = new Date();
  const detail = {
    summary: report.summary,
    prompt,
    assertions: report.assertions,
    suggestions: report.suggestions,
    steps: report.steps,
    errors: errors.map((e) => ({ error: { code: e.code, message: e.message } })),
    jobAssets: report.jobAssets,
    artifactManifest: null,
  };
  const scrubKey = keyScrubber(settings);
  const probe = finishProbe(check, ctx, {
    startedAt, responseTime: stoppedAt.getTime() - startedAt.getTime(), errors: scrubDeep(errors, scrubKey), assertions: scrubDeep(assertions, scrubKey),
    networkError: false, details: null,
  }, stoppedAt);
  return {
    ...probe,
    hasFailures: probe.hasFailures || errors.length > 0 || assertions.some((a) => !a.passed),
    agenticCheckResult: scrubDeep(scrubDeep(detail, scrubKey), createScrubber(secretValues(ctx.variables))),
  };
}

/** Scrubs the model's key, should a page or the model echo it. */
function keyScrubber(settings: AgenticSettings | null): (text: string) => string {
  return createScrubber(settings?.modelKey ? [settings.modelKey] : []);
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}
