/** What Lookout runs of a Playwright check suite's `testCommand`. */
export interface PlaywrightTestRun {
  /** The config file (`--config`/`-c`), relative to the check's `workingDir`; null: Playwright's default names. */
  configPath: string | null;
  /** Playwright's other arguments, in order (`--project`, `--grep`, `--retries`, test filters, …). */
  args: string[];
}

/** What the CLI runs when the check names no testCommand. */
export const DEFAULT_TEST_COMMAND = 'npx playwright test';

/** Runners that start `playwright test` (`npx playwright test`, `pnpm exec playwright test`, …). */
const LAUNCHERS = new Set(['npx', 'pnpm', 'yarn', 'bunx', 'bun', 'exec', 'dlx', 'run', 'x', '--no-install', '--yes', '-y']);

/** Arguments that cannot work on a runner (no display, no debugger, no UI server). */
const REFUSED = new Map([
  ['--ui', 'the UI mode needs a display'], ['--ui-host', 'the UI mode needs a display'], ['--ui-port', 'the UI mode needs a display'],
  ['--headed', 'checks run headless'], ['--debug', 'the inspector needs a display'], ['--list', 'it lists tests without running them'],
]);

/** Shell syntax a single command has no use for: Lookout runs Playwright itself, never a shell. */
const SHELL = /^(&&|\|\||\||;|>|>>|<|&|\$\(.*|`.*)$/;

/** Splits a command line into words as a POSIX shell would (quotes and backslashes), without expanding anything. */
export function shellWords(command: string): string[] | { error: string } {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < command.length) word += command[++i]!;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < command.length) {
      word = (word ?? '') + command[++i]!;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote) return { error: `has an unclosed ${quote} quote` };
  if (word !== null) words.push(word);
  return words;
}

/**
 * The Playwright run a suite's `testCommand` asks for (`npx playwright test --config playwright.config.ts
 * --project chromium --grep @smoke`, as the checkly CLI builds it), or why Lookout cannot honour it:
 * it must start `playwright test` (through npx, pnpm, yarn or bun, or directly), name its config,
 * and use no shell syntax or interactive option.
 */
export function playwrightTestRun(testCommand: string | null | undefined): PlaywrightTestRun | { error: string } {
  const words = shellWords(testCommand?.trim() || DEFAULT_TEST_COMMAND);
  if (!Array.isArray(words)) return { error: words.error };
  const shell = words.find((w) => SHELL.test(w));
  if (shell !== undefined) return { error: `must be a single command: Lookout runs no shell, so "${shell}" cannot be honoured` };
  const at = words.findIndex((w, i) => w === 'playwright' && words[i + 1] === 'test');
  if (at < 0) return { error: 'must run `playwright test` (e.g. `npx playwright test`)' };
  const before = words.slice(0, at).filter((w) => !LAUNCHERS.has(w));
  if (before.length > 0) return { error: `must run only \`playwright test\`: Lookout does not run "${before.join(' ')}"` };
  const rest = words.slice(at + 2);
  let configPath: string | null = null;
  const args: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    const name = w.startsWith('--') ? w.split('=')[0]! : w;
    const refused = REFUSED.get(name);
    if (refused) return { error: `cannot use ${name}: ${refused}` };
    if (name === '--config' || w === '-c') {
      const value = w.includes('=') ? w.slice(w.indexOf('=') + 1) : rest[++i];
      if (!value) return { error: `${w} needs a file` };
      configPath = value;
      continue;
    }
    args.push(w);
  }
  return { configPath, args };
}
