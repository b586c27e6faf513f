import type { Browser } from 'playwright-core';
import { sandboxLimitMessage } from '../sandbox/sandbox-limit-message.js';
import { SANDBOX_ERROR_CODES, type Sandbox, type SandboxExit } from '../sandbox/sandbox.js';
import { CHROMIUM_LAUNCH_ARGS } from '../executors/run-browser-check.js';

/** A Chromium running in the sandbox, driven from the runner. */
export interface SandboxedBrowser {
  browser: Browser;
  /** Settles when the sandboxed process ends (a limit, a crash, or close()), saying why. */
  exited: Promise<BrowserStartFailure>;
  /** Ends the browser, its sandboxed process and its run folder. */
  close(): Promise<void>;
}

/** Why no browser could be had: the code and the words of the result's error. */
export interface BrowserStartFailure {
  code: string;
  message: string;
}

/**
 * Starts Chromium in its own sandboxed run (agentic-browser-child.mjs: a Playwright server on
 * 127.0.0.1 with a random path) and connects to it. The sandbox ends it at `timeoutMs` or when
 * `signal` aborts; the conversation with the model never enters it.
 */
export async function startSandboxedBrowser(
  sandbox: Sandbox, chromiumPath: string, timeoutMs: number, signal: AbortSignal,
): Promise<SandboxedBrowser | BrowserStartFailure> {
  const folder = await sandbox.createRunFolder();
  let settle: (v: { wsEndpoint: string } | { error: string }) => void = () => undefined;
  const announced = new Promise<{ wsEndpoint: string } | { error: string }>((resolve) => { settle = resolve; });
  const errors: string[] = [];
  const run = folder.run({
    entry: 'agentic-browser-child.mjs',
    nodeArgs: ['--max-old-space-size=256'],
    job: { chromiumPath, launchArgs: CHROMIUM_LAUNCH_ARGS, launchTimeoutMs: Math.max(1000, timeoutMs - 1000) },
    timeoutMs,
    signal,
    onOutput: (stream, line) => { if (stream === 'stderr' && errors.length < 5) errors.push(line); },
    onMessage: (msg) => {
      if (msg.type === 'browser' && typeof msg.wsEndpoint === 'string') settle({ wsEndpoint: msg.wsEndpoint });
      else if (msg.type === 'error') settle({ error: String(msg.message ?? 'the browser could not start') });
    },
  });
  const ended = run.done.then((exit) => ({ error: exitReason(exit, errors) }));
  const close = async () => {
    run.stop();
    await run.done;
    await folder.close();
  };
  const first = await Promise.race([announced, ended]);
  if ('error' in first) {
    await close();
    return { code: 'BROWSER_LAUNCH_FAILED', message: first.error };
  }
  try {
    // Loaded on the first agentic run, not at start: playwright-core is a large module most servers never need.
    const { chromium } = await import('playwright-core');
    const browser = await chromium.connect(first.wsEndpoint, { timeout: Math.max(1000, timeoutMs) });
    return {
      browser,
      exited: run.done.then((exit) => ({ code: exitCode(exit), message: endReason(exit, errors, sandbox) })),
      close: async () => {
        await browser.close().catch(() => undefined);
        await close();
      },
    };
  } catch (err) {
    await close();
    return { code: 'BROWSER_LAUNCH_FAILED', message: `the sandboxed browser could not be reached: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The error code of a browser process that ended under the run. */
function exitCode(exit: SandboxExit): string {
  if (exit.limit === 'time') return 'ETIMEDOUT';
  if (exit.limit) return SANDBOX_ERROR_CODES[exit.limit];
  return 'BROWSER_CRASHED';
}

/** Why the browser went away while the agent used it. */
function endReason(exit: SandboxExit, errors: string[], sandbox: Sandbox): string {
  if (exit.limit === 'time') return "the browser was stopped at the run's time limit";
  if (exit.limit) return sandboxLimitMessage('the browser', exit.limit, sandbox);
  if (exit.cancelled) return 'the run was cancelled';
  return `the browser process exited (${exit.exitSignal ?? `code ${exit.exitCode}`}) during the run${errors.length ? `: ${errors.join(' | ')}` : ''}`;
}

function exitReason(exit: SandboxExit, errors: string[]): string {
  if (exit.startError) return `the browser process failed: ${exit.startError}`;
  if (exit.cancelled) return 'the run was cancelled before the browser started';
  if (exit.limit) return `the browser process reached the sandbox's ${exit.limit} limit before it started`;
  return `the browser process exited (${exit.exitSignal ?? `code ${exit.exitCode}`}) before the browser started${errors.length ? `: ${errors.join(' | ')}` : ''}`;
}
