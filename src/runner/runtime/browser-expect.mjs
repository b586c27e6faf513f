// The `expect` of browser and multi-step scripts (loaded by browser-check-child.mjs).
// A focused re-implementation of the Playwright Test matchers scripts use most, because
// playwright-core ships no `expect` and @playwright/test's one needs its test runner.
// Plain JavaScript so the child starts under bare `node`.
import { inspect, isDeepStrictEqual } from 'node:util';

/** How long page, locator and response matchers retry before failing, as in Playwright Test. */
export const DEFAULT_EXPECT_TIMEOUT_MS = 5000;
const RETRY_DELAYS_MS = [100, 250, 500, 1000];

/**
 * A failed expectation. `outcome` describes it as an assertion of the run (the shape of
 * AssertionOutcome in src/domain/check-result.ts), so the runner can tell a failing check
 * from a script that crashed.
 */
export class ExpectationError extends Error {
  constructor(message, outcome) {
    super(message);
    this.name = 'ExpectationError';
    this.outcome = outcome;
  }
}

/**
 * Creates `expect(actual, messageOrOptions?)` with `.not`, `expect.soft` (records the failure and
 * carries on; `softFailures()` lists them) and `expect.configure({timeout})`.
 *
 * Value matchers (synchronous): toBe, toEqual (deep, ignoring undefined properties),
 * toStrictEqual, toBeTruthy, toBeFalsy, toBeDefined, toBeUndefined, toBeNull, toBeNaN,
 * toContain, toContainEqual, toHaveLength, toHaveProperty, toMatch, toBeGreaterThan,
 * toBeGreaterThanOrEqual, toBeLessThan, toBeLessThanOrEqual, toBeCloseTo, toBeInstanceOf,
 * toThrow, and toBeOK for an APIResponse.
 * Page matchers (retrying, awaited): toHaveTitle, toHaveURL.
 * Locator matchers (retrying, awaited): toBeVisible, toBeHidden, toHaveText, toContainText,
 * toHaveCount, toHaveValue, toHaveAttribute, toBeEnabled, toBeDisabled, toBeChecked.
 * Retrying matchers poll until they pass or `timeout` (default 5 s) runs out.
 */
export function createExpect({ timeout = DEFAULT_EXPECT_TIMEOUT_MS } = {}) {
  const softFailures = [];
  const make = (soft, defaults) => {
    const expect = (actual, messageOrOptions) => {
      const options = typeof messageOrOptions === 'string' ? { message: messageOrOptions } : (messageOrOptions ?? {});
      const state = { actual, soft, message: options.message, timeout: options.timeout ?? defaults.timeout, softFailures };
      const matchers = buildMatchers(state, false);
      matchers.not = buildMatchers(state, true);
      return matchers;
    };
    expect.soft = soft ? expect : make(true, defaults);
    expect.configure = (options = {}) => make(options.soft ?? soft, { timeout: options.timeout ?? defaults.timeout });
    expect.softFailures = () => [...softFailures];
    return expect;
  };
  return make(false, { timeout });
}

function buildMatchers(state, negate) {
  const out = {};
  for (const [name, matcher] of Object.entries(VALUE_MATCHERS)) {
    out[name] = (...args) => settle(state, negate, name, args, matcher(state.actual, ...args));
  }
  for (const [name, matcher] of Object.entries(RETRYING_MATCHERS)) {
    out[name] = (...args) => retry(state, negate, name, args, matcher);
  }
  return out;
}

async function retry(state, negate, name, args, matcher) {
  const last = args[args.length - 1];
  const options = last && typeof last === 'object' && !(last instanceof RegExp) && !Array.isArray(last) ? last : {};
  const timeout = options.timeout ?? state.timeout;
  matcher.accepts(state.actual, name);
  const deadline = Date.now() + timeout;
  let result;
  for (let attempt = 0; ; attempt++) {
    try {
      result = await matcher.probe(state.actual, Math.max(1, deadline - Date.now()), ...args);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // A selector matching several elements will not get better by waiting.
      if (message.includes('strict mode violation')) throw err;
      result = { pass: false, received: null, expected: undefined, error: message };
    }
    if (result.pass !== negate) return;
    const left = deadline - Date.now();
    if (left <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_DELAYS_MS[attempt] ?? 1000, left)));
  }
  settle(state, negate, name, args, { ...result, timeout });
}

