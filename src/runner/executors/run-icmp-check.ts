import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { ProbeError, ProbeResult } from '../../domain/check-result.js';
import { evaluateAssertions, type Assertion } from '../../domain/evaluate-assertion.js';
import { parsePingOutput } from '../../domain/parse-ping-output.js';
import type { Executor, RunContext, RunnableCheck } from '../executor.js';
import { interpolateVariables, variableValues } from '../interpolate-variables.js';
import { finishProbe, guardedExecutor } from './finish-probe.js';
import { CANCELLED_CODE, TIMEOUT_CODE } from './network-error.js';

/**
 * Seconds between two pings. iputils' default is 1 s, which makes the allowed 50 pings last
 * close to a minute; 0.2 s is the shortest interval iputils allows without privileges and keeps
 * a default check (10 pings) around two seconds.
 */
export const PING_INTERVAL_SECONDS = 0.2;

/** After SIGINT (which makes ping print its statistics and exit) this long before SIGKILL. */
const KILL_GRACE_MS = 1000;
/** Output of ping kept for parsing and in details.output. */
const OUTPUT_CAP_CHARS = 64 * 1024;
const DETAILS_OUTPUT_CHARS = 4 * 1024;
const NETWORK_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'HOST_UNREACHABLE', TIMEOUT_CODE]);

export interface IcmpExecutorOptions {
  /** The ping program; `ping` from PATH by default (Debian's iputils-ping). */
  pingCommand?: string;
}

interface PingRun {
  output: string;
  exitCode: number | null;
  /** Set when ping could not be started at all. */
  spawnError: NodeJS.ErrnoException | null;
  stoppedBy: 'timeout' | 'cancel' | null;
  elapsed: number;
}

/**
 * An ICMP executor running the system `ping` as
 * `ping -c <pingCount> -n -i 0.2 -W <wait> -4|-6 -- <hostname>`, where `wait` is the check's
 * maxResponseTime in whole seconds (at least 1): a reply slower than that fails the run anyway.
 *
 * The output is read by parsePingOutput. RESPONSE_TIME and the degraded / max limits use the
 * average round trip. No reply at all fails with HOST_UNREACHABLE; ping failing before it sent
 * anything gives its reason's code (ENOTFOUND for an unknown host...). When the attempt's time
 * limit passes, ping gets SIGINT, which makes it print the statistics of the pings sent so far:
 * the run then carries them with an ETIMEDOUT error. Without a ping program the run errors with
 * PING_NOT_INSTALLED rather than pretending to pass. Assertions see LATENCY (avg, min, max,
 * stdDev) and JSON_RESPONSE over `{packetsSent, packetsReceived, packetLoss, latency, address}`.
 */
export function createIcmpExecutor(options: IcmpExecutorOptions = {}): Executor {
  const pingCommand = options.pingCommand ?? 'ping';
  return guardedExecutor((check, ctx, startedAt) => probe(pingCommand, check, ctx, startedAt), 'ICMP_PROBE_FAILED', 'ICMP check could not run');
}

/** The ICMP executor using `ping` from PATH. */
export const runIcmpCheck: Executor = createIcmpExecutor();

