import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { killProcessTree, processTree } from '../kill-process-tree.js';
import type { RunCgroups } from './create-cgroup-limits.js';
import type { SandboxExit, SandboxLimit, SandboxProcess, SandboxRunSpec } from './sandbox.js';

/** A prepared process of one run: what to execute, as whom, in which cgroups. */
export interface SandboxCommand {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** User and group id to run as (root only), or null for the service's own. */
  uid: number | null;
  /** The run's cgroups: the sandbox waits on fd 4 until its processes are in them. */
  cgroups: RunCgroups | null;
}

/** The run's limits that this side enforces. */
interface Limits {
  outputBytes: number;
}

/** Fatal errors V8 and Node print when a heap or buffer allocation fails. */
const OUT_OF_MEMORY = /JavaScript heap out of memory|Reached heap limit|Array buffer allocation failed|process out of memory|invalid array length Allocation failed/;

/**
 * Whether an error a script reported is memory being refused (under rlimits an allocation fails
 * with an exception the script may see, instead of the process being killed).
 */
export function isOutOfMemory(message: string): boolean {
  return OUT_OF_MEMORY.test(message);
}
/** How often the process cgroup is asked whether a fork was refused. */
const PROCESS_POLL_MS = 200;
/** The fd a runtime script writes its messages to (one JSON object a line). */
const MESSAGE_FD = 3;

/**
 * Starts `command` for one run: the job goes to its standard input as a line of JSON (which then
 * stays open: the run's lifeline), its messages come
 * back on fd 3, every byte it writes counts towards the output limit, and it is killed (with
 * everything below it) at the time limit, the output limit, the process limit, cancellation or
 * `stop()`. `done` says which, once its processes are gone; never rejects.
 */
export function startSandboxProcess(command: SandboxCommand | null, spec: SandboxRunSpec, limits: Limits, prepareError: string | null): SandboxProcess {
  const t0 = performance.now();
  if (!command) {
    return { stop: () => {}, done: Promise.resolve(exitOf({ startError: prepareError ?? 'no command' }, t0)) };
  }
  let limit: SandboxLimit | null = null;
  let cancelled = false;
  let ended = false;
  let startError: string | null = null;
  let stderrTail = '';
  let written = 0;

  let child: ChildProcess;
  try {
    child = spawn(command.file, command.args, {
      cwd: command.cwd,
      env: command.env,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe', command.cgroups ? 'pipe' : 'ignore'],
      ...(command.uid !== null ? { uid: command.uid, gid: command.uid } : {}),
    });
  } catch (err) {
    void command.cgroups?.close();
    return { stop: () => {}, done: Promise.resolve(exitOf({ startError: `could not start the sandbox: ${(err as Error).message}` }, t0)) };
  }

  const kill = () => {
    if (child.pid !== undefined) killProcessTree(child.pid);
  };
  const end = (why: { limit?: SandboxLimit; cancelled?: boolean; startError?: string }) => {
    if (ended) return;
    ended = true;
    limit = why.limit ?? null;
    cancelled = why.cancelled ?? false;
    startError = why.startError ?? null;
    kill();
  };
  const timer = setTimeout(() => end({ limit: 'time' }), spec.timeoutMs);
  const onAbort = () => end({ cancelled: true });
  if (spec.signal.aborted) onAbort();
  else spec.signal.addEventListener('abort', onAbort, { once: true });
  const poll = command.cgroups ? setInterval(() => {
    void command.cgroups!.processesExceeded().then((hit) => {
      if (hit) end({ limit: 'processes' });
    });
  }, PROCESS_POLL_MS) : null;

  const count = (bytes: number) => {
    written += bytes;
    if (written > limits.outputBytes) end({ limit: 'output' });
  };
  const stdio = child.stdio as unknown as [Writable, Readable, Readable, Readable, Writable | null];
  readLines(stdio[1], count, (line) => spec.onOutput('stdout', line));
  readLines(stdio[2], count, (line) => {
    stderrTail = (stderrTail + line + '\n').slice(-4000);
    spec.onOutput('stderr', line);
  });
  readLines(stdio[MESSAGE_FD], count, (line) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message !== null && typeof message === 'object' && !Array.isArray(message)) spec.onMessage(message as Record<string, unknown>);
  });
  stdio[0].on('error', () => {
    // The process died before it read its job: its exit says why.
  });
  // The job, one line. Standard input then stays open as the run's lifeline: if this process dies,
  // its end tells the run to stop (runner-channel.mjs). In cgroups, the job goes only once the
  // sandbox is in them: a runner that dies before then leaves a sandbox with nothing to run (bwrap
  // lets a closed gate through), where bwrap's --die-with-parent is not armed yet.
  const sendJob = () => stdio[0].write(`${JSON.stringify(spec.job)}\n`);
  if (command.cgroups && stdio[4]) {
    void enterCgroups(child, command.cgroups, stdio[4]).then(sendJob, (err: Error) => end({ startError: `could not limit the sandbox: ${err.message}` }));
  } else {
    sendJob();
  }

  const done = new Promise<SandboxExit>((resolve) => {
    let exit: { code: number | null; signal: string | null } | null = null;
    let finished = false;
    const finish = async () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      spec.signal.removeEventListener('abort', onAbort);
      // Whatever the run left behind (a process it detached) goes with it.
      kill();
      stdio[0].destroy();
      const verdict = command.cgroups ? await command.cgroups.verdict() : { memoryExceeded: false, processesExceeded: false };
      await command.cgroups?.close();
      // A run no one stopped for a reason of its own, whose cgroup refused a fork or killed for memory, met that limit.
      if (limit === null && !cancelled && !startError) {
        if (verdict.processesExceeded) limit = 'processes';
        else if (verdict.memoryExceeded || OUT_OF_MEMORY.test(stderrTail)) limit = 'memory';
      }
      resolve(exitOf({ limit, cancelled, startError, code: exit?.code ?? null, signal: exit?.signal ?? null }, t0));
    };
    child.on('error', (err) => {
      end({ startError: `could not start the sandbox: ${err.message}` });
      void finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // A process the script detached may hold the output pipes open; do not wait on it for long.
      setTimeout(() => void finish(), 1000).unref();
    });
    child.on('close', () => void finish());
  });
  return { stop: () => end({}), done };
}

