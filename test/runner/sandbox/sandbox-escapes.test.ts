import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import type { ProbeResult } from '../../../src/domain/check-result.js';
import { TIMEOUT_CODE } from '../../../src/runner/executors/network-error.js';
import { createApiCheckExecutor } from '../../../src/runner/executors/run-api-check.js';
import { createBrowserCheckExecutor } from '../../../src/runner/executors/run-browser-check.js';
import type { Executor } from '../../../src/runner/executor.js';
import { createSandbox } from '../../../src/runner/sandbox/create-sandbox.js';
import type { Sandbox } from '../../../src/runner/sandbox/sandbox.js';
import { CHROMIUM, chromiumInstalled } from '../../support/chromium.js';
import { runContext, runnableCheck } from '../../support/net-probe-fixtures.js';
import { sandboxWorks, SANDBOX_SKIP_REASON } from '../../support/sandbox.js';

/**
 * Every kind of code a check brings — a browser script, a multi-step script, an API check's setup
 * and teardown scripts — tries each way out of its sandbox. Each attempt must be refused or
 * contained, the run recorded as a clear failure, and the service (this process) unaffected.
 */

/** A value of the server's own environment: no run may ever see it. */
const SERVER_SECRET = `server-secret-${process.pid}-${Date.now()}`;
/** A run variable marked secret: its own run sees it, nothing else does. */
const RUN_SECRET = 'run-secret-7c1d2e';
/** This file's runs have user ids from here, so their leftovers can be told from other files' runs. */
const UID_BASE = 400_000 + (process.pid % 10_000) * 10;

let scratch: string;
let dataDir: string;
let assetsDir: string;
let otherBundle: string;
let outsideFile: string;
let sandbox: Sandbox;
/** The same sandbox with rlimits only, as on hosts whose cgroups the service may not write. */
let rlimitSandbox: Sandbox;
/** The same sandbox allowing 64 processes and threads, so a script reaches the limit within a setup script's 10 s. */
let fewProcessesSandbox: Sandbox;
let target: http.Server;
let targetUrl: string;
/** A process of the service's user the scripts try to kill. */
let bystander: ChildProcess;

beforeAll(async () => {
  process.env.LOOKOUT_ESCAPE_TEST_SECRET = SERVER_SECRET;
  scratch = await mkdtemp(path.join(tmpdir(), 'lookout-escapes-'));
  await chmod(scratch, 0o711);
  dataDir = path.join(scratch, 'data');
  assetsDir = path.join(dataDir, 'assets');
  otherBundle = path.join(assetsDir, 'checkly-storage', 'other-account', 'code-bundle-1.tar.gz');
  outsideFile = path.join(scratch, 'written-from-a-run');
  await mkdir(path.dirname(otherBundle), { recursive: true });
  await writeFile(otherBundle, `another account's bundle ${SERVER_SECRET}`);
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify({ databaseUrl: SERVER_SECRET }));
  // The data folder is as readable as an operator might leave it: the sandbox must hide it anyway.
  await chmod(dataDir, 0o755);
  sandbox = createSandbox({
    settings: { ...loadConfig().sandbox, uidBase: UID_BASE }, chromiumPath: CHROMIUM, protectedPaths: [dataDir, assetsDir], scratchDir: scratch, logger: pino({ level: 'silent' }),
  });
  rlimitSandbox = createSandbox({
    settings: { ...loadConfig().sandbox, uidBase: UID_BASE + 5 }, chromiumPath: CHROMIUM, protectedPaths: [dataDir, assetsDir], scratchDir: scratch,
    logger: pino({ level: 'silent' }), useCgroups: false,
  });
  fewProcessesSandbox = createSandbox({
    settings: { ...loadConfig().sandbox, uidBase: UID_BASE + 8, processes: 64 }, chromiumPath: CHROMIUM, protectedPaths: [dataDir, assetsDir], scratchDir: scratch,
    logger: pino({ level: 'silent' }),
  });
  target = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
  bystander = spawn('sleep', ['600'], { stdio: 'ignore' });
});

afterAll(async () => {
  delete process.env.LOOKOUT_ESCAPE_TEST_SECRET;
  bystander?.kill('SIGKILL');
  sandbox?.close();
  rlimitSandbox?.close();
  fewProcessesSandbox?.close();
  await new Promise<void>((resolve) => target?.close(() => resolve()));
  await rm(scratch, { recursive: true, force: true });
});