function settle(state, negate, name, args, result) {
  if (result.pass !== negate) return;
  const subject = subjectOf(state.actual);
  const expectedShown = result.expected === undefined ? args[0] : result.expected;
  const hasExpected = result.expected !== undefined || (args.length > 0 && !isOptions(args[0]));
  const lines = [`${subject}.${negate ? 'not.' : ''}${name}(${hasExpected ? 'expected' : ''})`, ''];
  if (hasExpected) lines.push(`Expected${negate ? ' not' : ''}: ${show(expectedShown)}`);
  lines.push(`Received: ${result.received === undefined ? show(state.actual) : show(result.received)}`);
  if (result.error) lines.push(`Error: ${result.error}`);
  if (result.timeout !== undefined) lines.push(`Timeout: ${result.timeout}ms`);
  const body = lines.join('\n');
  const message = state.message ? `${state.message}\n\n${body}` : body;
  const error = new ExpectationError(message, {
    source: 'SCRIPT',
    property: subject,
    comparison: `${negate ? 'not.' : ''}${name}`,
    target: hasExpected ? plain(expectedShown) : null,
    regex: expectedShown instanceof RegExp ? expectedShown.source : null,
    actual: plain(result.received === undefined ? state.actual : result.received),
    passed: false,
    error: state.message ?? `${subject}.${negate ? 'not.' : ''}${name} failed`,
  });
  Error.captureStackTrace?.(error, settle);
  if (state.soft) {
    state.softFailures.push(error);
    return;
  }
  throw error;
}

function isOptions(v) {
  return v !== null && typeof v === 'object' && !(v instanceof RegExp) && !Array.isArray(v) && 'timeout' in v;
}

function subjectOf(actual) {
  if (isPage(actual)) return 'expect(page)';
  if (isLocator(actual)) return 'expect(locator)';
  return 'expect(received)';
}

function show(v) {
  if (typeof v === 'string') return JSON.stringify(v);
  return inspect(v, { depth: 4, breakLength: Infinity, maxStringLength: 1000, maxArrayLength: 50 });
}

/** A value as assertion text: strings as they are, everything else as shown in messages. */
function plain(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (isPage(v)) return v.url();
  if (isLocator(v)) return String(v);
  return show(v);
}

function isPage(v) {
  return v !== null && typeof v === 'object' && typeof v.goto === 'function' && typeof v.title === 'function';
}

function isLocator(v) {
  return v !== null && typeof v === 'object' && typeof v.count === 'function' && typeof v.isVisible === 'function' && typeof v.goto !== 'function';
}

function isApiResponse(v) {
  return v !== null && typeof v === 'object' && typeof v.ok === 'function' && typeof v.status === 'function';
}

/** Deep equality as toEqual has it: properties whose value is undefined are ignored. */
function equals(a, b) {
  if (Object.is(a, b)) return true;
  if (a instanceof RegExp || b instanceof RegExp) return a instanceof RegExp && b instanceof RegExp && String(a) === String(b);
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => equals(v, b[i]));
  if (a instanceof Map || a instanceof Set || b instanceof Map || b instanceof Set) return isDeepStrictEqual(a, b);
  const keysA = Object.keys(a).filter((k) => a[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => b[k] !== undefined);
  return keysA.length === keysB.length && keysA.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equals(a[k], b[k]));
}

function normalizeSpace(s) {
  return String(s ?? '').replace(/[\u200b\u00ad]/g, '').replace(/\s+/g, ' ').trim();
}

