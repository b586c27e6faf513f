import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = path.join(REPO, 'test/fixtures/checkly-examples');

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
 * repository's node_modules so `checkly` and `@playwright/test` resolve as in an installed project.
 * Nothing else differs from the published project. Returns the folder.
 */
export function copyExampleProject(name: string, rewrites: HostRewrite[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `lookout-example-${name}-`));
  cpSync(path.join(EXAMPLES, name), dir, { recursive: true });
  for (const { file, from, to, count = 1 } of rewrites) {
    const target = path.join(dir, file);
    const text = readFileSync(target, 'utf8');
    const found = text.split(from).length - 1;
    if (found !== count) throw new Error(`${name}/${file}: expected ${count} occurrence(s) of ${JSON.stringify(from)}, found ${found}`);
    writeFileSync(target, text.split(from).join(to));
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}
