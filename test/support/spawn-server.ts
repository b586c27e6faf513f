import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A Lookout server running as a separate process (`lookout serve`). */
export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** Starts `lookout serve` with `env` on a free port and resolves once it logs that it listens. */
export function spawnServer(env: Record<string, string>): Promise<SpawnedServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
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
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'lookout listening' && entry.url) resolve({ url: entry.url, child, output: () => out, exited });
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
}
