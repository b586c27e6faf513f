import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request the model received: its headers and its chat-completions body. */
export interface ModelRequest {
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
}

/** What the scripted model answers a turn with. */
export type ModelTurn =
  | { toolCalls: { name: string; arguments: Record<string, unknown> }[]; content?: string }
  | { content: string }
  | { status: number; error: string }
  /** Never answers (a model that hangs). */
  | { hang: true };

const offeredTools = (body: Record<string, any>): string[] =>
  (Array.isArray(body.tools) ? body.tools : []).map((t: Record<string, any>) => t?.function?.name).filter(Boolean);

/** A loopback OpenAI-compatible chat-completions server: the model of agentic checks in tests. */
export interface ScriptedModel {
  /** Base URL, as LOOKOUT_AGENTIC_MODEL_URL takes it (`/chat/completions` is appended). */
  url: string;
  requests: ModelRequest[];
  close(): Promise<void>;
}

/**
 * Answers `POST /chat/completions` with `script(request, turn)` (turn counts from 0 per conversation,
 * i.e. the number of assistant messages in the request): scripted tool calls stand in for a model.
 */
export async function startScriptedModel(script: (request: ModelRequest, turn: number) => ModelTurn): Promise<ScriptedModel> {
  const requests: ModelRequest[] = [];
  let callId = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const request = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any> };
      requests.push(request);
      const turn = (request.body.messages as { role: string }[]).filter((m) => m.role === 'assistant').length;
      const answer = script(request, turn);
      if ('hang' in answer) return;
      res.setHeader('content-type', 'application/json');
      // A scripted tool the request does not offer means the script is out of date with the runner's
      // tools: answer 400 naming them, so the test says so instead of passing on a stale script.
      const offered = offeredTools(request.body);
      const unknown = 'toolCalls' in answer ? answer.toolCalls.find((c) => !offered.includes(c.name)) : undefined;
      if (unknown) {
        res.statusCode = 400;
        res.end(JSON.stringify({ error: { message: `scripted tool "${unknown.name}" is not among the offered tools: ${offered.join(', ') || 'none'}` } }));
        return;
      }
      if ('status' in answer) {
        res.statusCode = answer.status;
        res.end(JSON.stringify({ error: { message: answer.error } }));
        return;
      }
      const toolCalls = 'toolCalls' in answer
        ? answer.toolCalls.map((c) => ({ id: `call_${++callId}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }))
        : undefined;
      res.end(JSON.stringify({
        id: `chatcmpl-${callId}`, object: 'chat.completion', model: request.body.model,
        choices: [{ index: 0, finish_reason: toolCalls ? 'tool_calls' : 'stop', message: { role: 'assistant', content: answer.content ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) } }],
      }));
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The turns of an agent that opens `url`, asserts each expectation, and finishes. */
export function agentScript(url: string, assertions: Record<string, unknown>[], extra: { content?: string } = {}): (request: ModelRequest, turn: number) => ModelTurn {
  return (_request, turn) => {
    if (turn === 0) return { toolCalls: [{ name: 'navigate', arguments: { url } }], ...(extra.content ? { content: extra.content } : {}) };
    if (turn === 1) return { toolCalls: assertions.map((a) => ({ name: 'assert', arguments: a })) };
    return { toolCalls: [{ name: 'finish', arguments: { summary: 'Checked the page as asked.', suggestions: [{ summary: 'Add a meta description', category: 'seo' }] } }] };
  };
}
