import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ProbeError, ProbeResult } from '../../domain/check-result.js';
import { evaluateAssertions, type Assertion } from '../../domain/evaluate-assertion.js';
import type { Executor, RunContext, RunnableCheck } from '../executor.js';
import { interpolateVariables, variableValues } from '../interpolate-variables.js';
import { finishProbe, guardedExecutor } from './finish-probe.js';
import { CANCELLED_CODE, TIMEOUT_CODE, hostPort, toProbeError } from './network-error.js';

/**
 * Once the reply has started, this long a silence ends it. Request/response protocols (echo,
 * SMTP and FTP banners, Redis PING) answer in one burst and then wait for the client, so waiting
 * for the peer to close would always run into the timeout; 250 ms is well above the gap between
 * the segments of one burst, even across continents, and short enough to keep checks quick.
 * A check that sends nothing and asserts nothing on the reply waits this long after connecting
 * for a banner, then passes on the connection alone.
 */
export const TCP_IDLE_GAP_MS = 250;

/** The reply is read (and kept in details.response) up to this many bytes; the rest is dropped. */
export const TCP_RESPONSE_CAP_BYTES = 16 * 1024;

interface Exchange {
  connected: boolean;
  /** ms from the start to the established connection. */
  connectTime: number | null;
  /** ms from the start to the first byte of the reply. */
  firstByteTime: number | null;
  bytesSent: number;
  bytesReceived: number;
  chunks: Buffer[];
  /** ms from the start to the end of the exchange. */
  elapsed: number;
  error: ProbeError | null;
  networkError: boolean;
}

/**
 * The TCP executor: connects to `request.hostname:port` (over `ipFamily`), sends `request.data`
 * with `{{VARIABLES}}` replaced, then reads the reply until the peer closes, TCP_IDLE_GAP_MS of
 * silence after the first bytes, TCP_RESPONSE_CAP_BYTES, or the attempt's time limit.
 *
 * RESPONSE_DATA assertions see the reply as UTF-8 text, RESPONSE_TIME the ms until the first
 * byte of the reply (until the connection was established and the data written when no reply
 * came and none was needed). When data was sent or the reply is asserted on, no reply within the
 * time limit is ETIMEDOUT. A reset after part of the reply arrived ends the reply instead of
 * failing it. details: `{connected, bytesSent, bytesReceived, response}`.
 */
export const runTcpCheck: Executor = guardedExecutor(probe, 'TCP_PROBE_FAILED', 'TCP check could not run');

async function probe(check: RunnableCheck, ctx: RunContext, startedAt: Date): Promise<ProbeResult> {
  const request = (check.data.request ?? {}) as Record<string, any>;
  const values = variableValues(ctx.variables);
  const hostname = typeof request.hostname === 'string' ? interpolateVariables(request.hostname, values).trim() : '';
  const port = request.port;
  const data = typeof request.data === 'string' ? interpolateVariables(request.data, values) : '';
  const assertions: Assertion[] = Array.isArray(request.assertions) ? request.assertions : [];

  if (!hostname || !Number.isInteger(port) || port < 1 || port > 65535) {
    return finishProbe(check, ctx, {
      startedAt, responseTime: 0, assertions: [], networkError: false, details: null,
      errors: [{ code: 'INVALID_REQUEST', message: 'TCP check needs request.hostname and a request.port of 1..65535' }],
    });
  }

  const replyNeeded = data !== '' || assertions.some((a) => a.source === 'RESPONSE_DATA');
  const exchange = await exchangeData({
    hostname, port, data, replyNeeded,
    family: request.ipFamily === 'IPv6' ? 6 : 4,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
  });

  const response = Buffer.concat(exchange.chunks).toString('utf8');
  const responseTime = Math.round(exchange.firstByteTime ?? exchange.elapsed);
  const errors = exchange.error ? [exchange.error] : [];
  const outcomes = exchange.error ? [] : evaluateAssertions(assertions, { kind: 'TCP', data: response, responseTime });
  return finishProbe(check, ctx, {
    startedAt,
    responseTime,
    errors,
    assertions: outcomes,
    networkError: exchange.networkError,
    details: {
      connected: exchange.connected,
      bytesSent: exchange.bytesSent,
      bytesReceived: exchange.bytesReceived,
      response,
    },
  });
}

interface ExchangeOptions {
  hostname: string;
  port: number;
  family: 4 | 6;
  data: string;
  replyNeeded: boolean;
  timeoutMs: number;
  signal: AbortSignal;
}

function exchangeData(o: ExchangeOptions): Promise<Exchange> {
  const t0 = performance.now();
  const target = hostPort(o.hostname, o.port);
  const x: Exchange = {
    connected: false, connectTime: null, firstByteTime: null, bytesSent: 0, bytesReceived: 0,
    chunks: [], elapsed: 0, error: null, networkError: false,
  };
  let captured = 0;

  return new Promise<Exchange>((resolve) => {
    let done = false;
    let idleTimer: NodeJS.Timeout | undefined;
    const socket = new net.Socket();

    const finish = (error: ProbeError | null = null, networkError = false): void => {
      if (done) return;
      done = true;
      x.elapsed = performance.now() - t0;
      x.error = error;
      x.networkError = networkError;
      clearTimeout(deadline);
      clearTimeout(idleTimer);
      o.signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(x);
    };
    const armIdle = (): void => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => finish(), TCP_IDLE_GAP_MS);
    };
    const onAbort = (): void => finish({ code: CANCELLED_CODE, message: `TCP check of ${target} was cancelled` });

    const deadline = setTimeout(() => {
      if (!x.connected) {
        finish({ code: TIMEOUT_CODE, message: `connecting to ${target} timed out after ${o.timeoutMs} ms` }, true);
      } else if (x.firstByteTime === null && o.replyNeeded) {
        finish({ code: TIMEOUT_CODE, message: `no reply from ${target} within ${o.timeoutMs} ms` }, true);
      } else {
        finish();
      }
    }, o.timeoutMs);
    if (o.signal.aborted) return onAbort();
    o.signal.addEventListener('abort', onAbort, { once: true });

    socket.on('connect', () => {
      x.connected = true;
      x.connectTime = performance.now() - t0;
      if (o.data !== '') {
        const bytes = Buffer.from(o.data, 'utf8');
        socket.write(bytes, (err) => {
          if (!err) x.bytesSent = bytes.length;
        });
      }
      if (!o.replyNeeded) armIdle();
    });
    socket.on('data', (chunk: Buffer) => {
      x.firstByteTime ??= performance.now() - t0;
      x.bytesReceived += chunk.length;
      const room = TCP_RESPONSE_CAP_BYTES - captured;
      if (room > 0) {
        const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
        x.chunks.push(kept);
        captured += kept.length;
      }
      if (captured >= TCP_RESPONSE_CAP_BYTES) finish();
      else armIdle();
    });
    const onPeerClosed = (): void => {
      if (!x.connected) finish({ code: 'ECONNCLOSED', message: `connection to ${target} closed before it was established` }, true);
      else if (x.firstByteTime === null && o.replyNeeded) finish({ code: 'ECONNCLOSED', message: `${target} closed the connection without replying` }, true);
      else finish();
    };
    socket.on('end', onPeerClosed);
    socket.on('close', onPeerClosed);
    socket.on('error', (err) => {
      if (x.firstByteTime !== null) return finish();
      finish(toProbeError(err, 'TCP_ERROR', `TCP connection to ${target}`), true);
    });

    socket.connect({ host: o.hostname, port: o.port, family: o.family });
  });
}
