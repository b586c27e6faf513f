import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `node <file>`; resolves with its exit code and output, whatever the code. */
function node(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file], { timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }));
  });
}

// A package of two modules beside copies of the real launcher and build script: what a checkout
// looks like to them, without touching this checkout's own dist/ (other suites run it meanwhile).
describe('the compiled server a checkout runs (bin/lookout.js over dist/)', () => {
  let pkg: string;
  const launcher = () => path.join(pkg, 'bin/lookout.js');
  const source = (rel: string) => path.join(pkg, 'src', rel);

  beforeAll(() => {
    // Inside the repository, so the build script finds esbuild in node_modules as it does here.
    pkg = mkdtempSync(path.join(ROOT, '.server-build-'));
    mkdirSync(path.join(pkg, 'bin'));
    for (const file of ['lookout.js', 'server-build.js']) copyFileSync(path.join(ROOT, 'bin', file), path.join(pkg, 'bin', file));
    mkdirSync(source('store/migrations'), { recursive: true });
    writeFileSync(source('cli.ts'), "import { greeting } from './store/greeting.js';\nconst count: number = 1;\nconsole.log(greeting(count));\n");
    writeFileSync(source('store/greeting.ts'), "import { readFileSync } from 'node:fs';\n"
      + "export const greeting = (n: number): string => `compiled ${n}, ${readFileSync(new URL('./migrations/001_first.sql', import.meta.url), 'utf8').trim()}`;\n");
    writeFileSync(source('store/migrations/001_first.sql'), 'SELECT 1;\n');
  });
  afterAll(() => {
    if (pkg) rmSync(pkg, { recursive: true, force: true });
  });

  it('refuses to start before the first build, in one line saying how to build', async () => {
    const { code, stdout, stderr } = await node(launcher());
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('lookout: the compiled server (dist/) is missing: run `npm run build:server` (or `npm install`, which builds it)\n');
  });

  it('runs the compiled modules once built, with the files they read copied beside them', async () => {
    const built = await node(path.join(pkg, 'bin/server-build.js'));
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/^compiled 2 modules of src\/ to dist\//);
    expect(readFileSync(path.join(pkg, 'dist/cli.js'), 'utf8')).not.toContain(': number');
    const { code, stdout } = await node(launcher());
    expect(code).toBe(0);
    expect(stdout).toBe('compiled 1, SELECT 1;\n');
  });

  it('refuses a build older than a source changed since, naming it', async () => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(source('store/greeting.ts'), later, later);
    const { code, stderr } = await node(launcher());
    expect(code).toBe(1);
    expect(stderr).toBe(`lookout: the compiled server (dist/) is older than ${path.join('src', 'store', 'greeting.ts')}: run \`npm run build:server\` (or \`npm install\`, which builds it)\n`);
  });

  it('refuses a build that lacks a source added since, and runs again once rebuilt', async () => {
    await node(path.join(pkg, 'bin/server-build.js'));
    expect((await node(launcher())).code).toBe(0);
    writeFileSync(source('store/migrations/002_second.sql'), 'SELECT 2;\n');
    const stale = await node(launcher());
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('is out of date (src/ has 4 files, the build 3)');
    await node(path.join(pkg, 'bin/server-build.js'));
    expect((await node(launcher())).stdout).toBe('compiled 1, SELECT 1;\n');
  });
});