/** The attempts, as a script body that prints one line `FINDINGS {json}` and never throws. */
function escapeAttempts(): string {
  const paths = {
    dataDir, otherBundle, outsideFile,
    config: path.join(dataDir, 'config.json'),
    source: path.resolve('src/config.ts'),
    packageJson: path.resolve('package.json'),
    serverEnviron: `/proc/${process.pid}/environ`,
  };
  return `
    const fs = require('fs');
    const cp = require('child_process');
    const P = ${JSON.stringify(paths)};
    const attempt = (f) => { try { const v = f(); return { ok: true, value: String(v).slice(0, 300) }; } catch (e) { return { ok: false, error: String(e && (e.code || e.message)) }; } };
    const findings = {
      env: JSON.stringify(process.env),
      pid1Environ: attempt(() => fs.readFileSync('/proc/1/environ', 'utf8')),
      serverEnviron: attempt(() => fs.readFileSync(P.serverEnviron, 'utf8')),
      processes: attempt(() => fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n)).length),
      dataDir: attempt(() => fs.readdirSync(P.dataDir).join(',')),
      config: attempt(() => fs.readFileSync(P.config, 'utf8')),
      otherBundle: attempt(() => fs.readFileSync(P.otherBundle, 'utf8')),
      source: attempt(() => fs.readFileSync(P.source, 'utf8')),
      packageJson: attempt(() => fs.readFileSync(P.packageJson, 'utf8')),
      passwd: attempt(() => fs.readFileSync('/etc/passwd', 'utf8')),
      shadow: attempt(() => fs.readFileSync('/etc/shadow', 'utf8')),
      writeOutside: attempt(() => fs.writeFileSync(P.outsideFile, 'escaped')),
      writeUsr: attempt(() => fs.writeFileSync('/usr/lookout-escape', 'x')),
      writeRoot: attempt(() => fs.writeFileSync('/lookout-escape', 'x')),
      writeEtc: attempt(() => fs.writeFileSync('/etc/lookout-escape', 'x')),
      writeRuntime: attempt(() => fs.writeFileSync('/sandbox/runtime/request-script-child.mjs', 'x')),
      writeWork: attempt(() => fs.writeFileSync('scratch.txt', 'mine') || 'written'),
      uid: process.getuid(),
      idU: attempt(() => cp.execSync('id -u', { encoding: 'utf8' }).trim()),
      setuidRoot: attempt(() => process.setuid(0)),
      nestedRoot: attempt(() => cp.execSync('unshare --user --map-root-user id -u', { encoding: 'utf8', stdio: 'pipe' }).trim()),
      killBystander: attempt(() => process.kill(${bystander.pid}, 'SIGKILL')),
      killServer: attempt(() => process.kill(${process.pid}, 'SIGKILL')),
      symlink: attempt(() => fs.symlinkSync(P.config, 'leak.png') || 'linked'),
    };
    console.log('FINDINGS ' + JSON.stringify(findings));
  `;
}

type Kind = 'BROWSER' | 'MULTI_STEP' | 'SETUP' | 'TEARDOWN';
const KINDS: Kind[] = ['BROWSER', 'MULTI_STEP', 'SETUP', 'TEARDOWN'];

/** Runs `body` as the code of `kind` (a BROWSER script first opens the target page). */
function runAs(kind: Kind, body: string, timeoutMs = 25_000, within = sandbox): Promise<ProbeResult> {
  const ctx = runContext({ timeoutMs, variables: [{ key: 'TOKEN', value: RUN_SECRET, secret: true }] });
  if (kind === 'BROWSER' || kind === 'MULTI_STEP') {
    const exec: Executor = createBrowserCheckExecutor({ chromiumPath: CHROMIUM, assetsDir, sandbox: within });
    const script = kind === 'BROWSER' ? `await page.goto(${JSON.stringify(targetUrl)});\n${body}` : body;
    return exec(runnableCheck(kind, { script }), ctx);
  }
  const exec = createApiCheckExecutor(within);
  const scripts = kind === 'SETUP' ? { localSetupScript: body } : { localTearDownScript: body };
  return exec(runnableCheck('API', { request: { url: targetUrl, method: 'GET', assertions: [] }, ...scripts }), ctx);
}

/** Every line the run logged, whichever kind it was. */
function logLines(result: ProbeResult): string[] {
  const detail = (result.browserCheckResult ?? result.multiStepCheckResult) as { jobLog?: { message: string }[] } | null;
  if (detail?.jobLog) return detail.jobLog.map((l) => l.message);
  const api = result.apiCheckResult as { jobLog: Record<string, { message: string }[]> } | null;
  return Object.values(api?.jobLog ?? {}).flat().map((l) => l.message);
}

function findingsOf(result: ProbeResult): Record<string, any> {
  const line = logLines(result).find((l) => l.startsWith('FINDINGS '));
  if (!line) throw new Error(`no findings in the run's log: ${JSON.stringify(result.errors)} ${logLines(result).join('\n')}`);
  return JSON.parse(line.slice('FINDINGS '.length));
}

/** Processes of this file's runs still alive (zombies not yet reaped aside). */
function liveRunProcesses(): number[] {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number).filter((pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      return uid >= UID_BASE && uid < UID_BASE + 10 && !/^State:\s+Z/m.test(status);
    } catch {
      return false;
    }
  });
}

