import os from 'node:os';
import path from 'node:path';
import { LOCATIONS } from '../domain/catalog.js';
import { logLevel } from '../config.js';

/** Settings of `lookout agent`, from its environment. */
export interface AgentConfig {
  serviceUrl: string;
  key: string;
  location: string | undefined;
  concurrency: number;
  healthPort: number;
  assetsDir: string;
  logLevel: string;
}

/**
 * Reads and checks the agent's settings: `LOOKOUT_SERVICE_URL` (http or https), `LOOKOUT_AGENT_KEY`,
 * `LOOKOUT_AGENT_LOCATION` (only with the data-center key: one of the data-center locations),
 * `LOOKOUT_AGENT_CONCURRENCY` (1–1000, default 10), `AGENT_HEALTH_PORT` (default 8081),
 * `LOOKOUT_AGENT_ASSETS_DIR` (default a folder under the system's temp folder), `LOG_LEVEL`.
 * Every problem is named in one error, so a misconfigured agent never starts half-way.
 */
export function loadAgentConfig(env: NodeJS.ProcessEnv): AgentConfig {
  const problems: string[] = [];
  const serviceUrl = env.LOOKOUT_SERVICE_URL ?? '';
  if (!/^https?:\/\/[^/?#\s]+/.test(serviceUrl)) problems.push('LOOKOUT_SERVICE_URL must be the http(s) URL of the Lookout service');
  const key = env.LOOKOUT_AGENT_KEY ?? '';
  if (!/^[\x21-\x7e]{16,512}$/.test(key)) problems.push('LOOKOUT_AGENT_KEY must be a private location key (pl_…) or the data-center agent key');
  const location = env.LOOKOUT_AGENT_LOCATION || undefined;
  if (location !== undefined && !(LOCATIONS as readonly string[]).includes(location)) {
    problems.push(`LOOKOUT_AGENT_LOCATION must be one of ${LOCATIONS.join(', ')} (private-location agents leave it unset)`);
  }
  if (location === undefined && key && !key.startsWith('pl_')) problems.push('LOOKOUT_AGENT_LOCATION is needed with the data-center agent key');
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return n;
  };
  const concurrency = int('LOOKOUT_AGENT_CONCURRENCY', 10, 1, 1000);
  const healthPort = int('AGENT_HEALTH_PORT', 8081, 0, 65535);
  if (problems.length > 0) throw new Error(`the agent is not configured:\n  - ${problems.join('\n  - ')}`);
  return {
    serviceUrl, key, location, concurrency, healthPort,
    assetsDir: env.LOOKOUT_AGENT_ASSETS_DIR || path.join(os.tmpdir(), 'lookout-agent-assets'),
    logLevel: logLevel('LOG_LEVEL', env.LOG_LEVEL),
  };
}
