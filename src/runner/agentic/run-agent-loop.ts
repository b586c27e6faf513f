import type { Page } from 'playwright-core';
import { AGENTIC_SYSTEM_PROMPT, AGENTIC_TOOLS, agenticSecretsNote } from '../../domain/agentic-tools.js';
import type { AgenticPromptVariables } from './agentic-prompt-variables.js';
import { ModelError, requestModelTurn, type ModelEndpoint, type ModelMessage } from './request-model-turn.js';
import { runBrowserTool, type AgenticAssertion, type AgenticSuggestion } from './run-browser-tool.js';
import type { BrowserJobAsset } from '../executors/run-browser-check.js';

/** One step of the agent's work, as CLI 8 prints them: a model message, a tool call, or its result. */
export interface AgenticStep {
  sequenceNumber: number;
  type: 'message' | 'tool_call' | 'tool_result';
  name: string | null;
  input: Record<string, unknown> | null;
  output: string | null;
  timestamp: string;
  /**
   * On the result of a tool that changes the page (navigate, click, type): the `file` of the
   * screenshot taken right after it (an entry of the report's jobAssets), or null when none was kept.
   */
  screenshot?: string | null;
}

/** What ended a run that did not finish normally. */
export interface AgentFailure {
  /** Also the code of the browser's end (BROWSER_CRASHED, a SANDBOX_* limit) when `signal` was aborted with one. */
  code: string;
  message: string;
}

/** Everything the agent did. */
export interface AgentReport {
  summary: string | null;
  steps: AgenticStep[];
  assertions: AgenticAssertion[];
  suggestions: AgenticSuggestion[];
  /** The screenshots of the steps, oldest first. */
  jobAssets: BrowserJobAsset[];
  failure: AgentFailure | null;
}

/** The run's model, browser page and bounds. */
export interface AgentLoopOptions {
  endpoint: ModelEndpoint;
  /** The prompt with the run's variables: what the model is told, how its tool calls get secret values, what it may read back. */
  prompt: Pick<AgenticPromptVariables, 'prompt' | 'secretPlaceholders' | 'toolArguments' | 'scrub'>;
  page: Page;
  /** Model turns at most. */
  maxSteps: number;
  /** Epoch ms by which the agent must be done. */
  deadlineAt: number;
  actionTimeoutMs: number;
  /** Aborted on cancellation, or with an AgentFailure as its reason when the browser is gone. */
  signal: AbortSignal;
  /**
   * Keeps a screenshot of the page named `name` within `timeoutMs` (takeStepScreenshot); called after
   * each navigate, click and type. Without it no screenshots are taken.
   */
  screenshot?: (name: string, timeoutMs: number) => Promise<BrowserJobAsset | null>;
}

/** The tools after which the page may look different, so a screenshot shows what they did. */
const PAGE_CHANGING_TOOLS = new Set(['navigate', 'click', 'type']);
/** Screenshots one run keeps at most (the first ones: how the agent got where it is). */
const MAX_SCREENSHOTS = 20;
const SCREENSHOT_TIMEOUT_MS = 5000;

const MAX_STEPS_RECORDED = 200;
const MAX_STEP_OUTPUT = 2000;

/**
 * The conversation of one agentic run: the prompt goes to the model with the browser tools; each
 * tool call it answers with runs on `page` and its output goes back, until it calls `finish`,
 * answers without a tool call, or runs out of turns (AGENTIC_MAX_STEPS) or time (ETIMEDOUT). A model
 * that fails (refused, malformed, silent) ends the run with AGENTIC_MODEL_ERROR and its reason.
 */
