import { spawnLookout, type SpawnedLookout } from './spawn-lookout.js';

/** A `lookout agent` running as a separate process. */
export interface SpawnedAgent extends SpawnedLookout {
  agentId: string;
  healthUrl: string;
}

/** Starts `lookout agent` with `env` (health on a free port) and resolves once it logs that it started. */
export function spawnAgent(env: Record<string, string>): Promise<SpawnedAgent> {
  return spawnLookout('agent', { AGENT_HEALTH_PORT: '0' }, env, 'agent', (entry) =>
    (entry.msg === 'agent started' && typeof entry.agentId === 'string' && typeof entry.healthUrl === 'string'
      ? { agentId: entry.agentId, healthUrl: entry.healthUrl }
      : undefined));
}
