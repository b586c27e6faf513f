/**
 * What the benchmark parents and their server children share: forking a server script and waiting
 * for its first IPC message (it has seeded and listens), stopping it, and on the child's side an
 * optional CPU profile written before the service closes.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { Lookout } from '../src/main.js';

/** Forks `script` (TypeScript, through tsx) and resolves with its first message, within 180 s. */
export function forkBenchServer<T>(script: string, args: string[], execArgv: string[] = []): Promise<{ child: ChildProcess; ready: T }> {
  const child = fork(script, args, { execArgv: [...execArgv, '--import', import.meta.resolve('tsx')], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the bench server did not get ready within 180 s'));
    }, 180_000);
    child.once('message', (msg: T) => {
      clearTimeout(timer);
      resolve({ child, ready: msg });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bench server exited with code ${code} before it was ready`));
    });
  });
}

/** Asks a bench server to stop and waits for it (killing it if it takes longer than 15 s). */
export function stopBenchServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.send('stop');
  });
}

/**
 * The child's side: `startProfiling()` once seeding is done (when a profile file was given), and a
 * `stop()` that writes the profile, closes the service and exits (once, however often it is called).
 */
export function benchServerLifecycle(lookout: Lookout, profileFile: string | undefined) {
  let profiler: Session | undefined;
  let stopping = false;
  return {
    async startProfiling(): Promise<void> {
      if (!profileFile) return;
      profiler = new Session();
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    },
    stop(): void {
      if (stopping) return;
      stopping = true;
      const saveProfile = async () => {
        if (!profiler || !profileFile) return;
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(profileFile, JSON.stringify(profile));
      };
      saveProfile().then(() => lookout.close()).then(() => process.exit(0), (err: Error) => {
        process.stderr.write(`bench server: error while stopping: ${err.message}\n`);
        process.exit(1);
      });
    },
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc; null where /proc is not there. */
export function cpuSecondsOf(pid: number | undefined): number | null {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in USER_HZ (100).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Asks a bench server for its `{type: 'stats'}` message (what it counted; each ask may start a new count). */
export function askStats<T extends { type: string }>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: T) => {
      if (msg?.type !== 'stats') return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(msg);
    };
    const onExit = () => reject(new Error('the bench server exited'));
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send('stats');
  });
}