export async function runAgentLoop(o: AgentLoopOptions): Promise<AgentReport> {
  const report: AgentReport = { summary: null, steps: [], assertions: [], suggestions: [], jobAssets: [], failure: null };
  const step = (type: AgenticStep['type'], name: string | null, input: Record<string, unknown> | null, output: string | null) => {
    if (report.steps.length >= MAX_STEPS_RECORDED) return null;
    const text = output !== null && output.length > MAX_STEP_OUTPUT ? `${output.slice(0, MAX_STEP_OUTPUT)}…` : output;
    const recorded: AgenticStep = { sequenceNumber: report.steps.length + 1, type, name, input, output: text, timestamp: new Date().toISOString() };
    report.steps.push(recorded);
    return recorded;
  };
  /** The page after a page-changing tool, kept and named after the step it shows (`step-4-click.png`). */
  const screenshotOf = async (recorded: AgenticStep | null, tool: string) => {
    if (!recorded || !o.screenshot || !PAGE_CHANGING_TOOLS.has(tool) || o.signal.aborted) return;
    recorded.screenshot = null;
    if (report.jobAssets.length >= MAX_SCREENSHOTS) return;
    const left = o.deadlineAt - Date.now();
    if (left <= 0) return;
    const asset = await o.screenshot(`step-${recorded.sequenceNumber}-${tool}.png`, Math.min(SCREENSHOT_TIMEOUT_MS, left));
    if (!asset) return;
    report.jobAssets.push(asset);
    recorded.screenshot = asset.file;
  };
  const system = o.prompt.secretPlaceholders.length > 0 ? `${AGENTIC_SYSTEM_PROMPT} ${agenticSecretsNote(o.prompt.secretPlaceholders)}` : AGENTIC_SYSTEM_PROMPT;
  const messages: ModelMessage[] = [{ role: 'system', content: system }, { role: 'user', content: o.prompt.prompt }];
  for (let turn = 0; turn < o.maxSteps; turn++) {
    if (o.signal.aborted) return { ...report, failure: abortFailure(o.signal) };
    const left = o.deadlineAt - Date.now();
    if (left <= 0) return { ...report, failure: outOfTime(o) };
    let reply: ModelMessage;
    try {
      const deadline = AbortSignal.timeout(left);
      reply = await requestModelTurn({ ...o.endpoint, requestTimeoutMs: Math.min(o.endpoint.requestTimeoutMs, left) }, messages, AGENTIC_TOOLS, AbortSignal.any([o.signal, deadline]));
    } catch (err) {
      if (o.signal.aborted) return { ...report, failure: abortFailure(o.signal) };
      if (Date.now() >= o.deadlineAt) return { ...report, failure: outOfTime(o) };
      return { ...report, failure: { code: 'AGENTIC_MODEL_ERROR', message: err instanceof ModelError ? err.message : String(err) } };
    }
    messages.push(reply);
    if (reply.content) step('message', null, null, reply.content);
    if (!reply.tool_calls?.length) {
      // Done without `finish`: its last words are the summary.
      report.summary = reply.content;
      return report;
    }
    let finished = false;
    for (const call of reply.tool_calls) {
      const args = parseArguments(call.function.arguments);
      step('tool_call', call.function.name, args, null);
      const ran = args
        ? await runBrowserTool(o.page, call.function.name, o.prompt.toolArguments(call.function.name, args), Math.max(1, Math.min(o.actionTimeoutMs, o.deadlineAt - Date.now())))
        : { output: 'error: the arguments are not a JSON object' };
      // Secret values the page shows (or the URL carries) do not go back to the model.
      const outcome = { ...ran, output: o.prompt.scrub(ran.output) };
      await screenshotOf(step('tool_result', call.function.name, null, outcome.output), args ? call.function.name : '');
      if (outcome.assertion) report.assertions.push(outcome.assertion);
      if (outcome.finished) {
        report.summary = outcome.finished.summary;
        report.suggestions.push(...outcome.finished.suggestions);
        finished = true;
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.output });
    }
    if (finished) return report;
  }
  return { ...report, failure: { code: 'AGENTIC_MAX_STEPS', message: `the agent did not finish within ${o.maxSteps} model turns (LOOKOUT_AGENTIC_MAX_STEPS)` } };
}

/** Why the run was stopped from outside: the browser's end, or a cancellation. */
function abortFailure(signal: AbortSignal): AgentFailure {
  const reason = signal.reason as Partial<AgentFailure> | undefined;
  if (typeof reason?.code === 'string' && typeof reason.message === 'string') return { code: reason.code, message: reason.message };
  return { code: 'CANCELLED', message: 'the run was cancelled' };
}

function outOfTime(o: AgentLoopOptions): AgentFailure {
  return { code: 'ETIMEDOUT', message: `the agent did not finish within the run's time limit (${o.maxSteps} turns at most; LOOKOUT_AGENTIC_TIMEOUT_MS)` };
}

function parseArguments(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
