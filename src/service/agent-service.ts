import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { AGENT_LIVE_MS, agentLeaseOwner, dataCenterLane, privateLocationLane } from '../domain/agent-lanes.js';
import { hashApiKey } from '../domain/api-key.js';
import { isCodeBundleKey, storedFileName } from '../domain/code-bundle-key.js';
import { isSameSecret } from '../domain/is-same-secret.js';
import { LOCATIONS } from '../domain/catalog.js';
import type { ProbeResult } from '../domain/check-result.js';
import { LeaseLostError } from '../domain/lease-lost-error.js';
import { LookoutError, notFound } from '../domain/lookout-error.js';
import { assetFilesOf } from '../domain/result-asset-files.js';
import { scrubDeep } from '../domain/scrub-secrets.js';
import { prepareRun, toRunnable } from '../runner/prepare-run.js';
import { directRunReads } from '../runner/run-reads.js';
import { runScrubber } from '../runner/run-scrubber.js';
import type { RecordRun } from '../runner/run-check.js';
import type { Store } from '../store/create-store.js';
import type { AgentRow } from '../store/agents-repository.js';
import type { OnDemandRun } from '../store/run-jobs-repository.js';
import { withRunOverrides, type RunOverrides } from '../domain/run-overrides.js';
import { PRIVATE_LOCATION_KEY_PREFIX } from './private-location-service.js';

/** Who an agent is, as its key says: the lane it serves and, for a private location, whose. */
export interface AgentIdentity {
  lane: string;
  /** The location its runs are recorded in. */
  location: string;
  accountId: string | null;
  privateLocationId: string | null;
}

/** What an agent says of itself with every lease and renewal. */
export interface AgentSelf {
  agentId: string;
  version: string;
  hostname: string;
  concurrency: number;
  running: number;
}

/** One attempt as an agent posts it (times as ISO text). */
export interface AgentResultInput {
  agentId: string;
  sentAt: string;
  sequenceId: string;
  attempts: number;
  resultType: 'FINAL' | 'ATTEMPT';
  probe: Omit<ProbeResult, 'startedAt' | 'stoppedAt'> & { startedAt: string; stoppedAt: string };
}

/** Options of createAgentService. */
export interface AgentServiceOptions {
  store: Store;
  logger: Logger;
  /** Stores a result (the runner's recorder, with maintenance marks). */
  record: RecordRun;
  /** Where asset files of results are kept (uploads land there). */
  assetsDir: string;
  /** The operator's key for agents of data-center locations (none: such agents are refused). */
  dataCenterKey?: string;
  leaseMs?: number;
  renewMs?: number;
  /** How often a long poll looks at the queue again. */
  pollMs?: number;
}

/** Largest asset an agent may upload (the spec's agent artifact limit). */
export const AGENT_ASSET_MAX_BYTES = 150 * 1024 * 1024;

/** Agent clocks within this of the service's are trusted as they are. */
const SKEW_TOLERANCE_MS = 1_000;

/**
 * The service side of private-location (and data-center) agents: agents authenticate with a
 * location key, lease due runs of their lane over HTTP (long poll), renew the leases while they
 * run them, upload assets and post each attempt, which is recorded like a runner's under the
 * job's lease (refused once the lease is lost or the slot has its results). Everything an agent
 * reports is scrubbed again here with the run's secrets, whatever the agent did.
 * Long by design: an object of short use-case methods (one per route) over the same store and bus; the module is the unit, not the closure.
 */
