import type { Issue } from './lookout-error.js';

/** What a check's `playwrightConfig` may hold (the CLI's `PlaywrightConfig`, the part the runner applies). */
export interface PlaywrightConfig {
  use?: Record<string, unknown>;
  expect?: { timeout?: number };
  timeout?: number;
}

type Rule = (v: unknown) => string | null;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const text: Rule = (v) => (typeof v === 'string' ? null : 'must be a string');
const bool: Rule = (v) => (typeof v === 'boolean' ? null : 'must be true or false');
const ms: Rule = (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 3_600_000 ? null : 'must be an integer of milliseconds between 0 and 3600000');
const positive: Rule = (v) => (typeof v === 'number' && v > 0 && v <= 10 ? null : 'must be a number above 0 and at most 10');
const oneOf = (...values: string[]): Rule => (v) => (values.includes(v as string) ? null : `must be one of ${values.join(', ')}`);
const objectOf = (fields: Record<string, Rule>, required: string[] = []): Rule => (v) => {
  if (!isRecord(v)) return 'must be an object';
  for (const name of required) if (!(name in v)) return `needs ${name}`;
  for (const [k, value] of Object.entries(v)) {
    const rule = fields[k];
    if (!rule) return `holds ${k}, which is not one of ${Object.keys(fields).join(', ')}`;
    const problem = rule(value);
    if (problem) return `${k} ${problem}`;
  }
  return null;
};
const coordinate = (limit: number): Rule => (v) => (typeof v === 'number' && Math.abs(v) <= limit ? null : `must be a number between -${limit} and ${limit}`);
const pixels: Rule = (v) => (Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 10_000 ? null : 'must be an integer between 1 and 10000');

/**
 * The `use` options the browser runner applies to each run's browser context (and, for the
 * timeouts, to its actions and navigations), with the rule each value must meet.
 */
const USE_RULES: Record<string, Rule> = {
  baseURL: (v) => (typeof v === 'string' && /^https?:\/\/[^/]/i.test(v) ? null : 'must be an http(s) URL'),
  colorScheme: oneOf('light', 'dark', 'no-preference'),
  geolocation: objectOf({ latitude: coordinate(90), longitude: coordinate(180), accuracy: (v) => (typeof v === 'number' && v >= 0 ? null : 'must be a number of at least 0') }, ['latitude', 'longitude']),
  locale: text,
  permissions: (v) => (Array.isArray(v) && v.every((p) => typeof p === 'string') ? null : 'must be a list of strings'),
  timezoneId: text,
  viewport: objectOf({ width: pixels, height: pixels }, ['width', 'height']),
  deviceScaleFactor: positive,
  hasTouch: bool,
  isMobile: bool,
  javaScriptEnabled: bool,
  acceptDownloads: bool,
  extraHTTPHeaders: (v) => (isRecord(v) && Object.values(v).every((h) => typeof h === 'string') ? null : 'must be an object of string values'),
  httpCredentials: objectOf({ username: text, password: text, origin: text }, ['username', 'password']),
  ignoreHTTPSErrors: bool,
  offline: bool,
  actionTimeout: ms,
  navigationTimeout: ms,
  testIdAttribute: (v) => (typeof v === 'string' && v.length > 0 ? null : 'must be a non-empty string'),
  bypassCSP: bool,
  userAgent: text,
};

/** Why a `use` key Playwright knows is refused: the runner's browser cannot honour it. */
const USE_REFUSED: Record<string, string> = {
  launchOptions: 'the runner launches its own Chromium; launch options cannot be changed',
  contextOptions: 'set the context options one by one in use (viewport, locale, …)',
  proxy: 'runs reach targets directly; a proxy is not supported',
};

/** Timeouts run out within the check's own time limit anyway; these bound them to something sane. */
const EXPECT_RULES: Record<string, Rule> = { timeout: ms };
const EXPECT_REFUSED: Record<string, string> = {
  toHaveScreenshot: 'screenshot comparisons are not supported by the runner',
  toMatchSnapshot: 'snapshot comparisons are not supported by the runner',
};

/**
 * Issues of a check's `playwrightConfig` under `key`: each key the runner cannot apply is named
 * with the reason (never accepted and ignored), each value of the wrong kind with its rule.
 */
export function playwrightConfigIssues(config: unknown, key = 'playwrightConfig'): Issue[] {
  if (config === null || config === undefined) return [];
  if (!isRecord(config)) return [{ key, message: 'must be an object with use, expect and timeout' }];
  const issues: Issue[] = [];
  for (const [name, value] of Object.entries(config)) {
    if (name === 'timeout') {
      const problem = ms(value);
      if (problem) issues.push({ key: `${key}.timeout`, message: problem });
    } else if (name === 'use' || name === 'expect') {
      const [rules, refused] = name === 'use' ? [USE_RULES, USE_REFUSED] : [EXPECT_RULES, EXPECT_REFUSED];
      issues.push(...sectionIssues(value, rules, refused, `${key}.${name}`));
    } else {
      issues.push({ key: `${key}.${name}`, message: 'is not supported: playwrightConfig takes use, expect and timeout' });
    }
  }
  return issues;
}

function sectionIssues(section: unknown, rules: Record<string, Rule>, refused: Record<string, string>, key: string): Issue[] {
  if (section === null || section === undefined) return [];
  if (!isRecord(section)) return [{ key, message: 'must be an object' }];
  const issues: Issue[] = [];
  for (const [name, value] of Object.entries(section)) {
    if (value === undefined) continue;
    const rule = rules[name];
    if (!rule) {
      const why = refused[name] ?? `the runner applies only ${Object.keys(rules).join(', ')}`;
      issues.push({ key: `${key}.${name}`, message: `is not supported: ${why}` });
      continue;
    }
    const problem = rule(value);
    if (problem) issues.push({ key: `${key}.${name}`, message: problem });
  }
  return issues;
}
