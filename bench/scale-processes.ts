/**
 * What bench/takeover.ts and bench/scale.ts share: `lookout serve` children on a scratch PostgreSQL
 * schema, watched through their JSON log lines (when a message was first logged, which warnings and
 * errors they printed), and a time limit on a promise.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { dropBenchSchema } from './bench-backends.js';
import { ensureServerBuild } from '../bin/server-build.js';

// The processes run the compiled server as users do (bin/lookout.js on dist/), built now if src/ changed.
await ensureServerBuild();

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Distinct log messages whose first time is kept (messages naming a check would grow it without bound). */
const MAX_MESSAGES_KEPT = 2_000;

/** A `lookout serve` child process. */
export interface LookoutProcess {
  child: ChildProcess;
  /** Base URL it listens on. */
  url: string;
  /** Resolves once the process has ended. */
  exited: Promise<void>;
  /** Resolves with the time (ms since epoch) the process first logged `msg` (already, or later). */
  logged(msg: string): Promise<number>;
  /** Warnings and errors it logged so far, counted by message. */
  problems(): Map<string, number>;
  /** Whether the process still runs. */
  alive(): boolean;
}

/**
 * Starts `lookout serve` with `env` (over PORT=0, HOST=127.0.0.1, LOG_LEVEL=info) and resolves once
 * it logs that it listens; rejects if it exits before. Its stderr goes to ours.
 */
export function spawnLookout(env: Record<string, string>): Promise<LookoutProcess> {
  const child = spawn(process.execPath, ['bin/lookout.js', 'serve'], {
    cwd: ROOT, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstSeen = new Map<string, number>();
  const waiters = new Map<string, ((at: number) => void)[]>();
  const problems = new Map<string, number>();
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      let entry: { msg?: string; level?: number; url?: string };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      const msg = entry.msg ?? '';
      const at = Date.now();
      if ((entry.level ?? 0) >= 40) problems.set(msg, (problems.get(msg) ?? 0) + 1);
      if (!firstSeen.has(msg) && firstSeen.size < MAX_MESSAGES_KEPT) firstSeen.set(msg, at);
      for (const wake of waiters.get(msg) ?? []) wake(at);
      waiters.delete(msg);
      if (msg === 'lookout listening' && entry.url) {
        resolve({
          child,
          url: entry.url,
          exited,
          logged(wanted) {
            const seen = firstSeen.get(wanted);
            if (seen !== undefined) return Promise.resolve(seen);
            return new Promise((wake) => waiters.set(wanted, [...(waiters.get(wanted) ?? []), wake]));
          },
          problems: () => problems,
          alive: () => child.exitCode === null && child.signalCode === null,
        });
      }
    });
    void exited.then(() => reject(new Error('lookout serve exited before listening')));
  });
}

/** Ends a child: SIGTERM (graceful: runs in flight finish), SIGKILL after `graceMs`. */
export async function stopLookout(p: LookoutProcess, graceMs = 15_000): Promise<void> {
  if (!p.alive()) return;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
  await p.exited;
  clearTimeout(timer);
}

/** `p`, or a rejection naming `what` once `ms` have passed. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms).unref()),
  ]);
}

/** A fresh schema of the database at `url`, and the URL that makes a process use it. */
export interface ScratchSchema {
  schema: string;
  /** `url` with `options=-c search_path=<schema>`: what DATABASE_URL of a child is. */
  databaseUrl: string;
  drop(): Promise<void>;
}

/** Creates schema `<prefix>_<random>` (dropped with everything in it by `drop()`). */
export async function scratchSchema(url: string, prefix: string): Promise<ScratchSchema> {
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA "${schema}"`);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    schema,
    databaseUrl: u.toString(),
    drop: () => dropBenchSchema(url, schema),
  };
}

/** What a runner process logs when it takes the schedule's leadership, and once its scheduler runs. */
export const ELECTED = 'elected scheduler leader';
export const SCHEDULER_STARTED = 'scheduler started';

/**
 * Kills `leader` with SIGKILL and times the takeover: how long until one of `standbys` logs its
 * election (within `limitMs`). The kill and the log line are timed on the same clock, here.
 */
export async function killLeader(leader: LookoutProcess, standbys: LookoutProcess[], limitMs = 30_000) {
  const killedAt = Date.now();
  leader.child.kill('SIGKILL');
  await leader.exited;
  const elected = standbys.map((s) => s.logged(ELECTED).then((at) => ({ at, by: s })));
  const { at, by } = await within(Promise.race(elected), limitMs, 'the takeover');
  return { killedAt, electedAt: at, takeoverMs: at - killedAt, leader: by };
}
