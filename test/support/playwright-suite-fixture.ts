import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The Playwright project of the suite tests (test/fixtures/playwright-suite): a config with a
 * `login-setup` project, a `chromium` and a `firefox` project depending on it; a passing and a
 * failing test importing a TypeScript helper; the shop's address from `SHOP_URL`.
 */
export const PLAYWRIGHT_SUITE_FIXTURE = path.join(REPO, 'test', 'fixtures', 'playwright-suite');

/** A fresh copy of the fixture project, with the repository's packages beside it as a real project has its own. */
export function copyPlaywrightSuite(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lookout-pw-suite-'));
  cpSync(PLAYWRIGHT_SUITE_FIXTURE, dir, { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The fixture's files as the checkly CLI uploads a project: a gzip-compressed tar archive. */
export function playwrightSuiteBundle(): Buffer {
  return execFileSync('tar', ['-czf', '-', '-C', PLAYWRIGHT_SUITE_FIXTURE, 'package.json', 'package-lock.json', 'playwright.config.ts', 'tests']);
}

/** The smallest project archive: one short file, gzip-compressed tar (a few hundred bytes). */
export function tinyTarGz(): Buffer {
  return execFileSync('tar', ['-czf', '-', '-C', PLAYWRIGHT_SUITE_FIXTURE, 'package.json']);
}
