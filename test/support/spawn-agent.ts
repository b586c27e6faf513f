import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A `lookout agent` running as a separate process. */
export interface SpawnedAgent {
  agentId: string;
  healthUrl: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `lookout agent` with `env` (health on a free port) and resolves once it logs that it started. */
export function spawnAgent(env: Record<string, string>): Promise<SpawnedAgent> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'agent'], {
    cwd: ROOT,
    env: { ...process.env, AGENT_HEALTH_PORT: '0', LOG_LEVEL: 'info', ...env },
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
      const entry = JSON.parse(line) as { msg?: string; agentId?: string; healthUrl?: string };
      if (entry.msg === 'agent started' && entry.agentId && entry.healthUrl) resolve({ agentId: entry.agentId, healthUrl: entry.healthUrl, child, output: () => out, exited });
    });
    void exited.then((code) => reject(new Error(`agent exited (${code}) before starting:\n${out}`)));
  });
}
