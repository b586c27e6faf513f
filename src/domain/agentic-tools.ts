/**
 * The tools an agentic check's model may call (OpenAI's function-calling shape), and what it is
 * told. Every tool but `finish` drives the run's real browser; `assert` is checked against the
 * page by the runner, never taken from the model's word.
 */
export const AGENTIC_TOOLS = [
  tool('navigate', 'Opens a URL in the browser and waits for it to load. Answers the status, final URL and title.', {
    url: { type: 'string', description: 'An absolute http(s) URL.' },
  }, ['url']),
  tool('click', 'Clicks the first element matching a Playwright selector (CSS, or text=..., role=button[name="..."]).', {
    selector: { type: 'string' },
  }, ['selector']),
  tool('type', 'Fills a text field matched by a Playwright selector with text (replacing what it held).', {
    selector: { type: 'string' },
    text: { type: 'string' },
  }, ['selector', 'text']),
  tool('read_page', "Reads the current page: its URL, title and visible text (truncated).", {}, []),
  tool('assert', 'Checks one expectation against the current page and records it as an assertion of the check. '
    + 'kind: text_visible (the page text contains expected), title_contains, url_contains, '
    + 'element_visible (selector matches a visible element), element_count_at_least (selector matches at least expected elements).', {
    condition: { type: 'string', description: 'The expectation in the words of the prompt.' },
    kind: { type: 'string', enum: ['text_visible', 'title_contains', 'url_contains', 'element_visible', 'element_count_at_least'] },
    expected: { type: 'string', description: 'Text to find, or the least count for element_count_at_least.' },
    selector: { type: 'string', description: 'For element_visible and element_count_at_least.' },
  }, ['condition', 'kind']),
  tool('finish', 'Ends the check once every expectation of the prompt was asserted. Give a short summary and any suggestions to improve the site or the check.', {
    summary: { type: 'string' },
    suggestions: {
      type: 'array',
      items: { type: 'object', properties: { summary: { type: 'string' }, category: { type: 'string' } }, required: ['summary'] },
    },
  }, ['summary']),
] as const;

/** The kinds of `assert`. */
export const AGENTIC_ASSERTION_KINDS = ['text_visible', 'title_contains', 'url_contains', 'element_visible', 'element_count_at_least'] as const;
export type AgenticAssertionKind = (typeof AGENTIC_ASSERTION_KINDS)[number];

/** What the model is told before the check's prompt. */
export const AGENTIC_SYSTEM_PROMPT = [
  'You are the agent of a synthetic monitoring check. You control a real Chromium browser only through the tools given.',
  'Follow the user\'s instructions, then verify each expectation they state with the assert tool (one call per expectation);',
  'assertions are evaluated against the live page, so assert what you can see. Call finish when done.',
  'The check passes only when every assertion passes and at least one was made.',
].join(' ');

/**
 * What the model is told when the prompt names secret variables: it sees only their placeholders,
 * and the runner types the value when a `type` call's text carries one.
 */
export function agenticSecretsNote(names: readonly string[]): string {
  const list = names.map((n) => `{{${n}}}`).join(', ');
  return `The placeholders ${list} stand for secret values you are not shown: to enter one, call type with the placeholder itself as text `
    + '(the browser types the real value); they are filled in nowhere else, so never put them in URLs.';
}

function tool(name: string, description: string, properties: Record<string, unknown>, required: string[]) {
  return { type: 'function', function: { name, description, parameters: { type: 'object', properties, required, additionalProperties: false } } } as const;
}
