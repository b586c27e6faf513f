import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { ProbeError, ProbeResult } from '../../domain/check-result.js';
import { evaluateAssertions, type Assertion } from '../../domain/evaluate-assertion.js';
import { parseTracerouteOutput } from '../../domain/parse-traceroute-output.js';
import { summarizeTraceroute, trailingUnknownHops } from '../../domain/summarize-traceroute.js';
import type { Executor, RunContext, RunnableCheck } from '../executor.js';
import { interpolateVariables, variableValues } from '../interpolate-variables.js';
import { findTraceroute } from '../traceroute-command.js';
import { finishProbe, guardedExecutor } from './finish-probe.js';
import { CANCELLED_CODE, TIMEOUT_CODE } from './network-error.js';

const OUTPUT_CAP_CHARS = 64 * 1024;
const DETAILS_OUTPUT_CHARS = 4 * 1024;
const PROBES_PER_HOP = 3;
const NETWORK_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', TIMEOUT_CODE]);

/** Options of the executor (tests point it at another program). */
export interface TracerouteExecutorOptions {
  /** The traceroute program; found by findTraceroute when not given. */
  command?: () => string | null;
}

interface TraceRun {
  output: string;
  spawnError: NodeJS.ErrnoException | null;
  stoppedBy: 'timeout' | 'cancel' | 'unknown-hops' | null;
  elapsed: number;
}

/**
 * A TRACEROUTE executor running Debian's `traceroute` as
 * `traceroute -T|-U|-I [-p port] -m <maxHops> -q 3 -w <wait> [-n] -4|-6 -- <host>` (TCP SYN to
 * port 443 by default, UDP to the closed port 33434, ICMP echo), read by parseTracerouteOutput
 * and summarizeTraceroute: hops, the destination reached or not, its latency and loss. The trace
 * is stopped after `maxUnknownHops` unanswered hops in a row and at `timeout` seconds (what was
 * printed until then is kept). Not reaching the destination fails the run
 * (TRACEROUTE_DESTINATION_NOT_REACHED); RESPONSE_TIME and the degraded / max limits use the
 * destination's average round trip. Without the program the run errors with
 * TRACEROUTE_NOT_INSTALLED (and creating such a monitor is refused beforehand).
 */
export function createTracerouteExecutor(options: TracerouteExecutorOptions = {}): Executor {
  const command = options.command ?? (() => findTraceroute());
  return guardedExecutor((check, ctx, startedAt) => probe(command(), check, ctx, startedAt), 'TRACEROUTE_PROBE_FAILED', 'TRACEROUTE check could not run');
}

/** The TRACEROUTE executor using the system's traceroute. */
export const runTracerouteCheck: Executor = createTracerouteExecutor();

