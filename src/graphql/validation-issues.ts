import type { RestErrorBody } from './rest-types.js';

/** One invalid input field named by a REST 400: its dotted key and what is wrong with it. */
export interface ValidationIssue {
  key: string;
  message: string;
  /** The REST issue's stable code (REQUIRED, TOO_SHORT, …); absent from an older backend's answer. */
  code?: string;
}

/** Invalid keys listed at most when the caller does not say (`LOOKOUT_MAX_ERROR_ISSUES`). */
export const DEFAULT_MAX_ERROR_ISSUES = 20;

/** Longest REST error message passed on; the REST API bounds its own, an older backend may not. */
export const MAX_MESSAGE_CHARS = 1000;

/** Longest message of one issue. */
const MAX_ISSUE_MESSAGE_CHARS = 300;

/**
 * Characters of an older backend's combined message searched for a key's sentence: the keys kept are
 * the first ones, whose sentences come first, so a message of megabytes is never scanned whole.
 */
const MESSAGE_SEARCH_CHARS = 64 * 1024;

/** `text` cut to `max` characters (an ellipsis marking the cut), never splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * An older backend wrote one sentence per key into its message (`"request.port" must be <= 65535.
 * "tags.0" must be string`): the part about `key`, or null when the message does not name it.
 */
function sentenceOf(message: string, key: string): string | null {
  const head = message.slice(0, MESSAGE_SEARCH_CHARS);
  const marker = `"${key}" `;
  const start = head.indexOf(marker);
  if (start < 0) return null;
  const from = start + marker.length;
  const end = head.indexOf('. "', from);
  const sentence = head.slice(from, end < 0 ? undefined : end).trim();
  return sentence || null;
}

/** What an issue code looks like: a short upper-case word, so a backend's odd value is never passed on. */
const ISSUE_CODE = /^[A-Z][A-Z_]{0,39}$/;

const isIssue = (value: unknown): value is ValidationIssue =>
  !!value && typeof (value as ValidationIssue).key === 'string' && typeof (value as ValidationIssue).message === 'string';

/**
 * The invalid keys of a REST 400 body, each once and at most `max` of them, each with a message of its
 * own, and how many more invalid keys there were (`omitted`). Reads the current body
 * (`validation.issues` and `validation.omitted`) and an older backend's, which has only
 * `validation.keys`, possibly thousands, and one message naming them all: each key then gets its own
 * sentence from that message, or "is invalid". Whatever the backend sent, the result is bounded.
 */
export function validationIssues(body: RestErrorBody | undefined, max: number = DEFAULT_MAX_ERROR_ISSUES): { issues: ValidationIssue[]; omitted: number } {
  const validation = body?.validation;
  if (!validation || typeof validation !== 'object') return { issues: [], omitted: 0 };
  const listed = Array.isArray(validation.issues) ? validation.issues.filter(isIssue) : null;
  const keys = listed ? listed.map((i) => i.key) : Array.isArray(validation.keys) ? validation.keys.filter((k): k is string => typeof k === 'string') : [];
  const message = typeof body?.message === 'string' ? body.message : '';
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  let omitted = 0;
  keys.forEach((key, i) => {
    if (seen.has(key)) return;
    seen.add(key);
    if (issues.length >= max) {
      omitted++;
      return;
    }
    const text = listed ? listed[i]!.message : sentenceOf(message, key) ?? 'is invalid';
    const code = listed ? listed[i]!.code : undefined;
    issues.push({
      key: truncate(key, MAX_ISSUE_MESSAGE_CHARS), message: truncate(text, MAX_ISSUE_MESSAGE_CHARS),
      ...(typeof code === 'string' && ISSUE_CODE.test(code) ? { code } : {}),
    });
  });
  const more = Number(validation.omitted);
  if (Number.isSafeInteger(more) && more > 0) omitted += more;
  return { issues, omitted };
}
