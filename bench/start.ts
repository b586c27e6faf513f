/**
 * The first minute of a new user (issue 27): how long `lookout --help` takes, and a first start on a
 * fresh data folder (time to "lookout listening", CPU seconds, idle RSS), then a second start on the
 * same folder. Runs `node bin/lookout.js` as a user would (after `npm run build` when the launcher
 * runs compiled JavaScript).
 *
 * Usage: `npx tsx bench/start.ts [--help-runs 5] [--idle-seconds 10]`
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureServerBuild } from '../bin/server-build.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const LAUNCHER = path.join(ROOT, 'bin/lookout.js');
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on every Linux we run on). */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

const { values } = parseArgs({ options: { 'help-runs': { type: 'string', default: '5' }, 'idle-seconds': { type: 'string', default: '10' } } });

/** CPU seconds (user + system) and resident memory of a live process, from /proc. */
function processUsage(pid: number): { cpuSeconds: number; rssMb: number } {
  // Fields after the command name (which may hold spaces) start at index 2 of the stat line.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / TICKS;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuSeconds, rssMb: rss ? Number(rss[1]) / 1024 : NaN };
}

function timeHelp(): number {
  const started = process.hrtime.bigint();
  execFileSync(process.execPath, [LAUNCHER, '--help'], { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

interface StartFigures {
  toListeningMs: number;
  cpuAtListening: number;
  cpuIdle: number;
  rssIdleMb: number;
  lines: string[];
}

/** Starts `lookout serve` on `dataDir`, waits for "lookout listening", idles, reads /proc, stops it. */
async function measureStart(dataDir: string, idleSeconds: number): Promise<StartFigures> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [LAUNCHER, 'serve'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOOKOUT_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const toListeningMs = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const at = Number(process.hrtime.bigint() - started) / 1e6;
      let msg = line;
      try {
        msg = (JSON.parse(line) as { msg?: string }).msg ?? line;
      } catch {
        // The banner with the API key is plain text.
      }
      if (msg.trim()) lines.push(`${(at / 1000).toFixed(1).padStart(6)} s  ${msg.trim()}`);
      if (msg === 'lookout listening') resolve(at);
    });
    void exited.then((code) => reject(new Error(`lookout exited (${code}) before listening:\n${lines.join('\n')}`)));
  });
  const cpuAtListening = processUsage(child.pid!).cpuSeconds;
  // A bench, not a test: idle on purpose, so the start's garbage is collected and timers settle.
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const idle = processUsage(child.pid!);
  child.kill('SIGTERM');
  await exited;
  return { toListeningMs, cpuAtListening, cpuIdle: idle.cpuSeconds, rssIdleMb: idle.rssMb, lines };
}

// The first --help below is then the first run after a build (the nearest to cold this machine allows).
await ensureServerBuild();
const helpRuns = Number(values['help-runs']);
const idleSeconds = Number(values['idle-seconds']);
console.log(`date ${new Date().toISOString()}, node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const helpTimes = Array.from({ length: helpRuns }, timeHelp);
console.log(`lookout --help: first ${helpTimes[0]!.toFixed(0)} ms, then ${helpTimes.slice(1).map((t) => t.toFixed(0)).join(' / ')} ms`);
const dataDir = mkdtempSync(path.join(tmpdir(), 'lookout-start-'));
try {
  for (const label of ['first start (fresh data folder)', 'second start (same folder)']) {
    const figures = await measureStart(dataDir, idleSeconds);
    console.log(`\n${label}: listening after ${(figures.toListeningMs / 1000).toFixed(1)} s, ` +
      `${figures.cpuAtListening.toFixed(1)} CPU s by then (${figures.cpuIdle.toFixed(1)} after ${idleSeconds} s idle), ` +
      `idle RSS ${figures.rssIdleMb.toFixed(0)} MB`);
    for (const line of figures.lines) console.log(`  ${line}`);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`\nload average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
