/**
 * A subscriber fleet for `bench/graphql.ts`: opens many graphql-ws sockets (protocol
 * `graphql-transport-ws`, spoken directly over `ws` so the load generator costs as little CPU as
 * possible), subscribes once per socket and measures publish-to-receipt latency from the publish
 * time the server puts in `result.sequenceId` (epoch ms; both processes read the same clock).
 *
 * IPC (by bench/graphql.ts only): `connect` → `connected`; `measure` starts recording; `report` →
 * the latencies recorded since; `stop` closes every socket and exits.
 */
import WebSocket from 'ws';

/** Which subscription each socket starts. */
export interface ConnectMessage {
  type: 'connect';
  url: string;
  apiKey: string;
  accountId: string;
  sockets: number;
  /** Index of this fleet's first socket among all fleets (spreads filters evenly). */
  offset: number;
  query: string;
  /** Variables of socket i (global index): `variables[i % variables.length]`. */
  variables: Record<string, unknown>[];
  /** Handshakes in flight at once. */
  concurrency: number;
}

export interface ConnectedMessage {
  type: 'connected';
  sockets: number;
  failures: number;
  firstError: string | null;
  ms: number;
}

export interface ReportMessage {
  type: 'report';
  /** Publish-to-receipt latencies in ms. */
  latencies: number[];
  received: number;
  /** Sockets closed by the server or by an error since connecting. */
  closed: number;
  closeCodes: Record<string, number>;
  errors: number;
  /** CPU time (user + system) of this process since `measure`. */
  cpuMs: number;
}

type Command = ConnectMessage | { type: 'measure' } | { type: 'report' } | 'stop';

const MARK = '"sequenceId":"';
const sockets: WebSocket[] = [];
let recording = false;
let latencies = new Float64Array(1 << 16);
let count = 0;
let received = 0;
let closed = 0;
let errors = 0;
let cpuAtMeasure = process.cpuUsage();
const closeCodes: Record<string, number> = {};

function record(ms: number): void {
  if (count === latencies.length) {
    const grown = new Float64Array(latencies.length * 2);
    grown.set(latencies);
    latencies = grown;
  }
  latencies[count++] = ms;
}

/** Handles one frame; only `next` frames during recording cost more than a type check. */
function onFrame(ws: WebSocket, data: string): void {
  // `{"id":"1","type":"next","payload":...}`: the envelope is graphql-ws's, the payload follows.
  if (data.startsWith('{"type":"ping"')) {
    ws.send('{"type":"pong"}');
    return;
  }
  if (!data.includes('"type":"next"')) {
    if (data.includes('"type":"error"')) errors++;
    return;
  }
  received++;
  if (!recording) return;
  const at = data.indexOf(MARK);
  if (at < 0) return;
  const sent = Number(data.slice(at + MARK.length, data.indexOf('"', at + MARK.length)));
  record(performance.timeOrigin + performance.now() - sent);
}

/** Opens one socket, authenticates and subscribes; resolves once the subscribe message is sent. */
function open(msg: ConnectMessage, index: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${msg.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { perMessageDeflate: false });
    let acked = false;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${msg.apiKey}`, accountId: msg.accountId } })));
    ws.on('message', (raw) => {
      const data = String(raw);
      if (acked) return onFrame(ws, data);
      if (data.includes('"connection_ack"')) {
        acked = true;
        sockets.push(ws);
        const variables = msg.variables[index % msg.variables.length];
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: msg.query, variables } }));
        resolve();
      }
    });
    ws.on('error', (err) => {
      if (!acked) reject(err);
    });
    ws.on('close', (code) => {
      if (!acked) return reject(new Error(`closed with ${code} before connection_ack`));
      closed++;
      closeCodes[code] = (closeCodes[code] ?? 0) + 1;
    });
  });
}

async function connect(msg: ConnectMessage): Promise<ConnectedMessage> {
  const started = performance.now();
  let next = 0;
  let failures = 0;
  let firstError: string | null = null;
  const lane = async () => {
    while (next < msg.sockets) {
      const i = next++;
      try {
        await open(msg, msg.offset + i);
      } catch (err) {
        failures++;
        firstError ??= (err as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(msg.concurrency, msg.sockets) }, lane));
  return { type: 'connected', sockets: sockets.length, failures, firstError, ms: performance.now() - started };
}

process.on('message', (msg: Command) => {
  if (msg === 'stop') {
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
  if (msg.type === 'connect') void connect(msg).then((r) => process.send!(r));
  else if (msg.type === 'measure') {
    count = 0;
    received = 0;
    recording = true;
    cpuAtMeasure = process.cpuUsage();
  } else if (msg.type === 'report') {
    recording = false;
    const cpu = process.cpuUsage(cpuAtMeasure);
    const report: ReportMessage = {
      type: 'report', latencies: Array.from(latencies.subarray(0, count), (v) => Math.round(v * 100) / 100), received, closed, closeCodes, errors, cpuMs: (cpu.user + cpu.system) / 1000,
    };
    process.send!(report);
  }
});
process.on('disconnect', () => {
  for (const ws of sockets) ws.terminate();
  process.exit(0);
});
