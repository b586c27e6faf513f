/**
 * What the sandbox costs a scripted run (issue 23): the same runs with `LOOKOUT_SANDBOX=bwrap` and
 * `off`, on this machine.
 *
 * 1. Start-up: `--runs` sequential runs of a trivial API setup script (the smallest piece of user
 *    code: one node process) and of a multi-step script without a browser (node plus
 *    playwright-core), each timed end to end; p50 and p95 per mode, and the added p50.
 * 2. Throughput: `--concurrency` API checks with a setup script against a loopback target for
 *    `--seconds`, runs per second per mode.
 *
 * Usage: `npx tsx bench/sandbox.ts [--runs 40] [--concurrency 8] [--seconds 15]` (as root for the
 * per-run users and cgroups, as the service would run; needs bubblewrap). Prints a table.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { sandboxSettings } from '../src/config.js';
import type { Executor } from '../src/runner/executor.js';
import { createApiCheckExecutor } from '../src/runner/executors/run-api-check.js';
import { createBrowserCheckExecutor } from '../src/runner/executors/run-browser-check.js';
import { createSandbox } from '../src/runner/sandbox/create-sandbox.js';
import type { Sandbox } from '../src/runner/sandbox/sandbox.js';
import { runContext, runnableCheck } from '../test/support/net-probe-fixtures.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '15' },
  },
});
const RUNS = Number(args.runs);
const CONCURRENCY = Number(args.concurrency);
const SECONDS = Number(args.seconds);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeRuns(exec: Executor, check: ReturnType<typeof runnableCheck>): Promise<number[]> {
  const times: number[] = [];
  // One warm-up run: the first start reads node and the packages from disk.
  await exec(check, runContext({ timeoutMs: 30_000 }));
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const result = await exec(check, runContext({ timeoutMs: 30_000 }));
    times.push(performance.now() - t0);
    if (result.hasFailures) throw new Error(`a benchmark run failed: ${JSON.stringify(result.errors)}`);
  }
  return times;
}

async function throughput(exec: Executor, check: ReturnType<typeof runnableCheck>): Promise<number> {
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const result = await exec(check, runContext({ timeoutMs: 30_000 }));
      if (result.hasFailures) throw new Error(`a benchmark run failed: ${JSON.stringify(result.errors)}`);
      done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done / ((performance.now() - t0) / 1000);
}

async function main(): Promise<void> {
  const target = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
  const api = runnableCheck('API', { request: { url, method: 'GET', assertions: [] }, localSetupScript: 'request.headers["x-bench"] = "1";' });
  const multi = runnableCheck('MULTI_STEP', { script: 'const r = await request.get(process.env.TARGET ?? "' + url + '"); if (!r.ok()) throw new Error("down");' });
  const logger = pino({ level: 'warn' });
  const rows: string[] = [];
  const figures: Record<string, { api: number[]; multi: number[]; rate: number }> = {};
  for (const mode of ['bwrap', 'off'] as const) {
    const sandbox: Sandbox = createSandbox({ settings: sandboxSettings({ LOOKOUT_SANDBOX: mode }), chromiumPath: '/usr/bin/chromium', protectedPaths: [], logger });
    if (sandbox.unavailable) throw new Error(`the sandbox cannot work here: ${sandbox.unavailable}`);
    console.error(`${mode}: ${sandbox.description}`);
    const apiExec = createApiCheckExecutor(sandbox);
    const multiExec = createBrowserCheckExecutor({ chromiumPath: '/usr/bin/chromium', assetsDir: os.tmpdir(), sandbox });
    const apiTimes = await timeRuns(apiExec, api);
    const multiTimes = await timeRuns(multiExec, multi);
    const rate = await throughput(apiExec, api);
    figures[mode] = { api: apiTimes, multi: multiTimes, rate };
    sandbox.close();
  }
  target.close();
  const b = figures.bwrap!;
  const o = figures.off!;
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  rows.push('| what | sandbox bwrap | sandbox off | added by the sandbox |', '|---|---:|---:|---:|');
  rows.push(`| API setup script run, p50 (${RUNS} runs) | ${ms(percentile(b.api, 50))} | ${ms(percentile(o.api, 50))} | **${ms(percentile(b.api, 50) - percentile(o.api, 50))}** |`);
  rows.push(`| API setup script run, p95 | ${ms(percentile(b.api, 95))} | ${ms(percentile(o.api, 95))} | ${ms(percentile(b.api, 95) - percentile(o.api, 95))} |`);
  rows.push(`| multi-step script run (no browser), p50 | ${ms(percentile(b.multi, 50))} | ${ms(percentile(o.multi, 50))} | **${ms(percentile(b.multi, 50) - percentile(o.multi, 50))}** |`);
  rows.push(`| multi-step script run (no browser), p95 | ${ms(percentile(b.multi, 95))} | ${ms(percentile(o.multi, 95))} | ${ms(percentile(b.multi, 95) - percentile(o.multi, 95))} |`);
  rows.push(`| API checks with a setup script, runs/s at concurrency ${CONCURRENCY} (${SECONDS} s) | ${b.rate.toFixed(1)} | ${o.rate.toFixed(1)} | ${((b.rate / o.rate - 1) * 100).toFixed(0)} % |`);
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${new Date().toISOString()}`);
  console.log(rows.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
