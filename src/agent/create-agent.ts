import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { Agent as HttpAgent, request } from 'undici';
import type { CheckType } from '../domain/catalog.js';
import type { ProbeResult } from '../domain/check-result.js';
import { isCodeBundleKey, storedFileName } from '../domain/code-bundle-key.js';
import { LeaseLostError } from '../domain/lease-lost-error.js';
import { assetFilesOf } from '../domain/result-asset-files.js';
import { createScrubber } from '../domain/scrub-secrets.js';
import type { Executor, RunClientCertificate, RunnableCheck, RunVariable } from '../runner/executor.js';
import { abortableSleep, runCheck, type RecordInput } from '../runner/run-check.js';
import { scrubbingLogger } from '../runner/scrubbing-logger.js';
import { errorProbe } from '../runner/special-probes.js';
import { createAgentHealthServer, type AgentHealthServer } from './create-agent-health-server.js';

/** Options of createAgent. */
export interface AgentOptions {
  /** The Lookout service (`LOOKOUT_SERVICE_URL`). */
  serviceUrl: string;
  /** A private location key, or the data-center agent key (`LOOKOUT_AGENT_KEY`). */
  key: string;
  /** With the data-center key: the location served (`LOOKOUT_AGENT_LOCATION`). */
  location?: string;
  /** Runs at once at most (`LOOKOUT_AGENT_CONCURRENCY`). */
  concurrency: number;
  /** Port of /-/readiness, /-/liveness and /health (`AGENT_HEALTH_PORT`, 0: any free port). */
  healthPort: number;
  healthHost?: string;
  executors: Partial<Record<CheckType, Executor>>;
  /** Where executors leave asset files before they are uploaded. */
  assetsDir: string;
  logger: Logger;
  version: string;
  /** `LOOKOUT_SECRET_*` of the agent's environment: usable as variables, scrubbed everywhere. */
  localSecrets?: RunVariable[];
  /** Longest wait of one lease request for a due run. */
  waitMs?: number;
  /** Back-off after a failed request, from min doubling up to max. */
  backoff?: { minMs: number; maxMs: number };
}

/** A run leased from the service. */
interface LeasedJob {
  jobId: string;
  location: string;
  sequenceId: string;
  check: RunnableCheck;
  variables: RunVariable[];
  clientCertificates: RunClientCertificate[];
}

/** A running agent. */
export interface LookoutAgent {
  readonly id: string;
  /** Where the health endpoints answer. */
  readonly healthUrl: string;
  stats(): { running: number; leased: number; recorded: number; connected: boolean };
  /** Stops leasing, finishes the runs in flight, says goodbye to the service. */
  close(): Promise<void>;
}

class ServiceError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** The fields of a probe the service takes (executors may carry more for themselves). */
function wireProbe(p: ProbeResult) {
  return {
    startedAt: p.startedAt, stoppedAt: p.stoppedAt, responseTime: p.responseTime, hasFailures: p.hasFailures, hasErrors: p.hasErrors,
    isDegraded: p.isDegraded, overMaxResponseTime: p.overMaxResponseTime, networkError: p.networkError,
    errors: p.errors.map((e) => ({ code: e.code, message: e.message })), assertions: p.assertions,
    apiCheckResult: p.apiCheckResult ?? null, browserCheckResult: p.browserCheckResult ?? null,
    multiStepCheckResult: p.multiStepCheckResult ?? null, agenticCheckResult: p.agenticCheckResult ?? null, details: p.details ?? null,
  };
}

/**
 * A private-location (or data-center) agent: leases due runs of its location from the service
 * (long poll, back-off while the service cannot be reached), runs them with the runner's
 * executors, uploads their assets and posts every attempt, renewing its leases while it runs.
 * A lease the service says is lost stops its run. On close it stops leasing, finishes what it
 * runs (readiness answers 503 meanwhile) and tells the service it left. Values of secret
 * variables and of `localSecrets` are scrubbed from what it logs and posts.
 * Long by design: the lease loop, lease renewals, uploads, health and shutdown share the runs in flight and must stop in one order; the executors, scrubbing and uploads live in their own files.
 */