/**
 * Moves the sandbox's processes into the run's cgroups while it waits on fd 4 (before any user
 * code runs), then lets it go on. A process forked during the move is caught by the next round.
 */
async function enterCgroups(child: ChildProcess, cgroups: RunCgroups, gate: Writable): Promise<void> {
  if (child.pid === undefined) return;
  const moved = new Set<number>();
  for (let round = 0; round < 20; round++) {
    const fresh = processTree(child.pid).filter((pid) => !moved.has(pid));
    if (fresh.length === 0) break;
    await cgroups.enter(fresh);
    for (const pid of fresh) moved.add(pid);
  }
  gate.on('error', () => {});
  gate.end('go');
}

function readLines(stream: Readable | null | undefined, count: (bytes: number) => void, onLine: (line: string) => void): void {
  if (!stream) return;
  const decoder = new StringDecoder('utf8');
  let pending = '';
  stream.on('data', (chunk: Buffer) => {
    count(chunk.length);
    pending += decoder.write(chunk);
    let at: number;
    while ((at = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, at).replace(/\r$/, '');
      pending = pending.slice(at + 1);
      if (line !== '') onLine(line);
    }
  });
  stream.on('end', () => {
    const last = pending + decoder.end();
    if (last !== '') onLine(last);
  });
  stream.on('error', () => {});
}

function exitOf(
  e: { limit?: SandboxLimit | null; cancelled?: boolean; startError?: string | null; code?: number | null; signal?: string | null },
  t0: number,
): SandboxExit {
  return {
    limit: e.limit ?? null,
    cancelled: e.cancelled ?? false,
    startError: e.startError ?? null,
    exitCode: e.code ?? null,
    exitSignal: e.signal ?? null,
    elapsedMs: performance.now() - t0,
  };
}
