import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A `lookout` command running as a separate process. */
export interface SpawnedLookout {
  child: ChildProcess;
  /** Everything the process printed so far. */
  output: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/**
 * Starts `lookout <command>` with `env` over `defaults` and resolves once `ready` recognises one of
 * its JSON log lines (answering what the caller needs from it); rejects if it exits before.
 */
export function spawnLookout<T>(
  command: string, defaults: Record<string, string>, env: Record<string, string>, what: string,
  ready: (entry: Record<string, unknown>) => T | undefined,
): Promise<SpawnedLookout & T> {
  // The command users run: bin/lookout.js on the compiled dist/ (test/support/build-server.ts builds it before the suites).
  const child = spawn(process.execPath, ['bin/lookout.js', command], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...defaults, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => (out += d));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      out += `${line}\n`;
      if (!line.startsWith('{')) return;
      const found = ready(JSON.parse(line) as Record<string, unknown>);
      if (found !== undefined) resolve({ ...found, child, output: () => out, exited });
    });
    void exited.then((code) => reject(new Error(`${what} exited (${code}) before it was ready:\n${out}`)));
  });
}