/** String (whole, whitespace-normalised; or contained) or RegExp match, as Playwright's text matchers. */
function textMatches(received, expected, contain, ignoreCase) {
  if (received === null || received === undefined) return false;
  if (expected instanceof RegExp) {
    expected.lastIndex = 0;
    return expected.test(received);
  }
  let r = normalizeSpace(received);
  let e = normalizeSpace(expected);
  if (ignoreCase) {
    r = r.toLowerCase();
    e = e.toLowerCase();
  }
  return contain ? r.includes(e) : r === e;
}

function compareNumbers(received, expected, test) {
  return { pass: typeof received === 'number' || typeof received === 'bigint' ? test(received, expected) : false };
}

function propertyPath(path) {
  if (Array.isArray(path)) return path;
  return String(path).replace(/\[(\w+)\]/g, '.$1').split('.').filter((p) => p !== '');
}

const VALUE_MATCHERS = {
  toBe: (r, e) => ({ pass: Object.is(r, e) }),
  toEqual: (r, e) => ({ pass: equals(r, e) }),
  toStrictEqual: (r, e) => ({ pass: isDeepStrictEqual(r, e) }),
  toBeTruthy: (r) => ({ pass: !!r }),
  toBeFalsy: (r) => ({ pass: !r }),
  toBeDefined: (r) => ({ pass: r !== undefined }),
  toBeUndefined: (r) => ({ pass: r === undefined }),
  toBeNull: (r) => ({ pass: r === null }),
  toBeNaN: (r) => ({ pass: Number.isNaN(r) }),
  toContain: (r, e) => {
    if (typeof r === 'string') return { pass: r.includes(String(e)) };
    if (r != null && typeof r[Symbol.iterator] === 'function') return { pass: [...r].includes(e) };
    return { pass: false, error: 'received value is neither a string nor iterable' };
  },
  toContainEqual: (r, e) => ({ pass: r != null && typeof r[Symbol.iterator] === 'function' && [...r].some((v) => equals(v, e)) }),
  toHaveLength: (r, e) => ({ pass: r != null && r.length === e, received: r?.length }),
  toHaveProperty: (r, path, ...value) => {
    let current = r;
    for (const key of propertyPath(path)) {
      if (current === null || current === undefined || !(key in Object(current))) {
        return { pass: false, received: r, expected: path };
      }
      current = current[key];
    }
    return value.length === 0 ? { pass: true } : { pass: equals(current, value[0]), received: current, expected: value[0] };
  },
  toMatch: (r, e) => ({ pass: typeof r === 'string' && (e instanceof RegExp ? e.test(r) : r.includes(String(e))) }),
  toBeGreaterThan: (r, e) => compareNumbers(r, e, (a, b) => a > b),
  toBeGreaterThanOrEqual: (r, e) => compareNumbers(r, e, (a, b) => a >= b),
  toBeLessThan: (r, e) => compareNumbers(r, e, (a, b) => a < b),
  toBeLessThanOrEqual: (r, e) => compareNumbers(r, e, (a, b) => a <= b),
  toBeCloseTo: (r, e, digits = 2) => ({ pass: typeof r === 'number' && Math.abs(r - e) < 10 ** -digits / 2 }),
  toBeInstanceOf: (r, e) => ({ pass: typeof e === 'function' && r instanceof e }),
  toThrow: (r, e) => {
    if (typeof r !== 'function') return { pass: false, error: 'received value must be a function' };
    try {
      r();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (e === undefined) return { pass: true, received: message };
      if (e instanceof RegExp) return { pass: e.test(message), received: message };
      if (typeof e === 'function') return { pass: err instanceof e, received: err };
      return { pass: message.includes(String(e)), received: message };
    }
    return { pass: false, received: 'the function did not throw' };
  },
  toBeOK: (r) => {
    if (!isApiResponse(r)) return { pass: false, error: 'toBeOK needs an APIResponse', received: r };
    return { pass: r.ok(), received: `${r.status()} ${r.statusText()} (${r.url()})`, expected: '2xx status' };
  },
};

const pageMatcher = (probe) => ({
  accepts: (actual, name) => {
    if (!isPage(actual)) throw new TypeError(`${name} needs a Page, e.g. expect(page).${name}(...)`);
  },
  probe,
});

