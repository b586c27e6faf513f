import { spawnLookout, type SpawnedLookout } from './spawn-lookout.js';

/** A Lookout server running as a separate process (`lookout serve`). */
export interface SpawnedServer extends SpawnedLookout {
  url: string;
}

/** Starts `lookout serve` with `env` on a free port and resolves once it logs that it listens. */
export function spawnServer(env: Record<string, string>): Promise<SpawnedServer> {
  return spawnLookout('serve', { PORT: '0', HOST: '127.0.0.1' }, env, 'server', (entry) =>
    (entry.msg === 'lookout listening' && typeof entry.url === 'string' ? { url: entry.url } : undefined));
}