async function probe(command: string | null, check: RunnableCheck, ctx: RunContext, startedAt: Date): Promise<ProbeResult> {
  const request = (check.data.request ?? {}) as Record<string, any>;
  const host = typeof request.url === 'string' ? interpolateVariables(request.url, variableValues(ctx.variables)).trim() : '';
  const protocol = request.protocol === 'UDP' || request.protocol === 'ICMP' ? request.protocol : 'TCP';
  const port = protocol === 'ICMP' ? null : Number.isInteger(request.port) ? request.port : protocol === 'TCP' ? 443 : 33434;
  const maxHops = Number.isInteger(request.maxHops) ? request.maxHops : 30;
  const maxUnknownHops = Number.isInteger(request.maxUnknownHops) ? request.maxUnknownHops : 15;
  const timeoutMs = Math.min((Number.isInteger(request.timeout) ? request.timeout : 10) * 1000, ctx.timeoutMs);
  const assertions: Assertion[] = Array.isArray(request.assertions) ? request.assertions : [];
  const base = { hostname: host, protocol, port, maxHops };
  const fail = (error: ProbeError, networkError: boolean, details: Record<string, unknown>, elapsed = 0) =>
    finishProbe(check, ctx, { startedAt, responseTime: Math.round(elapsed), errors: [error], assertions: [], networkError, details: { ...base, ...details, error }, limitedTime: null });

  // Anything traceroute could read as an option, or that no host name contains, is refused up front.
  if (!host || host.startsWith('-') || /[\s\x00-\x1f\x7f/]/.test(host) || host.length > 253) {
    return fail({ code: 'INVALID_REQUEST', message: 'TRACEROUTE check needs a request.url that is a host name or an IP address' }, false, {});
  }
  if (!command) {
    return fail({ code: 'TRACEROUTE_NOT_INSTALLED', message: 'the traceroute program is not installed on this runner: install it (apt-get install -y traceroute)' }, false, {});
  }
  if (ctx.signal.aborted) return fail({ code: CANCELLED_CODE, message: `TRACEROUTE check of ${host} was cancelled` }, false, {});
  const waitSeconds = Math.max(1, Math.min(3, Math.floor(timeoutMs / 1000 / 2)));
  const args = [
    ...(protocol === 'TCP' ? ['-T'] : protocol === 'UDP' ? ['-U'] : ['-I']), ...(port !== null ? ['-p', String(port)] : []),
    '-m', String(maxHops), '-q', String(PROBES_PER_HOP), '-w', String(waitSeconds), ...(request.ptrLookup === false ? ['-n'] : []),
    request.ipFamily === 'IPv6' ? '-6' : '-4', '--', host,
  ];
  const run = await runTraceroute(command, args, timeoutMs, maxUnknownHops, ctx);
  const output = run.output.slice(-DETAILS_OUTPUT_CHARS);
  if (run.spawnError) {
    return fail(run.spawnError.code === 'ENOENT'
      ? { code: 'TRACEROUTE_NOT_INSTALLED', message: `the traceroute program (${command}) is not installed on this runner: install it (apt-get install -y traceroute)` }
      : { code: 'TRACEROUTE_NOT_PERMITTED', message: `traceroute could not be started: ${run.spawnError.message}` }, false, { output });
  }
  const parsed = parseTracerouteOutput(run.output);
  if (run.stoppedBy === 'cancel') return fail({ code: CANCELLED_CODE, message: `TRACEROUTE check of ${host} was cancelled` }, false, { output }, run.elapsed);
  if (parsed.hops.length === 0) {
    const error = run.stoppedBy === 'timeout'
      ? { code: TIMEOUT_CODE, message: `traceroute to ${host} printed no hop within ${timeoutMs} ms` }
      : parsed.error ?? { code: 'TRACEROUTE_FAILED', message: firstLine(run.output) || 'traceroute printed no hop' };
    return fail(error, NETWORK_CODES.has(error.code), { resolvedIp: parsed.resolvedIp, output }, run.elapsed);
  }
  const summary = summarizeTraceroute(parsed, { maxHops, stoppedForUnknownHops: run.stoppedBy === 'unknown-hops', timedOut: run.stoppedBy === 'timeout' });
  const errors: ProbeError[] = summary.destinationReached ? [] : [{
    code: 'TRACEROUTE_DESTINATION_NOT_REACHED',
    message: `traceroute to ${host}${summary.resolvedIp ? ` (${summary.resolvedIp})` : ''} did not reach it within ${summary.totalHops} hop(s) (${summary.truncationReason})`,
  }];
  const latency = summary.finalHopLatency;
  const outcomes = evaluateAssertions(assertions, {
    kind: 'TRACEROUTE',
    latency: latency ? { avg: latency.avgMs, min: latency.bestMs, max: latency.worstMs, stdDev: latency.stdDevMs } : null,
    hopCount: summary.totalHops,
    packetLoss: summary.packetLoss,
  });
  return finishProbe(check, ctx, {
    startedAt,
    responseTime: Math.round(latency?.avgMs ?? run.elapsed),
    limitedTime: latency?.avgMs ?? null,
    errors,
    assertions: outcomes,
    networkError: false,
    details: { ...base, ...summary, output },
  });
}

function firstLine(text: string): string {
  return text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
}

function runTraceroute(command: string, args: string[], timeoutMs: number, maxUnknownHops: number, ctx: RunContext): Promise<TraceRun> {
  const t0 = performance.now();
  return new Promise<TraceRun>((resolve) => {
    const run: TraceRun = { output: '', spawnError: null, stoppedBy: null, elapsed: 0 };
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      run.elapsed = performance.now() - t0;
      clearTimeout(deadline);
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(run);
    };
    // LC_ALL=C: the output is parsed.
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' } });
    const stop = (why: 'timeout' | 'cancel' | 'unknown-hops'): void => {
      if (settled || run.stoppedBy) return;
      run.stoppedBy = why;
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (run.output.length < OUTPUT_CAP_CHARS) run.output += chunk.toString('utf8');
      if (trailingUnknownHops(parseTracerouteOutput(run.output).hops) >= maxUnknownHops) stop('unknown-hops');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (run.output.length < OUTPUT_CAP_CHARS) run.output += chunk.toString('utf8');
    });
    const onAbort = (): void => stop('cancel');
    const deadline = setTimeout(() => stop('timeout'), timeoutMs);
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      run.spawnError = err;
      settle();
    });
    child.on('close', () => settle());
  });
}