export async function createAgent(options: AgentOptions): Promise<LookoutAgent> {
  const id = randomUUID();
  const base = options.serviceUrl.replace(/\/+$/, '');
  const waitMs = options.waitMs ?? 10_000;
  const backoff = options.backoff ?? { minMs: 500, maxMs: 30_000 };
  const localSecrets = options.localSecrets ?? [];
  const logger = scrubbingLogger(options.logger, createScrubber(localSecrets.map((v) => v.value))).child({ agentId: id });
  const http = new HttpAgent({ keepAliveTimeout: 30_000, connections: options.concurrency + 4 });
  const running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  const stopping = new AbortController();
  let connected = false;
  let renewMs = 5_000;
  let leased = 0;
  let recorded = 0;
  let slotFree: (() => void) | null = null;

  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${options.key}`,
    ...(options.location ? { 'x-lookout-location': options.location } : {}),
    ...extra,
  });
  const self = () => ({ agentId: id, version: options.version, hostname: os.hostname(), concurrency: options.concurrency, running: running.size });

  async function call<T>(method: 'POST' | 'PUT', route: string, body: unknown, signal?: AbortSignal, extraHeaders?: Record<string, string>): Promise<T> {
    const isStream = body !== null && typeof body === 'object' && typeof (body as NodeJS.ReadableStream).pipe === 'function';
    const res = await request(`${base}${route}`, {
      method, dispatcher: http, signal,
      headers: headers({ 'content-type': isStream ? 'application/octet-stream' : 'application/json', ...extraHeaders }),
      body: isStream ? (body as NodeJS.ReadableStream as never) : JSON.stringify(body),
      headersTimeout: waitMs + 15_000,
    });
    const text = await res.body.text();
    if (res.statusCode >= 400) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch { /* not JSON: the text is the message */ }
      throw new ServiceError(res.statusCode, `${method} ${route}: ${res.statusCode} ${message}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Uploads the asset files a probe names, then posts the attempt; a lost lease stops the run. */
  async function post(job: LeasedJob, input: RecordInput): Promise<Record<string, any>> {
    const files = assetFilesOf(input.probe);
    for (const file of files) {
      const full = path.join(options.assetsDir, file);
      const size = (await stat(full)).size;
      await call('PUT', `/v1/agent/jobs/${job.jobId}/assets/${file}`, createReadStream(full), undefined, { 'x-lookout-agent': id, 'content-length': String(size) });
    }
    const body = {
      agentId: id, sentAt: new Date().toISOString(), sequenceId: job.sequenceId, attempts: input.attempts,
      resultType: input.resultType, probe: wireProbe(input.probe),
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await call<{ id: string; resultType: string }>('POST', `/v1/agent/jobs/${job.jobId}/results`, body);
        recorded++;
        await Promise.all(files.map((f) => rm(path.join(options.assetsDir, f), { force: true })));
        return answer;
      } catch (err) {
        if (err instanceof ServiceError && err.status === 409) throw new LeaseLostError(job.jobId);
        // The service may be restarting: try again while the lease lasts (a repeat is recorded once).
        if ((err instanceof ServiceError && err.status < 500) || attempt >= 5 || stopping.signal.aborted && attempt >= 3) throw err;
        logger.warn({ err, jobId: job.jobId, attempt }, 'posting a result failed; trying again');
        await new Promise((resolve) => setTimeout(resolve, Math.min(backoff.maxMs, backoff.minMs * 2 ** (attempt - 1))));
      }
    }
  }

  /**
   * A Playwright check suite runs from its code bundle: fetched from the service into the folder
   * the executor reads (`<assetsDir>/checkly-storage/<account>/`) unless already there (a key's
   * bundle never changes).
   */
  async function fetchCodeBundle(job: LeasedJob, signal: AbortSignal): Promise<void> {
    const key = job.check.data.codeBundlePath;
    if (job.check.checkType !== 'PLAYWRIGHT' || !isCodeBundleKey(key)) return;
    const file = path.join(options.assetsDir, 'checkly-storage', job.check.accountId, storedFileName(key));
    if (await stat(file).then((s) => s.isFile(), () => false)) return;
    const res = await request(`${base}/v1/agent/jobs/${job.jobId}/code-bundle`, { method: 'GET', dispatcher: http, signal, headers: headers({ 'x-lookout-agent': id }) });
    if (res.statusCode !== 200) {
      const text = await res.body.text();
      throw new ServiceError(res.statusCode, `GET code bundle of run ${job.jobId}: ${res.statusCode} ${text}`);
    }
    await mkdir(path.dirname(file), { recursive: true });
    const part = `${file}.${randomUUID()}.part`;
    try {
      await pipeline(res.body, createWriteStream(part, { flags: 'wx' }));
      await rename(part, file);
    } finally {
      await rm(part, { force: true });
    }
  }

  async function runJob(job: LeasedJob, abort: AbortController): Promise<void> {
    const record = (input: RecordInput) => post(job, input);
    const executor = options.executors[job.check.checkType];
    try {
      // Without its bundle the suite's executor says so (NO_CODE_BUNDLE) in the result.
      await fetchCodeBundle(job, abort.signal).catch((err: unknown) => logger.warn({ err, jobId: job.jobId }, 'could not fetch the code bundle'));
      if (!executor) {
        await record({
          check: job.check, location: job.location, sequenceId: job.sequenceId, attempts: 1, resultType: 'FINAL',
          probe: errorProbe('NOT_SUPPORTED', `${job.check.checkType} checks are not supported by this agent`),
        });
      } else {
        await runCheck({
          check: job.check, variables: [...job.variables, ...localSecrets], clientCertificates: job.clientCertificates,
          locations: [job.location], allLocations: [job.location], executor, record, signal: abort.signal, logger, sequenceId: job.sequenceId,
        });
      }
    } catch (err) {
      if (err instanceof LeaseLostError) logger.warn({ jobId: job.jobId, checkId: job.check.id }, 'run dropped: its lease was lost');
      else logger.error({ err, jobId: job.jobId, checkId: job.check.id }, 'run failed');
    }
    // Ended without all its results (it threw): closed, not retried. A no-op once its FINAL is in.
    await call('POST', `/v1/agent/jobs/${job.jobId}/done`, { agentId: id }).catch((err: unknown) => {
      if (!(err instanceof ServiceError && err.status === 409)) logger.warn({ err, jobId: job.jobId }, 'closing a run failed');
    });
  }

  function start(job: LeasedJob): void {
    leased++;
    const abort = new AbortController();
    const done = runJob(job, abort).finally(() => {
      running.delete(job.jobId);
      slotFree?.();
    });
    running.set(job.jobId, { abort, done });
  }

  async function renew(): Promise<void> {
    try {
      const { lost } = await call<{ lost: string[] }>('POST', '/v1/agent/leases/renew', { ...self(), jobIds: [...running.keys()] });
      setConnected(true);
      for (const jobId of lost) {
        running.get(jobId)?.abort.abort();
        logger.warn({ jobId }, 'lease lost: the run is stopped, another agent takes it');
      }
    } catch (err) {
      setConnected(false, err);
    }
  }

  function setConnected(now: boolean, err?: unknown): void {
    if (now === connected) return;
    connected = now;
    if (now) logger.info({ serviceUrl: base }, 'agent connected');
    else logger.warn({ err, serviceUrl: base }, 'agent disconnected; retrying with back-off');
  }

  async function leaseLoop(): Promise<void> {
    let delay = backoff.minMs;
    while (!stopping.signal.aborted) {
      const free = options.concurrency - running.size;
      if (free <= 0) {
        await new Promise<void>((resolve) => {
          slotFree = resolve;
          stopping.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        slotFree = null;
        continue;
      }
      try {
        const answer = await call<{ jobs: LeasedJob[]; renewMs: number }>('POST', '/v1/agent/leases', { ...self(), max: free, waitMs }, stopping.signal);
        setConnected(true);
        delay = backoff.minMs;
        if (answer.renewMs !== renewMs) {
          renewMs = answer.renewMs;
          scheduleRenew();
        }
        for (const job of answer.jobs) start(job);
      } catch (err) {
        if (stopping.signal.aborted) return;
        setConnected(false, err);
        if (err instanceof ServiceError && err.status === 401) logger.error({ status: 401 }, 'the service refused the agent key');
        await abortableSleep(delay, stopping.signal);
        delay = Math.min(backoff.maxMs, delay * 2);
      }
    }
  }

  let renewTimer: NodeJS.Timeout | undefined;
  function scheduleRenew(): void {
    if (renewTimer) clearInterval(renewTimer);
    renewTimer = setInterval(() => void renew(), renewMs);
  }

  let health: AgentHealthServer;
  try {
    health = await createAgentHealthServer({
      port: options.healthPort, host: options.healthHost,
      status: () => ({ ready: connected && !stopping.signal.aborted, connected, running: running.size, version: options.version, agentId: id }),
    });
  } catch (err) {
    await http.close();
    throw err;
  }
  scheduleRenew();
  const loop = leaseLoop();
  logger.info({ serviceUrl: base, location: options.location, concurrency: options.concurrency, healthUrl: health.url, version: options.version }, 'agent started');

  return {
    id,
    healthUrl: health.url,
    stats: () => ({ running: running.size, leased, recorded, connected }),
    async close() {
      if (stopping.signal.aborted) return;
      logger.info({ running: running.size }, 'agent stopping: finishing the runs in flight');
      stopping.abort();
      await loop;
      await Promise.allSettled([...running.values()].map((r) => r.done));
      if (renewTimer) clearInterval(renewTimer);
      await call('POST', '/v1/agent/leave', { agentId: id }).catch((err: unknown) => logger.warn({ err }, 'telling the service the agent left failed'));
      await health.close();
      await http.close();
      logger.info({ recorded }, 'agent stopped');
    },
  };
}

/** The `LOOKOUT_SECRET_*` variables of an environment, as secret run variables. */
export function localSecretsOf(env: NodeJS.ProcessEnv): RunVariable[] {
  return Object.entries(env)
    .filter((e): e is [string, string] => e[0].startsWith('LOOKOUT_SECRET_') && typeof e[1] === 'string' && e[1] !== '')
    .map(([key, value]) => ({ key, value, secret: true }));
}