const errorCodes = (result: ProbeResult) => result.errors.map((e) => e.code);

const canRun = (kind: Kind) => sandboxWorks && (kind === 'SETUP' || kind === 'TEARDOWN' || chromiumInstalled);

describe.skipIf(!sandboxWorks)(`user code in the sandbox${sandboxWorks ? '' : ` (skipped: ${SANDBOX_SKIP_REASON})`}`, () => {
  it.each(KINDS)('%s code cannot read the server, its files or another account, write outside its folder, or act as root', async (kind) => {
    if (!canRun(kind)) return;
    const result = await runAs(kind, escapeAttempts());
    const f = findingsOf(result);

    // The server's environment is not its environment; the run's own variables are.
    expect(f.env).not.toContain(SERVER_SECRET);
    expect(f.env).not.toContain('DATABASE_URL');
    // Its own variables are (the log that carried them out hides the secret value).
    expect(Object.keys(JSON.parse(f.env))).toContain('TOKEN');
    expect(JSON.stringify(f.pid1Environ)).not.toContain(SERVER_SECRET);
    expect(f.serverEnviron).toMatchObject({ ok: false, error: 'ENOENT' });
    // A process tree of its own: the service's processes are not there to see.
    expect(Number(f.processes.value)).toBeLessThan(50);

    // No data folder, no other account's bundle, no server source or configuration.
    for (const key of ['dataDir', 'config', 'otherBundle', 'source', 'packageJson', 'shadow']) expect(f[key], key).toMatchObject({ ok: false });
    expect(f.passwd.value).not.toContain('root:');

    // Writes land only in its own folder.
    for (const key of ['writeOutside', 'writeUsr', 'writeRoot', 'writeEtc', 'writeRuntime']) expect(f[key], key).toMatchObject({ ok: false });
    expect(f.writeWork).toMatchObject({ ok: true });
    expect(existsSync(outsideFile)).toBe(false);

    // Not root, and cannot become it; cannot signal the service or its processes.
    expect(f.uid).not.toBe(0);
    expect(f.idU.value).not.toBe('0');
    expect(f.setuidRoot).toMatchObject({ ok: false });
    expect(f.nestedRoot).toMatchObject({ ok: false });
    expect(f.killBystander).toMatchObject({ ok: false, error: 'ESRCH' });
    expect(f.killServer).toMatchObject({ ok: false, error: 'ESRCH' });
    expect(bystander.exitCode).toBeNull();
    expect(bystander.signalCode).toBeNull();

    // A link to the server's files is never kept as a screenshot of the run.
    expect(JSON.stringify(result)).not.toContain(SERVER_SECRET);
    for (const file of readdirSync(assetsDir)) {
      if (file === 'checkly-storage') continue;
      expect(readFileSync(path.join(assetsDir, file), 'utf8')).not.toContain(SERVER_SECRET);
    }
  });

  it.each(KINDS)('%s code that forks without end is stopped with SANDBOX_PROCESSES', async (kind) => {
    if (!canRun(kind)) return;
    const result = await runAs(kind, `
      // The shell's classic: every copy starts two more.
      require('child_process').spawn('/bin/sh', ['-c', 'b() { b | b & }; b'], { stdio: 'ignore' }).on('error', () => {});
      await new Promise(() => {});
    `);
    expect(result.hasFailures).toBe(true);
    expect(errorCodes(result)).toContain('SANDBOX_PROCESSES');
    expect(result.errors.find((e) => e.code === 'SANDBOX_PROCESSES')!.message).toContain('LOOKOUT_SANDBOX_PROCESSES');
  });

  it.each(KINDS)('%s code that fails as soon as the sandbox refuses it a process is reported as SANDBOX_PROCESSES', async (kind) => {
    if (!canRun(kind)) return;
    // The script's own error reaches the service before the sandbox's verdict: the limit must still be what the result says.
    const result = await runAs(kind, `
      const cp = require('child_process');
      // Processes in bursts until the sandbox refuses one; then fail at once.
      const start = () => new Promise((resolve) => {
        try {
          const child = cp.spawn('/bin/sleep', ['60'], { stdio: 'ignore' });
          child.once('spawn', () => resolve(false));
          child.once('error', () => resolve(true));
        } catch {
          resolve(true);
        }
      });
      for (;;) {
        const refused = await Promise.all(Array.from({ length: 16 }, start));
        if (refused.some(Boolean)) throw new Error('the sandbox refused a process');
      }
    `, 25_000, kind === 'BROWSER' || kind === 'MULTI_STEP' ? sandbox : fewProcessesSandbox);
    expect(result.hasFailures).toBe(true);
    expect(errorCodes(result)).toContain('SANDBOX_PROCESSES');
    expect(result.errors.find((e) => e.code === 'SANDBOX_PROCESSES')!.message).toContain('LOOKOUT_SANDBOX_PROCESSES');
  });

  it.each(KINDS)('%s code that allocates past the memory limit is stopped with SANDBOX_MEMORY', async (kind) => {
    if (!canRun(kind)) return;
    const result = await runAs(kind, `
      const kept = [];
      for (;;) { kept.push(Buffer.alloc(64 * 1024 * 1024, 1)); await new Promise((r) => setImmediate(r)); }
    `);
    expect(result.hasFailures).toBe(true);
    expect(errorCodes(result)).toContain('SANDBOX_MEMORY');
    expect(result.errors.find((e) => e.code === 'SANDBOX_MEMORY')!.message).toContain('LOOKOUT_SANDBOX_MEMORY_MB');
  });

  it.each(KINDS)('%s code that prints without end is stopped with SANDBOX_OUTPUT', async (kind) => {
    if (!canRun(kind)) return;
    const result = await runAs(kind, `
      // Written synchronously, as a flood from any program would be: nothing piles up in the script's own memory.
      const line = 'x'.repeat(100000) + '\\n';
      // (stdout may be non-blocking once something opened it as a stream: a full pipe answers EAGAIN.)
      for (;;) {
        try { require('fs').writeSync(1, line); } catch (e) { if (e.code !== 'EAGAIN') throw e; }
        await new Promise((r) => setImmediate(r));
      }
    `);
    expect(result.hasFailures).toBe(true);
    expect(errorCodes(result)).toContain('SANDBOX_OUTPUT');
  });

  it.each(KINDS)('%s code that runs past the time limit is stopped and recorded as out of time', async (kind) => {
    if (!canRun(kind)) return;
    // A browser run needs its Chromium started before the loop; the others start in well under a second.
    const result = await runAs(kind, 'while (true) {}', kind === 'BROWSER' ? 8_000 : 3_000);
    expect(result.hasFailures).toBe(true);
    const error = result.errors[0]!;
    if (kind === 'BROWSER' || kind === 'MULTI_STEP') expect(error.code).toBe(TIMEOUT_CODE);
    else expect(error.message).toMatch(/did not finish within \d+ ms/);
  });

  it('runs the next check normally after every escape attempt, and leaves no process of a run behind', async () => {
    const result = await runAs('SETUP', 'request.headers["x-after"] = "fine"');
    expect(result.errors).toEqual([]);
    expect(result.hasFailures).toBe(false);
    expect(bystander.exitCode).toBeNull();
    expect(readdirSync(scratch).filter((n) => n.startsWith('lookout-run-'))).toEqual([]);
    await vi.waitFor(() => expect(liveRunProcesses()).toEqual([]), { timeout: 10_000, interval: 100 });
  });
});

