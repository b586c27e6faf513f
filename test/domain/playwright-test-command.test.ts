import { describe, expect, it } from 'vitest';
import { playwrightTestRun, shellWords } from '../../src/domain/playwright-test-command.js';
import { playwrightSuiteIssues } from '../../src/domain/playwright-suite-issues.js';

describe('the Playwright run of a suite\'s testCommand', () => {
  it.each([
    ['npx playwright test --config playwright.config.ts', 'playwright.config.ts', []],
    ["npx playwright test --config 'e2e/my config.ts' --project chromium 'Mobile Safari' --grep '@smoke|@critical'", 'e2e/my config.ts', ['--project', 'chromium', 'Mobile Safari', '--grep', '@smoke|@critical']],
    ['pnpm exec playwright test -c pw.config.mjs --retries=2 tests/login.spec.ts', 'pw.config.mjs', ['--retries=2', 'tests/login.spec.ts']],
    ['yarn playwright test --config=playwright.config.js --workers 1', 'playwright.config.js', ['--workers', '1']],
    ['bunx playwright test', null, []],
    ['', null, []],
  ] as const)('%s runs config %s with the other arguments as they are', (command, configPath, args) => {
    expect(playwrightTestRun(command)).toEqual({ configPath, args });
  });

  it.each([
    ['npm ci && npx playwright test', 'no shell'],
    ['npx playwright test | tee out.txt', 'no shell'],
    ['npx playwright test --ui', 'display'],
    ['npx playwright test --headed', 'headless'],
    ['npx jest', 'must run `playwright test`'],
    ['node scripts/run.js playwright test', 'Lookout does not run "node scripts/run.js"'],
    ["npx playwright test --grep 'unclosed", 'unclosed'],
    ['npx playwright test --config', 'needs a file'],
  ])('refuses %s, saying why', (command, why) => {
    const run = playwrightTestRun(command);
    expect(run).toHaveProperty('error');
    expect((run as { error: string }).error).toContain(why);
  });

  it('splits words as a shell does, expanding nothing', () => {
    expect(shellWords(`a "b c" 'd $HOME' e\\ f ""`)).toEqual(['a', 'b c', 'd $HOME', 'e f', '']);
  });

  it('names testCommand and workingDir when a suite cannot run as sent', () => {
    expect(playwrightSuiteIssues({ name: 'Suite', testCommand: 'npx playwright test', workingDir: 'e2e' })).toEqual([]);
    expect(playwrightSuiteIssues({ name: 'Suite', testCommand: 'npx vitest', workingDir: '/etc' }).map((i) => i.key)).toEqual(['testCommand', 'workingDir']);
    expect(playwrightSuiteIssues({ name: 'Suite', workingDir: 'a/../../b' }).map((i) => i.key)).toEqual(['workingDir']);
  });
});
