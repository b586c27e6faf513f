import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { processTree } from '../../../src/runner/kill-process-tree.js';
import { sandboxWorks, SANDBOX_SKIP_REASON } from '../../support/sandbox.js';
import { until } from '../../support/until.js';

const RUNTIME = fileURLToPath(new URL('../../../src/runner/runtime/request-script-child.mjs', import.meta.url));
const PARENT = fileURLToPath(new URL('../../support/sandboxed-run-parent.ts', import.meta.url));
const REQUEST = { method: 'GET', url: 'http://127.0.0.1/', headers: {}, queryParameters: {}, body: '' };
/** The exit code of a run whose runner went away (runner-channel.mjs). */
const RUNNER_GONE = 70;

/** The runtime script started by hand, with its standard input and fd 3 as the runner holds them. */
function startRuntime() {
  const child = spawn(process.execPath, [RUNTIME], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
  const messages: string[] = [];
  createInterface({ input: child.stdio[3] as NodeJS.ReadableStream }).on('line', (line) => messages.push(line));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return { child, messages, exit };
}

describe('a run whose runner goes away', () => {
  it('never starts when its runner dies before sending the job', async () => {
    const run = startRuntime();
    run.child.stdin!.end();
    expect(await run.exit).toBe(RUNNER_GONE);
    expect(run.messages).toEqual([]);
  });

  it('ends at once when its runner dies mid-run: standard input, kept open, is its lifeline', async () => {
    const run = startRuntime();
    run.child.stdin!.write(`${JSON.stringify({ script: "console.log('running'); setInterval(() => {}, 1000);", request: REQUEST, response: null, env: {} })}\n`);
    await until(async () => run.messages.some((m) => m.includes('running')), 'the script runs');
    run.child.stdin!.destroy();
    expect(await run.exit).toBe(RUNNER_GONE);
  });

  it('finishes normally while its runner lives, the open lifeline notwithstanding', async () => {
    const run = startRuntime();
    run.child.stdin!.write(`${JSON.stringify({ script: "console.log('quick')", request: REQUEST, response: null, env: {} })}\n`);
    expect(await run.exit).toBe(0);
    expect(run.messages.map((m) => JSON.parse(m).type)).toEqual(['log', 'done']);
    run.child.stdin!.destroy();
  });
});

describe.skipIf(!sandboxWorks)(`a sandboxed run whose runner is killed (kill -9)${sandboxWorks ? '' : ` (skipped: ${SANDBOX_SKIP_REASON})`}`, () => {
  const parents: number[] = [];
  afterAll(() => {
    for (const pid of parents) for (const p of processTree(pid).reverse()) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
  });

  it.each([['in cgroups', 'true'], ['limited by rlimits only', 'false']])('leaves no process behind, %s', async (_how, useCgroups) => {
    const parent = spawn(process.execPath, ['--import', 'tsx', PARENT, useCgroups], { stdio: ['ignore', 'pipe', 'inherit'] });
    parents.push(parent.pid!);
    const lines = createInterface({ input: parent.stdout! });
    const [line] = await once(lines, 'line') as [string];
    expect(JSON.parse(line)).toEqual({ ready: true });
    // The runner, prlimit's bwrap, bwrap's init in the new namespaces, and the script's node.
    const run = processTree(parent.pid!).slice(1);
    expect(run.length).toBeGreaterThanOrEqual(2);
    process.kill(parent.pid!, 'SIGKILL');
    await until(async () => run.every((pid) => !existsSync(`/proc/${pid}`) || isZombie(pid)), 'every process of the run gone');
  });

  it('runs nothing when the runner dies before the sandbox is in its cgroups (bwrap lets a closed gate through)', async () => {
    const parent = spawn(process.execPath, ['--import', 'tsx', PARENT, 'true', 'die-before-gate'], { stdio: ['ignore', 'pipe', 'inherit'] });
    parents.push(parent.pid!);
    const [line] = await once(createInterface({ input: parent.stdout! }), 'line') as [string];
    const { work } = JSON.parse(line) as { work: string };
    await once(parent, 'exit');
    // bwrap's processes name the run's folder; the script's node is below them.
    await until(async () => !processesNaming(work), 'every process of the run gone');
    expect(existsSync(path.join(work, 'ran'))).toBe(false);
  });
});

/** A process that ended and waits only for its (dead) parent to collect it. */
function isZombie(pid: number): boolean {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Whether a live process has `text` on its command line. */
function processesNaming(text: string): boolean {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).some((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text) && !isZombie(Number(pid));
    } catch {
      return false;
    }
  });
}
