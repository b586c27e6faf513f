import type { Page } from 'playwright-core';
import { AGENTIC_SYSTEM_PROMPT, AGENTIC_TOOLS } from '../../domain/agentic-tools.js';
import { ModelError, requestModelTurn, type ModelEndpoint, type ModelMessage } from './request-model-turn.js';
import { runBrowserTool, type AgenticAssertion, type AgenticSuggestion } from './run-browser-tool.js';

/** One step of the agent's work, as CLI 8 prints them: a model message, a tool call, or its result. */
export interface AgenticStep {
  sequenceNumber: number;
  type: 'message' | 'tool_call' | 'tool_result';
  name: string | null;
  input: Record<string, unknown> | null;
  output: string | null;
  timestamp: string;
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
  failure: AgentFailure | null;
}

/** The run's model, browser page and bounds. */
export interface AgentLoopOptions {
  endpoint: ModelEndpoint;
  prompt: string;
  page: Page;
  /** Model turns at most. */
  maxSteps: number;
  /** Epoch ms by which the agent must be done. */
  deadlineAt: number;
  actionTimeoutMs: number;
  /** Aborted on cancellation, or with an AgentFailure as its reason when the browser is gone. */
  signal: AbortSignal;
}

const MAX_STEPS_RECORDED = 200;
const MAX_STEP_OUTPUT = 2000;

/**
 * The conversation of one agentic run: the prompt goes to the model with the browser tools; each
 * tool call it answers with runs on `page` and its output goes back, until it calls `finish`,
 * answers without a tool call, or runs out of turns (AGENTIC_MAX_STEPS) or time (ETIMEDOUT). A model
 * that fails (refused, malformed, silent) ends the run with AGENTIC_MODEL_ERROR and its reason.
 */
export async function runAgentLoop(o: AgentLoopOptions): Promise<AgentReport> {
  const report: AgentReport = { summary: null, steps: [], assertions: [], suggestions: [], failure: null };
  const step = (type: AgenticStep['type'], name: string | null, input: Record<string, unknown> | null, output: string | null) => {
    if (report.steps.length >= MAX_STEPS_RECORDED) return;
    const text = output !== null && output.length > MAX_STEP_OUTPUT ? `${output.slice(0, MAX_STEP_OUTPUT)}…` : output;
    report.steps.push({ sequenceNumber: report.steps.length + 1, type, name, input, output: text, timestamp: new Date().toISOString() });
  };
  const messages: ModelMessage[] = [{ role: 'system', content: AGENTIC_SYSTEM_PROMPT }, { role: 'user', content: o.prompt }];
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
      const outcome = args
        ? await runBrowserTool(o.page, call.function.name, args, Math.max(1, Math.min(o.actionTimeoutMs, o.deadlineAt - Date.now())))
        : { output: 'error: the arguments are not a JSON object' };
      step('tool_result', call.function.name, null, outcome.output);
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
