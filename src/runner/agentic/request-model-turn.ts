import { request } from 'undici';

/** A tool call the model asked for (OpenAI chat-completions). */
export interface ModelToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One message of the conversation, as chat-completions takes and gives them. */
export interface ModelMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ModelToolCall[];
  tool_call_id?: string;
}

/** Where and how to reach the model. */
export interface ModelEndpoint {
  modelUrl: string;
  modelKey: string | null;
  model: string;
  requestTimeoutMs: number;
}

/** The model could not answer: the message says why, without the key. */
export class ModelError extends Error {
  constructor(message: string, readonly timedOut = false) {
    super(message);
    this.name = 'ModelError';
  }
}

const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/**
 * One chat-completions request (`POST <modelUrl>/chat/completions`) with `tools`: the assistant's
 * message. Throws ModelError on a refused request, a malformed answer or no answer in time; the
 * key travels only in the Authorization header and is never part of a message.
 */
export async function requestModelTurn(endpoint: ModelEndpoint, messages: readonly ModelMessage[], tools: readonly unknown[], signal: AbortSignal): Promise<ModelMessage> {
  const url = `${endpoint.modelUrl.replace(/\/+$/, '')}/chat/completions`;
  const timeout = AbortSignal.timeout(endpoint.requestTimeoutMs);
  let text: string;
  let status: number;
  try {
    const res = await request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.modelKey ? { authorization: `Bearer ${endpoint.modelKey}` } : {}),
      },
      body: JSON.stringify({ model: endpoint.model, messages, tools, tool_choice: 'auto' }),
      signal: AbortSignal.any([signal, timeout]),
      headersTimeout: endpoint.requestTimeoutMs,
      bodyTimeout: endpoint.requestTimeoutMs,
    });
    status = res.statusCode;
    text = await readCapped(res.body);
  } catch (err) {
    if (err instanceof ModelError) throw err;
    if (timeout.aborted) throw new ModelError(`the model at ${url} did not answer within ${endpoint.requestTimeoutMs} ms`, true);
    if (signal.aborted) throw new ModelError('the run was stopped while waiting for the model', true);
    throw new ModelError(`the model at ${url} could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (status < 200 || status >= 300) {
    throw new ModelError(`the model at ${url} answered HTTP ${status}${errorDetail(text)}`);
  }
  let answer: Record<string, any>;
  try {
    answer = JSON.parse(text) as Record<string, any>;
  } catch {
    throw new ModelError(`the model at ${url} answered something that is not JSON`);
  }
  const message = answer?.choices?.[0]?.message;
  if (!message || typeof message !== 'object') throw new ModelError(`the model at ${url} answered no choices[0].message`);
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isToolCall) : [];
  return { role: 'assistant', content: typeof message.content === 'string' ? message.content : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
}

function isToolCall(c: unknown): c is ModelToolCall {
  const call = c as Record<string, any> | null;
  return typeof call?.id === 'string' && typeof call.function?.name === 'string' && typeof call.function.arguments === 'string';
}

/** The error an OpenAI-compatible server explains itself with, if any, shortened. */
function errorDetail(text: string): string {
  try {
    const message = (JSON.parse(text) as Record<string, any>)?.error?.message;
    if (typeof message === 'string' && message) return `: ${message.slice(0, 500)}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return '';
}

async function readCapped(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) throw new ModelError(`the model's answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
