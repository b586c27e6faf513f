import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer of the model: a tool call (name and JSON arguments), or the final text. */
export type ModelTurn = { tool: string; arguments: Record<string, unknown> } | { final: string };

/** An OpenAI-compatible chat-completions endpoint on loopback answering from a script. */
export interface ScriptedModelServer {
  /** `http://127.0.0.1:<port>/v1` (a base URL; `POST …/chat/completions` is answered). */
  url: string;
  /** The request bodies received, in order. */
  requests: Record<string, any>[];
  close(): Promise<void>;
}

const toolNames = (body: Record<string, any>): string[] =>
  (Array.isArray(body.tools) ? body.tools : []).map((t: Record<string, any>) => t?.function?.name ?? t?.name).filter(Boolean);

/**
 * Starts it on 127.0.0.1, port 0. Turn k of `script(body)` answers the request that carries k tool
 * results (`role: "tool"` messages), so each conversation walks the script from the start; past the
 * end, the last turn repeats. A scripted tool the request does not offer is a 400 naming the tools
 * it did offer (the script is then out of date, and the test says so instead of passing).
 */
export async function startScriptedModelServer(script: (body: Record<string, any>) => ModelTurn[], model = 'scripted-model'): Promise<ScriptedModelServer> {
  const requests: Record<string, any>[] = [];
  let calls = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return send(404, { error: { message: `no route ${req.method} ${req.url}` } });
    let body: Record<string, any>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
    } catch {
      return send(400, { error: { message: 'body is not JSON' } });
    }
    requests.push(body);
    const turns = script(body);
    const done = (Array.isArray(body.messages) ? body.messages : []).filter((m: Record<string, any>) => m?.role === 'tool').length;
    const turn = turns[Math.min(done, turns.length - 1)]!;
    const offered = toolNames(body);
    if ('tool' in turn && !offered.includes(turn.tool)) {
      return send(400, { error: { message: `scripted tool "${turn.tool}" is not among the offered tools: ${offered.join(', ') || 'none'}` } });
    }
    calls++;
    const message = 'tool' in turn
      ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${calls}`, type: 'function', function: { name: turn.tool, arguments: JSON.stringify(turn.arguments) } }] }
      : { role: 'assistant', content: turn.final };
    send(200, {
      id: `chatcmpl-${calls}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model ?? model,
      choices: [{ index: 0, message, finish_reason: 'tool' in turn ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