describe.skipIf(!sandboxWorks)(`user code in a sandbox limited by rlimits only${sandboxWorks ? '' : ` (skipped: ${SANDBOX_SKIP_REASON})`}`, () => {
  it.each(KINDS)('%s code is as confined without cgroups', async (kind) => {
    if (!canRun(kind)) return;
    const f = findingsOf(await runAs(kind, escapeAttempts(), 25_000, rlimitSandbox));
    expect(f.env).not.toContain(SERVER_SECRET);
    for (const key of ['serverEnviron', 'dataDir', 'otherBundle', 'source', 'writeOutside', 'setuidRoot', 'nestedRoot', 'killServer']) expect(f[key], key).toMatchObject({ ok: false });
    expect(f.uid).not.toBe(0);
  });

  it.each(KINDS)('%s code that allocates past the limit is stopped with SANDBOX_MEMORY', async (kind) => {
    if (!canRun(kind)) return;
    const result = await runAs(kind, `
      const kept = [];
      for (;;) { kept.push(Buffer.alloc(64 * 1024 * 1024, 1)); await new Promise((r) => setImmediate(r)); }
    `, 25_000, rlimitSandbox);
    expect(result.hasFailures).toBe(true);
    expect(errorCodes(result)).toContain('SANDBOX_MEMORY');
  });

  it.each(KINDS)('%s code that forks without end is contained: the run fails and leaves nothing behind', async (kind) => {
    if (!canRun(kind)) return;
    const result = await runAs(kind, `
      require('child_process').spawn('/bin/sh', ['-c', 'b() { b | b & }; b'], { stdio: 'ignore' }).on('error', () => {});
      setInterval(() => {}, 1000);
      await new Promise(() => {});
    `, 6_000, rlimitSandbox);
    expect(result.hasFailures).toBe(true);
    await vi.waitFor(() => expect(liveRunProcesses()).toEqual([]), { timeout: 10_000, interval: 100 });
    expect(bystander.exitCode).toBeNull();
  });
});
