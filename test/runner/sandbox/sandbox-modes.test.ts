import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, sandboxSettings } from '../../../src/config.js';
import { createLookout } from '../../../src/main.js';
import { createApiCheckExecutor } from '../../../src/runner/executors/run-api-check.js';
import { createBrowserCheckExecutor } from '../../../src/runner/executors/run-browser-check.js';
import { createSandbox } from '../../../src/runner/sandbox/create-sandbox.js';
import { sandboxOffRefusal } from '../../../src/runner/sandbox/sandbox-off-refusal.js';
import { createStore } from '../../../src/store/create-store.js';
import { CHROMIUM } from '../../support/chromium.js';
import { runContext, runnableCheck } from '../../support/net-probe-fixtures.js';

const silent = pino({ level: 'silent' });

describe('the sandbox settings', () => {
  it('default to bubblewrap with limits on memory, processes, output and file size', () => {
    expect(sandboxSettings({})).toEqual({
      mode: 'bwrap', forceOff: false, bwrapPath: 'bwrap', memoryMb: 1024, processes: 512, outputKb: 8192, scratchMb: 256, uidBase: 200_000,
    });
    expect(sandboxSettings({ LOOKOUT_SANDBOX: 'on' }).mode).toBe('bwrap');
    expect(sandboxSettings({ LOOKOUT_SANDBOX: 'off', LOOKOUT_SANDBOX_FORCE_OFF: 'true' })).toMatchObject({ mode: 'off', forceOff: true });
  });

  it.each([
    [{ LOOKOUT_SANDBOX: 'vm' }, 'LOOKOUT_SANDBOX must be bwrap (also on) or off'],
    [{ LOOKOUT_SANDBOX_MEMORY_MB: '10' }, 'LOOKOUT_SANDBOX_MEMORY_MB must be an integer of at least 64'],
    [{ LOOKOUT_SANDBOX_PROCESSES: '0' }, 'LOOKOUT_SANDBOX_PROCESSES must be an integer of at least 16'],
    [{ LOOKOUT_SANDBOX_OUTPUT_KB: 'lots' }, 'LOOKOUT_SANDBOX_OUTPUT_KB must be a non-negative integer'],
    [{ LOOKOUT_SANDBOX_FORCE_OFF: 'maybe' }, 'LOOKOUT_SANDBOX_FORCE_OFF must be on or off'],
  ])('refuse %j at start, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('a sandbox that cannot work', () => {
  const sandbox = createSandbox({
    settings: { ...sandboxSettings({}), bwrapPath: '/nonexistent/bwrap' }, chromiumPath: CHROMIUM, protectedPaths: [], logger: silent,
  });
  afterAll(() => sandbox.close());

  it('says why at start', () => {
    expect(sandbox.unavailable).toContain('/nonexistent/bwrap');
    expect(sandbox.description).toContain('LOOKOUT_SANDBOX=off');
  });

  it.each(['BROWSER', 'MULTI_STEP'] as const)('fails every %s run with SANDBOX_UNAVAILABLE naming the setting, instead of running it unsandboxed', async (type) => {
    const exec = createBrowserCheckExecutor({ chromiumPath: CHROMIUM, assetsDir: tmpdir(), sandbox });
    const result = await exec(runnableCheck(type, { script: 'console.log(1)', shouldFail: true }), runContext());
    expect(result.hasFailures).toBe(true);
    expect(result.errors).toEqual([{ code: 'SANDBOX_UNAVAILABLE', message: expect.stringContaining('LOOKOUT_SANDBOX') }]);
  });

  it('fails an API check\'s setup script with SANDBOX_UNAVAILABLE, before any request', async () => {
    const exec = createApiCheckExecutor(sandbox);
    const result = await exec(runnableCheck('API', { request: { url: 'http://127.0.0.1:9/', method: 'GET' }, localSetupScript: 'request.url = "x"' }), runContext());
    expect(result.hasFailures).toBe(true);
    expect(result.errors).toEqual([{ code: 'SANDBOX_UNAVAILABLE', message: expect.stringContaining('LOOKOUT_SANDBOX') }]);
  });

  it('is refused when a protected folder would be visible to every run', () => {
    const exposed = createSandbox({ settings: sandboxSettings({}), chromiumPath: CHROMIUM, protectedPaths: ['/usr/lookout-data'], logger: silent });
    expect(exposed.unavailable).toContain('/usr/lookout-data lies inside /usr');
    exposed.close();
  });
});

describe('the sandbox turned off', () => {
  it('is allowed with one account, refused with more unless forced', () => {
    expect(sandboxOffRefusal({ mode: 'off', forceOff: false }, 1)).toBeNull();
    expect(sandboxOffRefusal({ mode: 'off', forceOff: false }, 2)).toContain('LOOKOUT_SANDBOX_FORCE_OFF');
    expect(sandboxOffRefusal({ mode: 'off', forceOff: true }, 2)).toBeNull();
    expect(sandboxOffRefusal({ mode: 'bwrap', forceOff: false }, 2)).toBeNull();
  });

  describe('on a server with two accounts', () => {
    let dataDir: string;
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'lookout-sandbox-off-'));
      const store = await createStore({ dataDir });
      await store.accounts.create({ name: 'one' });
      await store.accounts.create({ name: 'two' });
      await store.close();
    });
    afterAll(() => rm(dataDir, { recursive: true, force: true }));

    const start = (env: Record<string, string>) => createLookout({
      config: { ...loadConfig({}), port: 0, host: '127.0.0.1', runnerEnabled: false, sandbox: sandboxSettings(env) }, storeOptions: { dataDir }, logger: silent,
    });

    it('does not start with LOOKOUT_SANDBOX=off, and says how to go on', async () => {
      await expect(start({ LOOKOUT_SANDBOX: 'off' })).rejects.toThrow(/would make 2 accounts.*LOOKOUT_SANDBOX_FORCE_OFF=true/);
    });

    it('refuses `lookout accounts create` a third account, naming the setting', () => {
      const made = spawnSync(process.execPath, ['bin/lookout.js', 'accounts', 'create', '--name', 'three'], {
        env: { ...process.env, LOOKOUT_SANDBOX: 'off', LOOKOUT_DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8',
      });
      expect(made.status).toBe(1);
      expect(made.stderr).toContain('would make 3 accounts');
      expect(made.stdout).toBe('');
    });

    it('starts when the operator forces it', async () => {
      const lookout = await start({ LOOKOUT_SANDBOX: 'off', LOOKOUT_SANDBOX_FORCE_OFF: 'true' });
      await lookout.close();
    });
  });
});
