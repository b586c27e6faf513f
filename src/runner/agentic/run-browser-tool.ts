import type { Page } from 'playwright-core';
import { AGENTIC_ASSERTION_KINDS, type AgenticAssertionKind } from '../../domain/agentic-tools.js';

/** One expectation of the prompt as the runner evaluated it on the page (the shape CLI 8 prints). */
export interface AgenticAssertion {
  condition: string;
  kind: string;
  passed: boolean;
  expected: string;
  actual: string;
}

/** A suggestion the model made when it finished. */
export interface AgenticSuggestion {
  summary: string;
  category: string | null;
}

/** What one tool call did: the text handed back to the model, and what it recorded. */
export interface ToolOutcome {
  output: string;
  assertion?: AgenticAssertion;
  finished?: { summary: string; suggestions: AgenticSuggestion[] };
}

const MAX_PAGE_TEXT = 8000;
const MAX_FIELD = 500;

/**
 * Runs the tool `name` with the model's `args` on `page`. A tool that fails on the page (no such
 * element, navigation error) answers the model with the reason, so it can try otherwise; only
 * `assert` records anything in the result.
 */
export async function runBrowserTool(page: Page, name: string, args: Record<string, any>, actionTimeoutMs: number): Promise<ToolOutcome> {
  try {
    switch (name) {
      case 'navigate': {
        const url = text(args.url);
        if (!/^https?:\/\//i.test(url)) return { output: `error: navigate needs an absolute http(s) URL, got "${url}"` };
        const res = await page.goto(url, { timeout: actionTimeoutMs, waitUntil: 'load' });
        return { output: `status ${res?.status() ?? 'unknown'}; url ${page.url()}; title "${await page.title()}"` };
      }
      case 'click':
        await page.locator(text(args.selector)).first().click({ timeout: actionTimeoutMs });
        await page.waitForLoadState('load', { timeout: actionTimeoutMs }).catch(() => undefined);
        return { output: `clicked; url ${page.url()}; title "${await page.title()}"` };
      case 'type':
        await page.locator(text(args.selector)).first().fill(text(args.text), { timeout: actionTimeoutMs });
        return { output: 'typed' };
      case 'read_page':
        return { output: `url ${page.url()}\ntitle "${await page.title()}"\ntext:\n${truncate(await visibleText(page, actionTimeoutMs), MAX_PAGE_TEXT)}` };
      case 'assert': {
        const assertion = await evaluate(page, args, actionTimeoutMs);
        return { output: `${assertion.passed ? 'passed' : 'failed'}: expected ${JSON.stringify(assertion.expected)}, got ${JSON.stringify(assertion.actual)}`, assertion };
      }
      case 'finish': {
        const suggestions = Array.isArray(args.suggestions) ? args.suggestions.slice(0, 20).map((s: Record<string, any>) => ({
          summary: truncate(text(s?.summary), MAX_FIELD), category: s?.category ? truncate(text(s.category), 100) : null,
        })).filter((s: AgenticSuggestion) => s.summary) : [];
        return { output: 'finished', finished: { summary: truncate(text(args.summary), 4000), suggestions } };
      }
      default:
        return { output: `error: there is no tool "${name}"` };
    }
  } catch (err) {
    return { output: `error: ${truncate(firstLine(err), MAX_FIELD)}` };
  }
}

/** An `assert` call checked against the page: the model says what to look for, the page says whether it is there. */
async function evaluate(page: Page, args: Record<string, any>, timeoutMs: number): Promise<AgenticAssertion> {
  const condition = truncate(text(args.condition) || 'unnamed expectation', MAX_FIELD);
  const kind = text(args.kind);
  const expected = truncate(text(args.expected), MAX_FIELD);
  const base = { condition, kind, expected };
  if (!(AGENTIC_ASSERTION_KINDS as readonly string[]).includes(kind)) {
    return { ...base, passed: false, actual: `unknown assertion kind "${kind}"` };
  }
  switch (kind as AgenticAssertionKind) {
    case 'text_visible': {
      const body = await visibleText(page, timeoutMs);
      const found = expected !== '' && normalize(body).includes(normalize(expected));
      return { ...base, passed: found, actual: found ? expected : `not on the page (${truncate(normalize(body), 200)})` };
    }
    case 'title_contains': {
      const title = await page.title();
      return { ...base, passed: expected !== '' && title.includes(expected), actual: title };
    }
    case 'url_contains': {
      const url = page.url();
      return { ...base, passed: expected !== '' && url.includes(expected), actual: url };
    }
    case 'element_visible': {
      const selector = text(args.selector);
      if (!selector) return { ...base, passed: false, actual: 'no selector given' };
      const visible = await page.locator(selector).first().isVisible().catch(() => false);
      return { ...base, expected: expected || selector, passed: visible, actual: visible ? 'visible' : `no visible element matches ${selector}` };
    }
    case 'element_count_at_least': {
      const selector = text(args.selector);
      const least = Number(expected);
      if (!selector || !Number.isFinite(least)) return { ...base, passed: false, actual: 'needs a selector and a number as expected' };
      const count = await page.locator(selector).count();
      return { ...base, passed: count >= least, actual: `${count} element${count === 1 ? '' : 's'} match ${selector}` };
    }
  }
}

async function visibleText(page: Page, timeoutMs: number): Promise<string> {
  return page.locator('body').innerText({ timeout: timeoutMs }).catch(() => '');
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

function normalize(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