export function createAgentService(options: AgentServiceOptions) {
  const { store, logger, record, assetsDir } = options;
  const leaseMs = options.leaseMs ?? 15_000;
  const renewMs = options.renewMs ?? 5_000;
  const pollMs = options.pollMs ?? 250;
  const uploadsDir = path.join(assetsDir, '.uploads');
  let lastPrune = 0;

  async function report(identity: AgentIdentity, self: AgentSelf): Promise<void> {
    const seen = await store.agents.report({
      id: self.agentId, lane: identity.lane, accountId: identity.accountId, privateLocationId: identity.privateLocationId,
      version: self.version, hostname: self.hostname, concurrency: self.concurrency, running: self.running,
    }, AGENT_LIVE_MS);
    if (seen === 'conflict') {
      throw new LookoutError('CONFLICT', `Agent id ${self.agentId} belongs to another location: every agent picks a new id at start`, {
        issues: [{ key: 'agentId', message: 'belongs to another location' }], source: 'payload',
      });
    }
    if (seen === 'joined') {
      logger.info({ agentId: self.agentId, location: identity.location, accountId: identity.accountId, version: self.version, hostname: self.hostname }, 'agent joined');
    }
  }

  /** The job `agentId` holds, or a refusal naming why its result cannot be taken. */
  async function heldJob(identity: AgentIdentity, agentId: string, jobId: string, running = false) {
    const job = await store.runJobs.held(jobId, agentLeaseOwner(agentId));
    if (!job || job.lane !== identity.lane || (running && job.state !== 'leased')) {
      throw new LookoutError('CONFLICT', `Run ${jobId} is not leased to agent ${agentId} (its lease expired and the run went to another, or it was never this agent's)`, {
        attributes: { reason: 'LEASE_NOT_HELD', jobId },
      });
    }
    return job;
  }

  /** A run's check, prepared as runners prepare it; null when it is gone or turned off. */
  async function preparedOf(checkId: string, run: OnDemandRun | null) {
    const row = await store.runner.check(checkId);
    if (!row) return null;
    const check = toRunnable(row);
    // A scheduled slot of a check turned off since is not run; an on-demand run is, as asked.
    if (!run && check.data.activated === false) return null;
    const asked = run ? { ...check, data: withRunOverrides(check.data, (run.overrides ?? undefined) as RunOverrides | undefined) } : check;
    return prepareRun(directRunReads(store), asked);
  }

  return {
    /**
     * Who presents `authorization` (`Bearer <key>`): a private location key (its location), or
     * the operator's data-center key with the location in `location`. Keys are looked up on every
     * request, so a revoked key is refused at once.
     */
    async authenticate(authorization: string | undefined, location: string | undefined): Promise<AgentIdentity> {
      const key = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
      if (!key) throw new LookoutError('UNAUTHENTICATED', 'Send the location key as Authorization: Bearer <key>');
      if (key.startsWith(PRIVATE_LOCATION_KEY_PREFIX)) {
        const owner = await store.agents.keyOwner(hashApiKey(key));
        if (!owner) throw new LookoutError('UNAUTHENTICATED', 'Unknown or revoked private location key');
        return {
          lane: privateLocationLane(owner.accountId, owner.slugName), location: owner.slugName,
          accountId: owner.accountId, privateLocationId: owner.privateLocationId,
        };
      }
      if (!options.dataCenterKey || !isSameSecret(key, options.dataCenterKey)) {
        throw new LookoutError('UNAUTHENTICATED', 'Unknown key: agents use a private location key, or the data-center agent key the service was configured with');
      }
      if (!location || !(LOCATIONS as readonly string[]).includes(location)) {
        throw new LookoutError('VALIDATION', `A data-center agent names its location in X-Lookout-Location (one of ${LOCATIONS.join(', ')})`, {
          issues: [{ key: 'x-lookout-location', message: 'must be a data-center location' }], source: 'headers',
        });
      }
      return { lane: dataCenterLane(location), location, accountId: null, privateLocationId: null };
    },

    /**
     * Leases up to `max` due runs of the agent's lane, waiting up to `waitMs` for one to be
     * queued (long poll; `signal` ends it when the agent goes away). Runs whose check is gone or
     * turned off are closed on the way.
     */
    async lease(identity: AgentIdentity, self: AgentSelf, max: number, waitMs: number, signal?: AbortSignal) {
      await report(identity, self);
      const owner = agentLeaseOwner(self.agentId);
      const deadline = Date.now() + waitMs;
      for (;;) {
        const claimed = await store.runJobs.claim(owner, max, leaseMs, { lane: identity.lane });
        const jobs = [];
        for (const job of claimed) {
          const prepared = await preparedOf(job.check_id, job.run);
          if (!prepared) {
            await store.runJobs.close({ id: job.id, owner });
            continue;
          }
          jobs.push({
            jobId: job.id, slotAt: job.slot_at.toISOString(), location: identity.location, sequenceId: job.run?.sequenceId ?? randomUUID(),
            leaseUntil: (job.lease_until ?? new Date(Date.now() + leaseMs)).toISOString(),
            check: prepared.check, variables: prepared.variables, clientCertificates: prepared.clientCertificates,
          });
        }
        if (jobs.length > 0 || max === 0 || Date.now() >= deadline || signal?.aborted) return { jobs, leaseMs, renewMs };
        await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now()))));
      }
    },

    /** Renews the leases the agent still runs; answers those it lost (their results would be refused). */
    async renew(identity: AgentIdentity, self: AgentSelf, jobIds: string[]): Promise<{ lost: string[] }> {
      await report(identity, self);
      return { lost: await store.runJobs.renew(agentLeaseOwner(self.agentId), jobIds, leaseMs) };
    },

    /**
     * Records one attempt of a leased run. The check and location come from the lease; times
     * move by the agent's clock skew (measured against `sentAt`), and secrets are scrubbed.
     */
    async recordResult(identity: AgentIdentity, jobId: string, input: AgentResultInput, receivedAt: Date): Promise<{ id: string; resultType: string }> {
      const job = await heldJob(identity, input.agentId, jobId);
      const prepared = await preparedOf(job.check_id, job.run);
      if (!prepared) throw notFound('Check', job.check_id);
      // Posted again (the answer was lost on the way): recorded once, answered the same.
      const before = await store.results.findAttempt(prepared.check.accountId, prepared.check.id, input.sequenceId, input.attempts, identity.location);
      if (before) return { id: before.id, resultType: before.result_type };
      const skew = receivedAt.getTime() - Date.parse(input.sentAt);
      const shift = Math.abs(skew) > SKEW_TOLERANCE_MS ? skew : 0;
      const at = (text: string) => new Date(Date.parse(text) + shift);
      const probe = scrubDeep({ ...input.probe, startedAt: at(input.probe.startedAt), stoppedAt: at(input.probe.stoppedAt) }, runScrubber(prepared.variables)) as ProbeResult;
      const files = assetFilesOf(probe);
      for (const file of files) {
        if (!(await stat(path.join(assetsDir, file)).catch(() => null))) {
          throw new LookoutError('VALIDATION', `Asset ${file} was not uploaded: upload it before the result that names it`, {
            issues: [{ key: 'probe.jobAssets', message: `${file} was not uploaded` }], source: 'payload',
          });
        }
      }
      try {
        const view = await record({
          check: prepared.check, location: identity.location, sequenceId: input.sequenceId, attempts: input.attempts,
          resultType: input.resultType, probe, lease: { id: job.id, owner: agentLeaseOwner(input.agentId) }, testSessionId: job.run?.testSessionId ?? null,
          ranOn: { kind: 'agent', agentId: input.agentId },
        });
        return { id: String(view.id), resultType: input.resultType };
      } catch (err) {
        if (err instanceof LeaseLostError) {
          throw new LookoutError('CONFLICT', `Run ${jobId} has its result already, or its lease was lost: this result is not recorded`, {
            attributes: { reason: 'LEASE_NOT_HELD', jobId },
          });
        }
        throw err;
      }
    },

    /**
     * Stores one asset file of a leased run (`file` is the name the result will give it). The
     * body is cut off past AGENT_ASSET_MAX_BYTES (413); a body that ends early (truncated) is
     * not kept. It lands under its name only once whole, so a result never names half a file.
     */
    async storeAsset(identity: AgentIdentity, agentId: string, jobId: string, file: string, body: Readable, declaredBytes: number | undefined): Promise<{ file: string; size: number }> {
      await heldJob(identity, agentId, jobId, true);
      if (declaredBytes !== undefined && declaredBytes > AGENT_ASSET_MAX_BYTES) {
        throw new LookoutError('PAYLOAD_TOO_LARGE', `An asset may be ${AGENT_ASSET_MAX_BYTES} bytes at most`);
      }
      await mkdir(uploadsDir, { recursive: true });
      const part = path.join(uploadsDir, `${randomUUID()}.part`);
      let size = 0;
      const limit = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > AGENT_ASSET_MAX_BYTES) done(new LookoutError('PAYLOAD_TOO_LARGE', `An asset may be ${AGENT_ASSET_MAX_BYTES} bytes at most`));
          else done(null, chunk);
        },
      });
      try {
        await pipeline(body, limit, createWriteStream(part, { flags: 'wx' }));
        if (declaredBytes !== undefined && size !== declaredBytes) {
          throw new LookoutError('VALIDATION', `The upload ended after ${size} of ${declaredBytes} bytes`, {
            issues: [{ key: 'content-length', message: 'does not match the body' }], source: 'headers',
          });
        }
        await rename(part, path.join(assetsDir, file));
      } catch (err) {
        await rm(part, { force: true });
        throw err;
      }
      return { file, size };
    },

    /**
     * The code bundle of a leased Playwright check suite run, for the agent to run it from: only
     * the bundle the run's check names, only while the agent holds the run.
     */
    async codeBundle(identity: AgentIdentity, agentId: string, jobId: string): Promise<{ key: string; stream: Readable; size: number }> {
      const job = await heldJob(identity, agentId, jobId, true);
      const row = await store.runner.check(job.check_id);
      const key = row ? toRunnable(row).data.codeBundlePath : undefined;
      if (!row || !isCodeBundleKey(key)) throw notFound('Code bundle of run', jobId);
      const file = path.join(assetsDir, 'checkly-storage', row.account_id, storedFileName(key));
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) throw notFound('Code bundle', key);
      return { key, stream: createReadStream(file), size: info.size };
    },

    /** Closes a leased run that ended without all its results (its check went away, the run threw). */
    async finish(identity: AgentIdentity, agentId: string, jobId: string): Promise<void> {
      await heldJob(identity, agentId, jobId);
      await store.runJobs.close({ id: jobId, owner: agentLeaseOwner(agentId) });
    },

    /** The agent is shutting down (it finished its runs first). */
    async leave(identity: AgentIdentity, agentId: string): Promise<void> {
      if (await store.agents.leave(agentId, identity.lane)) {
        logger.info({ agentId, location: identity.location, accountId: identity.accountId }, 'agent left');
      }
    },

    /** Marks agents that stopped reporting as gone, with a log line each; their leases lapse on their own. */
    async sweepSilent(): Promise<AgentRow[]> {
      if (Date.now() - lastPrune > 3_600_000) {
        lastPrune = Date.now();
        await store.agents.pruneGone(new Date(Date.now() - 24 * 3_600_000));
      }
      const gone = await store.agents.sweepSilent(AGENT_LIVE_MS);
      for (const a of gone) {
        logger.info({ agentId: a.id, lane: a.lane, accountId: a.account_id, lastSeen: a.last_seen.toISOString() }, 'agent left (stopped reporting)');
      }
      return gone;
    },

    /** What a private location's agents are doing and what waits for them. */
    async privateLocationMetrics(accountId: string, privateLocationId: string) {
      const location = await store.privateLocations.get(accountId, privateLocationId);
      if (!location) throw notFound('Private location', privateLocationId);
      const agents = await store.agents.ofPrivateLocation(accountId, privateLocationId, AGENT_LIVE_MS);
      const depth = await store.runJobs.depth(privateLocationLane(accountId, location.slug_name));
      return {
        privateLocationId,
        lastSeen: location.last_seen ? location.last_seen.toISOString() : null,
        agentCount: agents.length,
        agents: agents.map((a) => ({
          id: a.id, version: a.version, hostname: a.hostname, concurrency: a.concurrency, running: a.running,
          startedAt: a.started_at.toISOString(), lastSeen: a.last_seen.toISOString(),
        })),
        queueSize: depth.queued,
        runningCount: depth.leased,
        oldestQueuedAt: depth.oldestQueuedAt ? depth.oldestQueuedAt.toISOString() : null,
      };
    },
  };
}
export type AgentService = ReturnType<typeof createAgentService>;
