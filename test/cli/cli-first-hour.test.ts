import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookout } from '../../src/main.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Runs the `lookout` binary as users do; resolves with its exit code and output, whatever the code. */
function lookout(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/lookout.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }));
  });
}

/** A folder name for LOOKOUT_DATA_DIR that does not exist yet: a command that creates it opened the database. */
function unusedDataDir(): string {
  return path.join(mkdtempSync(path.join(os.tmpdir(), 'lookout-cli-')), 'data');
}

describe('the lookout command line', () => {
  it.concurrent.each([
    [['--help'], 'Usage: lookout [command]'],
    [['-h'], 'Usage: lookout [command]'],
    [['help'], 'Usage: lookout [command]'],
    [['--version'], `lookout ${VERSION}`],
    [['-v'], `lookout ${VERSION}`],
    [['serve', '--help'], 'Usage: lookout serve'],
    [['serve', '-h'], 'Usage: lookout serve'],
    [['agent', '--help'], 'Usage: lookout agent'],
    [['migrate', '--help'], 'Usage: lookout migrate'],
    [['keys', 'create', '--help'], 'Usage: lookout keys create'],
    [['accounts', '--help'], 'Usage: lookout accounts create'],
  ])('answers `lookout %s` on stdout with exit code 0 and starts nothing', async (args, text) => {
    const dataDir = unusedDataDir();
    const { code, stdout } = await lookout(args, { LOOKOUT_DATA_DIR: dataDir, PORT: '0' });
    expect(code).toBe(0);
    expect(stdout).toContain(text);
    expect(existsSync(dataDir)).toBe(false);
  });

  it.each([
    [['bogus'], 'unknown command "bogus"'],
    [['keys', 'create', '--bogus'], "Unknown option '--bogus'"],
    [['keys', 'create'], 'keys create needs --account'],
    [['serve', '--role'], "Option '--role <value>' argument missing"],
  ])('refuses `lookout %s` as a usage error (exit code 2) saying why', async (args, text) => {
    const { code, stderr } = await lookout(args, { LOOKOUT_DATA_DIR: unusedDataDir() });
    expect(code).toBe(2);
    expect(stderr).toContain(text);
  });

  it.each([
    ['PORT', '70000', 'PORT must be a port number from 1 to 65535'],
    ['PORT', 'abc', 'PORT must be a port number'],
    ['PORT', '-1', 'PORT must be a port number'],
    ['DATABASE_URL', 'garbage', 'DATABASE_URL must be a PostgreSQL URL'],
    ['DATABASE_URL', 'mysql://db.example.test/lookout', 'got the scheme "mysql"'],
    ['LOG_LEVEL', 'verbose', 'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"'],
    ['LOOKOUT_RUNNER', 'of', 'LOOKOUT_RUNNER must be on or off'],
    ['GRAPHQL_INTROSPECTION', 'maybe', 'GRAPHQL_INTROSPECTION must be on or off'],
    ['LOOKOUT_ROLE', 'everything', 'LOOKOUT_ROLE must be one of all, api, runner'],
    ['LOOKOUT_PUBLIC_URL', 'not a url', 'LOOKOUT_PUBLIC_URL must be a URL'],
  ])('refuses to serve with %s=%s, naming the variable and what it accepts, before opening the database', async (name, value, message) => {
    const dataDir = unusedDataDir();
    const { code, stderr } = await lookout(['serve'], { LOOKOUT_DATA_DIR: dataDir, PORT: '0', [name]: value });
    expect(code).toBe(1);
    expect(stderr).toContain(message);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('fails at once on a taken port, before it opens the database or makes an account', async () => {
    const taken = net.createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as AddressInfo;
    try {
      const dataDir = unusedDataDir();
      const { code, stderr } = await lookout(['serve'], { LOOKOUT_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
      expect(code).toBe(1);
      expect(stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      taken.close();
    }
  });
});

describe('the bootstrap key', () => {
  it('is made by the first start that listens, so a start that could not listen loses no key', async () => {
    const dataDir = unusedDataDir();
    const logger = pino({ level: 'silent' });
    const taken = net.createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as AddressInfo;
    const config = { host: '127.0.0.1', runnerEnabled: false, bootstrapAccountId: undefined, bootstrapApiKey: undefined };
    try {
      const failed = await createLookout({ config: { ...config, port }, storeOptions: { dataDir }, logger });
      await expect(failed.listen()).rejects.toThrow(/EADDRINUSE/);
      expect(() => failed.bootstrap).toThrow(/listen/);
      await failed.close();
    } finally {
      taken.close();
    }
    const first = await createLookout({ config: { ...config, port: 0 }, storeOptions: { dataDir }, logger });
    await first.listen();
    expect(first.bootstrap).toEqual(expect.objectContaining({ created: true, apiKey: expect.stringMatching(/^lo_/) }));
    await first.close();
    const again = await createLookout({ config: { ...config, port: 0 }, storeOptions: { dataDir }, logger });
    await again.listen();
    expect(again.bootstrap).toEqual({ accountId: first.bootstrap.accountId, created: false });
    await again.close();
  }, 120_000); // three embedded databases opened one after another: slow on a loaded 2-core machine
});

describe('npm start', () => {
  let target: HttpTarget;
  beforeAll(async () => {
    target = await startHttpTarget();
  });
  afterAll(async () => {
    await target?.close();
  });

  it('is one process that finishes the request in flight and exits on SIGTERM, releasing its port and data folder', async () => {
    const dataDir = unusedDataDir();
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOOKOUT_DATA_DIR: dataDir, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    // 'close': the process ended and everything it printed has been read.
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let output = '';
    child.stderr.on('data', (d: Buffer) => (output += d));
    const ready = await new Promise<{ url: string; accountId: string; apiKey: string }>((resolve, reject) => {
      let keyFile = '';
      createInterface({ input: child.stdout }).on('line', (line) => {
        output += `${line}\n`;
        keyFile ||= /Key file:\s+(\S+)/.exec(line)?.[1] ?? '';
        if (line.startsWith('{')) {
          const entry = JSON.parse(line) as { msg?: string; url?: string; accountId?: string };
          // The first start's key is in a file only its owner reads, not in the output.
          if (entry.msg === 'lookout listening') resolve({ url: entry.url!, accountId: entry.accountId!, apiKey: readFileSync(keyFile, 'utf8').trim().split('\n').at(-1)! });
        }
      });
      void exited.then((code) => reject(new Error(`npm start exited (${code}) before listening:\n${output}`)));
    });
    expect(ready.apiKey).toMatch(/^lo_/);
    expect(output).not.toContain(ready.apiKey);
    // A first start says each step at info, in order, before it listens (none of it silent).
    // The build ships a migrated database (dist/store/pglite-template.tar.gz): a first start loads it rather than migrating.
    const steps = ['loading the server', 'opening database', 'creating the database from the shipped template (its migrations already applied)', 'starting the runner, its sandbox and the event streams', 'building the REST API and the GraphQL schema', 'starting to listen', 'lookout listening'];
    const said = output.split('\n').filter((line) => line.startsWith('{')).map((line) => (JSON.parse(line) as { msg?: string; level?: number }));
    expect(said.filter((e) => steps.includes(e.msg ?? '')).map((e) => e.msg)).toEqual(steps);
    expect(said.filter((e) => steps.includes(e.msg ?? '')).every((e) => e.level === 30)).toBe(true);
    const headers = { authorization: `Bearer ${ready.apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${ready.url}/v1/checks/api`, {
      method: 'POST', headers,
      body: JSON.stringify({ name: 'Slow', frequency: 5, locations: ['eu-west-1'], request: { method: 'GET', url: `${target.http.url}/delay/1500` } }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const probed = new Promise<void>((resolve) => target.events.on('request', (r: { path: string }) => r.path === '/delay/1500' && resolve()));
    const inFlight = fetch(`${ready.url}/v1/checks/${id}/run`, { method: 'POST', headers: { authorization: headers.authorization } });
    await probed;
    child.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { results: { resultType: string }[] }).results[0]!.resultType).toBe('FINAL');
    await exited;
    expect(output).toContain('"msg":"shutting down"');
    expect(output, output).toContain('"msg":"stopped"');
    // The server (not only npm) is gone: the lock it holds on the data folder was released, and the port is closed.
    expect(existsSync(path.join(dataDir, 'lookout.lock'))).toBe(false);
    await expect(fetch(`${ready.url}/health`)).rejects.toThrow();
    rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }, 120_000);
});