async function probe(pingCommand: string, check: RunnableCheck, ctx: RunContext, startedAt: Date): Promise<ProbeResult> {
  const request = (check.data.request ?? {}) as Record<string, any>;
  const hostname = typeof request.hostname === 'string' ? interpolateVariables(request.hostname, variableValues(ctx.variables)).trim() : '';
  const ipFamily = request.ipFamily === 'IPv6' ? 'IPv6' : 'IPv4';
  const pingCount = Number.isInteger(request.pingCount) ? Math.min(50, Math.max(1, request.pingCount)) : 10;
  const assertions: Assertion[] = Array.isArray(request.assertions) ? request.assertions : [];
  const fail = (error: ProbeError, networkError: boolean, details: Record<string, unknown> | null = null, elapsed = 0) =>
    finishProbe(check, ctx, { startedAt, responseTime: Math.round(elapsed), errors: [error], assertions: [], networkError, details, limitedTime: null });

  // Anything ping could read as an option or that no host name contains is refused up front.
  if (!hostname || hostname.startsWith('-') || /[\s\x00-\x1f\x7f]/.test(hostname) || hostname.length > 1024) {
    return fail({ code: 'INVALID_REQUEST', message: 'ICMP check needs a request.hostname that is a host name or an IP address' }, false);
  }
  if (ctx.signal.aborted) return fail({ code: CANCELLED_CODE, message: `ICMP check of ${hostname} was cancelled` }, false);
  const maxResponseTime = typeof check.data.maxResponseTime === 'number' ? check.data.maxResponseTime : 1000;
  const waitSeconds = Math.max(1, Math.ceil(maxResponseTime / 1000));
  const args = [
    '-c', String(pingCount), '-n', '-i', String(PING_INTERVAL_SECONDS), '-W', String(waitSeconds),
    ipFamily === 'IPv6' ? '-6' : '-4', '--', hostname,
  ];

  const run = await runPing(pingCommand, args, ctx);
  const baseDetails = { hostname, ipFamily, pingCount, output: run.output.slice(-DETAILS_OUTPUT_CHARS) };
  if (run.spawnError) {
    const missing = run.spawnError.code === 'ENOENT';
    return fail(missing
      ? { code: 'PING_NOT_INSTALLED', message: `the ping program (${pingCommand}) is not installed on this runner: install iputils-ping (apt-get install -y iputils-ping)` }
      : { code: 'PING_NOT_PERMITTED', message: `ping (${pingCommand}) could not be started: ${run.spawnError.message}` }, false, baseDetails);
  }

  const parsed = parsePingOutput(run.output);
  const summary = parsed.summary;
  const errors: ProbeError[] = [];
  if (run.stoppedBy === 'cancel') errors.push({ code: CANCELLED_CODE, message: `ICMP check of ${hostname} was cancelled` });
  else if (run.stoppedBy === 'timeout') errors.push({ code: TIMEOUT_CODE, message: `ping ${hostname} did not finish within ${ctx.timeoutMs} ms` });
  if (!summary) {
    if (errors.length === 0) errors.push(parsed.error ?? { code: 'PING_FAILED', message: firstLine(run.output) || `ping exited with code ${run.exitCode}` });
    const first = errors[0]!;
    return fail(first, NETWORK_CODES.has(first.code), baseDetails, run.elapsed);
  }
  if (summary.packetsReceived === 0 && errors.length === 0) {
    const reason = parsed.error ? ` (${parsed.error.message})` : '';
    errors.push({ code: 'HOST_UNREACHABLE', message: `no reply to ${summary.packetsSent} pings to ${hostname}${reason}` });
  }

  const outcomes = evaluateAssertions(assertions, { kind: 'ICMP', ...summary });
  return finishProbe(check, ctx, {
    startedAt,
    responseTime: Math.round(summary.latency?.avg ?? run.elapsed),
    limitedTime: summary.latency?.avg ?? null,
    errors,
    assertions: outcomes,
    networkError: errors.some((e) => NETWORK_CODES.has(e.code)),
    details: { ...baseDetails, ...summary },
  });
}

function firstLine(text: string): string {
  return text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
}

function runPing(command: string, args: string[], ctx: RunContext): Promise<PingRun> {
  const t0 = performance.now();
  return new Promise<PingRun>((resolve) => {
    const run: PingRun = { output: '', exitCode: null, spawnError: null, stoppedBy: null, elapsed: 0 };
    let killTimer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      run.elapsed = performance.now() - t0;
      clearTimeout(deadline);
      clearTimeout(killTimer);
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(run);
    };
    // LC_ALL=C: the statistics are parsed, so they must be printed in English.
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    const collect = (chunk: Buffer): void => {
      if (run.output.length < OUTPUT_CAP_CHARS) run.output += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const stop = (why: 'timeout' | 'cancel'): void => {
      if (settled || run.stoppedBy) return;
      run.stoppedBy = why;
      child.kill('SIGINT');
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    };
    const onAbort = (): void => stop('cancel');
    const deadline = setTimeout(() => stop('timeout'), ctx.timeoutMs);
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      run.spawnError = err;
      settle();
    });
    child.on('close', (code) => {
      run.exitCode = code;
      settle();
    });
  });
}
