import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserCheckExecutor } from '../../src/runner/executors/run-browser-check.js';
import { writeScriptFiles } from '../../src/runner/write-script-files.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';
import { defaultSandbox } from '../../src/runner/sandbox/default-sandbox.js';

/**
 * A browser or multi-step check's own project files (`dependencies`, as `checkly deploy` stores
 * them and `checkly test` sends them): written beside the script in the run's folder and reached
 * by relative imports. Scripts here make no request and name no browser, so no Chromium starts.
 */

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'lookout-script-files-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('writing a run\'s files', () => {
  it('keeps their relative layout', async () => {
    const dir = mkdtempSync(path.join(scratch, 'run-'));
    await writeScriptFiles(dir, [{ path: 'checks/helpers/a.ts', content: 'A' }, { path: 'shared/b.json', content: '{}' }]);
    expect(readFileSync(path.join(dir, 'checks/helpers/a.ts'), 'utf8')).toBe('A');
    expect(readFileSync(path.join(dir, 'shared/b.json'), 'utf8')).toBe('{}');
  });

  it('never follows or overwrites what is already there, a symbolic link included', async () => {
    const dir = mkdtempSync(path.join(scratch, 'run-'));
    const outside = path.join(scratch, 'outside.txt');
    writeFileSync(outside, 'untouched');
    symlinkSync(outside, path.join(dir, 'link.js'));
    await expect(writeScriptFiles(dir, [{ path: 'link.js', content: 'owned' }])).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(outside, 'utf8')).toBe('untouched');
  });

  it('refuses a path that resolves outside the folder even when it was not planned first', async () => {
    const dir = mkdtempSync(path.join(scratch, 'run-'));
    await expect(writeScriptFiles(dir, [{ path: '../escaped.js', content: 'x' }])).rejects.toThrow('points outside the run\'s folder');
    expect(existsSync(path.join(scratch, 'escaped.js'))).toBe(false);
  });
});

describe('a multi-step script with its project files', () => {
  const exec = () => createBrowserCheckExecutor({ chromiumPath: path.join(scratch, 'no-chromium'), assetsDir: path.join(scratch, 'assets'), sandbox: defaultSandbox() });
  const run = (script: string, dependencies: unknown[], extra: Record<string, unknown> = {}) =>
    exec()(runnableCheck('MULTI_STEP', { script, scriptPath: 'checks/flow.spec.ts', dependencies, ...extra }), runContext({ timeoutMs: 15_000 }));

  beforeAll(async () => {
    await mkdir(path.join(scratch, 'assets'), { recursive: true });
  });

  it('imports TypeScript, JavaScript and JSON files relative to the script and to each other', async () => {
    const result = await run(`
import { total } from './lib/cart'
import prices from '../data/prices.json'
const { test, expect } = require('@playwright/test')
const n: number = 2
test('the cart adds up', async () => {
  expect(total(prices, n)).toBe(7)
})
`, [
      { path: 'checks/lib/cart.ts', content: "import { round } from '../../shared/round.js'\nexport function total(p: { apple: number }, n: number): number { return round(p.apple * n) }\n" },
      { path: 'shared/round.js', content: 'module.exports.round = (x) => Math.round(x)\n' },
      { path: 'data/prices.json', content: '{"apple": 3.5}' },
    ]);
    expect(result.errors).toEqual([]);
    expect(result.hasFailures).toBe(false);
    expect(result.multiStepCheckResult).toMatchObject({ browserVersion: null });
  });

  it.each([
    ['a file the CLI did not send', "require('./lib/missing')", [], 'Cannot require "./lib/missing" from checks/flow.spec.ts: checks/lib/missing is not among the check\'s files'],
    ['an npm package', "require('left-pad')", [], 'Cannot require "left-pad": scripts may require Node.js built-in modules, @playwright/test and the project\'s own files only'],
    ['a relative path leaving the project', "require('../../x')", [], 'Cannot require "../../x" from checks/flow.spec.ts: it points outside the project'],
  ])('fails with a clear error for %s', async (_what, script, deps, message) => {
    const result = await run(script, deps);
    expect(result.hasFailures).toBe(true);
    expect(result.errors[0]).toMatchObject({ code: 'SCRIPT_ERROR' });
    expect(result.errors[0]!.message).toContain(message);
  });

  it('fails a check whose files would land outside its folder before anything runs, even with shouldFail', async () => {
    const marker = path.join(scratch, 'pwned.js');
    const rel = path.relative(path.join(tmpdir(), 'lookout-browser-x', 'work'), marker);
    const result = await run("require('fs')", [{ path: rel, content: 'x' }], { shouldFail: true });
    expect(result.hasFailures).toBe(true);
    expect(result.errors).toEqual([{ code: 'DEPENDENCY_ERROR', message: `the script's files cannot be used: dependencies.0.path "${rel}" points outside the project` }]);
    expect(existsSync(marker)).toBe(false);
  });
});
