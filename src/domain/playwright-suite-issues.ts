import type { CheckData } from './check-defaults.js';
import type { Issue } from './lookout-error.js';
import { playwrightTestRun } from './playwright-test-command.js';

/**
 * What a Playwright check suite asks for that Lookout cannot honour, refused at the door: a
 * `testCommand` that is not a single `playwright test` run, a `workingDir` leaving the bundle.
 * (The bundle's presence is checked by the service, which can see the account's stored files.)
 */
export function playwrightSuiteIssues(c: CheckData): Issue[] {
  const issues: Issue[] = [];
  const run = playwrightTestRun(c.testCommand);
  if ('error' in run) issues.push({ key: 'testCommand', message: run.error });
  const dir = typeof c.workingDir === 'string' ? c.workingDir : '.';
  if (dir.startsWith('/') || dir.split(/[\\/]/).includes('..')) issues.push({ key: 'workingDir', message: 'must be a folder inside the project (relative, without "..")' });
  return issues;
}
