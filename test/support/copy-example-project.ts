import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = path.join(REPO, 'test/fixtures/checkly-examples');

/**
 * The package-lock.json `npm install` would leave in the project (the CLI refuses Playwright check
 * suites without a lockfile): the project's dependencies and everything they need, as this
 * repository's lockfile resolved them, i.e. the packages the linked node_modules holds.
 */
function npmLockfileFor(project: { name: string; version: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> }): string {
  const repo = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }> };
  /** Where Node would find `name` from the package at `from` (its own node_modules, then upwards). */
  const resolve = (from: string, name: string): string | undefined => {
    for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/node_modules/')))) {
      const candidate = `${at ? `${at}/` : ''}node_modules/${name}`;
      if (repo.packages[candidate]) return candidate;
      if (!at) return undefined;
    }
  };
  const packages: Record<string, unknown> = { '': { name: project.name, version: project.version, dependencies: project.dependencies, devDependencies: project.devDependencies } };
  const queue = Object.keys({ ...project.dependencies, ...project.devDependencies }).map((name) => resolve('', name));
  for (let key = queue.shift(); queue.length > 0 || key !== undefined; key = queue.shift()) {
    if (key === undefined || key in packages) continue;
    const entry = repo.packages[key]!;
    packages[key] = entry;
    for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) queue.push(resolve(key, dep));
  }
  return `${JSON.stringify({ name: project.name, version: project.version, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`;
}

/** One exact textual replacement in one file of a project: `from` must occur `count` times (default 1). */
export interface HostRewrite {
  /** Project-relative path. */
  file: string;
  from: string;
  to: string;
  count?: number;
}

/**
 * Copies the vendored example project `name` (test/fixtures/checkly-examples/<name>) to a fresh
 * temporary folder, applies `rewrites` there (each must match exactly as often as it says, else
 * this throws naming it: a changed fixture must not silently keep a real host), and links the
 * repository's node_modules so `checkly` and `@playwright/test` resolve as in an installed project,
 * with the package-lock.json an install writes. Nothing else differs from the published project.
 * Returns the folder.
 */
export function copyExampleProject(name: string, rewrites: HostRewrite[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `lookout-example-${name}-`));
  cpSync(path.join(EXAMPLES, name), dir, { recursive: true });
  for (const { file, from, to, count = 1 } of rewrites) {
    const target = path.join(dir, file);
    const text = readFileSync(target, 'utf8');
    const found = text.split(from).length - 1;
    if (found !== count) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`${name}/${file}: expected ${count} occurrence(s) of ${JSON.stringify(from)}, found ${found}`);
    }
    writeFileSync(target, text.split(from).join(to));
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(path.join(dir, 'package-lock.json'), npmLockfileFor(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))));
  return dir;
}
