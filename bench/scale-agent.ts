import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { scratchSchema, spawnLookout, stopLookout, within } from './scale-processes.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const KEY = 'lo_bench_agent_key_0123456789abcdef0123';
const ACCOUNT = '7a4d2c1e-5b6f-4a3e-9d8c-1f2e3d4c5b6a';

/** Re-lease figures of one round: ms from the SIGKILL of an agent to its runs' new leases and results. */
export interface ReleaseRound {
  runs: number;
  /** Kill → leased to the next agent, per run. */
  releasedMs: number[];
  /** Kill → done (FINAL stored once), per run. */
  doneMs: number[];
  /** FINAL results stored for those runs (must equal runs: each once). */
  finals: number;
}

interface AgentChild {
  child: ChildProcess;
  agentId: string;
  exited: Promise<void>;
}

function spawnAgent(env: Record<string, string>): Promise<AgentChild> {
  const child = spawn(process.execPath, ['bin/lookout.js', 'agent'], {
    cwd: ROOT, env: { ...process.env, AGENT_HEALTH_PORT: '0', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as { msg?: string; agentId?: string };
      if (entry.msg === 'agent started' && entry.agentId) resolve({ child, agentId: entry.agentId, exited });
    });
    void exited.then(() => reject(new Error('lookout agent exited before starting')));
  });
}

/**
 * Re-lease after killing an agent: one `lookout serve` and a private location whose `checks`
 * checks (every 10 s) call a target answering after 3 s, so an agent always holds runs. Each
 * round starts an agent, waits until it holds runs, SIGKILLs it, starts the next one and times,
 * per killed run, how long until it is leased again and done; the FINAL results of those slots
 * are counted (each slot exactly once).
 */
export async function measureAgentRelease(url: string, redisUrl: string, rounds: number, checks: number, out: (line: string) => void): Promise<ReleaseRound[]> {
  const scratch = await scratchSchema(url, 'bench_agent');
  const target = http.createServer((_req, res) => setTimeout(() => res.end('ok'), 3_000));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/slow`;
  const db = new pg.Client({ connectionString: scratch.databaseUrl });
  const agents: AgentChild[] = [];
  const server = await spawnLookout({ DATABASE_URL: scratch.databaseUrl, REDIS_URL: redisUrl, LOOKOUT_API_KEY: KEY, LOOKOUT_ACCOUNT_ID: ACCOUNT, LOOKOUT_ROLE: 'all', LOOKOUT_RATE_LIMIT: '0' });
  try {
    await db.connect();
    const api = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method, headers: { authorization: `Bearer ${KEY}`, 'x-lookout-account': ACCOUNT, 'content-type': 'application/json' }, body: JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<any>;
    };
    const location = await api('POST', '/v1/private-locations', { name: 'Bench lab', slugName: 'bench-lab' });
    const env = { LOOKOUT_SERVICE_URL: server.url, LOOKOUT_AGENT_KEY: location.keys[0].rawKey as string, LOOKOUT_AGENT_CONCURRENCY: String(checks) };
    for (let i = 0; i < checks; i++) {
      await api('POST', '/v1/checks/api', { name: `lab ${i}`, frequency: 0, frequencyOffset: 10, locations: [], privateLocations: ['bench-lab'], request: { url: targetUrl } });
    }
    let current = await spawnAgent(env);
    agents.push(current);
    const figures: ReleaseRound[] = [];
    for (let round = 1; round <= rounds; round++) {
      const owner = `agent:${current.agentId}`;
      const held = await within((async () => {
        for (;;) {
          const rows = (await db.query<{ id: string }>(`SELECT id::text FROM run_jobs WHERE lease_owner = $1 AND state = 'leased'`, [owner])).rows;
          if (rows.length > 0) return rows.map((r) => r.id);
          await new Promise((r) => setTimeout(r, 50));
        }
      })(), 60_000, 'the agent to hold runs');
      const killedAt = Date.now();
      current.child.kill('SIGKILL');
      await current.exited;
      current = await spawnAgent(env);
      agents.push(current);
      const released = new Map<string, number>();
      const done = new Map<string, number>();
      await within((async () => {
        while (done.size < held.length) {
          const rows = (await db.query<{ id: string; state: string; lease_owner: string }>(
            'SELECT id::text, state, lease_owner FROM run_jobs WHERE id = ANY($1::bigint[])', [held])).rows;
          const now = Date.now();
          for (const r of rows) {
            if (r.lease_owner !== owner && !released.has(r.id)) released.set(r.id, now - killedAt);
            if (r.state === 'done' && !done.has(r.id)) done.set(r.id, now - killedAt);
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      })(), 90_000, 'the killed agent\'s runs to be done');
      // Counted by the recorder under the lease, in the transaction storing each FINAL: a slot stored twice would show here.
      const finals = Number((await db.query<{ n: string }>('SELECT sum(finals_stored) AS n FROM run_jobs WHERE id = ANY($1::bigint[])', [held])).rows[0]!.n);
      const f = { runs: held.length, releasedMs: [...released.values()].sort((a, b) => a - b), doneMs: [...done.values()].sort((a, b) => a - b), finals };
      figures.push(f);
      out(`[agent re-lease ${round}/${rounds}] ${f.runs} runs held by the killed agent: re-leased after ${f.releasedMs[0]}–${f.releasedMs.at(-1)} ms, done after ${f.doneMs[0]}–${f.doneMs.at(-1)} ms, FINAL results ${finals}`);
    }
    return figures;
  } finally {
    for (const a of agents) if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill('SIGKILL');
    await Promise.all(agents.map((a) => a.exited));
    await stopLookout(server);
    await db.end().catch(() => {});
    target.close();
    await scratch.drop();
  }
}