const locatorMatcher = (probe) => ({
  accepts: (actual, name) => {
    if (!isLocator(actual)) throw new TypeError(`${name} needs a Locator, e.g. expect(page.locator('h1')).${name}(...)`);
  },
  // Not-found is a plain failure (retried); the probes below only read an element that exists.
  probe: async (locator, left, ...args) => {
    const count = await locator.count();
    return probe(locator, { count, timeout: left }, ...args);
  },
});

const NOT_FOUND = '<element(s) not found>';

const RETRYING_MATCHERS = {
  toHaveTitle: pageMatcher(async (page, _left, expected, options = {}) => {
    const received = await page.title();
    return { pass: textMatches(received, expected, false, options.ignoreCase), received };
  }),
  toHaveURL: pageMatcher(async (page, _left, expected, options = {}) => {
    const received = page.url();
    if (expected instanceof RegExp) return { pass: textMatches(received, expected), received };
    const e = String(expected);
    return { pass: options.ignoreCase ? received.toLowerCase() === e.toLowerCase() : received === e, received };
  }),
  toBeVisible: locatorMatcher(async (locator, { count }) => {
    const visible = count > 0 && (await locator.isVisible());
    return { pass: visible, received: count === 0 ? NOT_FOUND : visible ? 'visible' : 'hidden', expected: 'visible' };
  }),
  toBeHidden: locatorMatcher(async (locator, { count }) => {
    const visible = count > 0 && (await locator.isVisible());
    return { pass: !visible, received: visible ? 'visible' : 'hidden', expected: 'hidden' };
  }),
  toHaveText: locatorMatcher((locator, s, expected, options = {}) => textProbe(locator, s, expected, false, options)),
  toContainText: locatorMatcher((locator, s, expected, options = {}) => textProbe(locator, s, expected, true, options)),
  toHaveCount: locatorMatcher(async (_locator, { count }, expected) => ({ pass: count === expected, received: count })),
  toHaveValue: locatorMatcher(async (locator, { count, timeout }, expected) => {
    if (count === 0) return { pass: false, received: NOT_FOUND };
    const received = await locator.inputValue({ timeout });
    return { pass: textMatches(received, expected, false), received };
  }),
  toHaveAttribute: locatorMatcher(async (locator, { count, timeout }, name, ...value) => {
    if (count === 0) return { pass: false, received: NOT_FOUND };
    const received = await locator.getAttribute(name, { timeout });
    const wanted = value[0];
    if (wanted === undefined || isOptions(wanted)) return { pass: received !== null, received, expected: `attribute "${name}"` };
    return { pass: received !== null && textMatches(received, wanted, false), received, expected: wanted };
  }),
  toBeEnabled: locatorMatcher(async (locator, { count, timeout }) => {
    const enabled = count > 0 && (await locator.isEnabled({ timeout }));
    return { pass: enabled, received: count === 0 ? NOT_FOUND : enabled ? 'enabled' : 'disabled', expected: 'enabled' };
  }),
  toBeDisabled: locatorMatcher(async (locator, { count, timeout }) => {
    const disabled = count > 0 && (await locator.isDisabled({ timeout }));
    return { pass: disabled, received: count === 0 ? NOT_FOUND : disabled ? 'disabled' : 'enabled', expected: 'disabled' };
  }),
  toBeChecked: locatorMatcher(async (locator, { count, timeout }) => {
    const checked = count > 0 && (await locator.isChecked({ timeout }));
    return { pass: checked, received: count === 0 ? NOT_FOUND : checked ? 'checked' : 'unchecked', expected: 'checked' };
  }),
};

async function textProbe(locator, { count, timeout }, expected, contain, options) {
  if (count === 0) return { pass: false, received: NOT_FOUND };
  if (Array.isArray(expected)) {
    const texts = await locator.allTextContents();
    const pass = texts.length === expected.length && texts.every((t, i) => textMatches(t, expected[i], contain, options.ignoreCase));
    return { pass, received: texts };
  }
  const received = await locator.textContent({ timeout });
  return { pass: textMatches(received, expected, contain, options.ignoreCase), received };
}
