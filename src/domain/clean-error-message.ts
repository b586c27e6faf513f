import { createHash } from 'node:crypto';

/**
 * Replacements in the order they run, after URL query strings: the specific shapes first, so a timestamp or an address is
 * replaced as a whole before the digits inside it would be. Placeholders hold no digits and no
 * run of hex letters, so no rule matches them again and cleaning is idempotent.
 */
const RULES: readonly [RegExp, string][] = [
  // ISO-8601 timestamps, then bare dates and times of day.
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\w:])/gi, '<timestamp>'],
  [/\b\d{4}-\d{2}-\d{2}\b/g, '<date>'],
  [/(?<![\w:.])\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?![\w:])/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  // IPv6 (at least two colons and a hex digit, optionally ending in an IPv4 part), then IPv4. Not
  // next to '<' or '>' so a placeholder never completes an address on a second pass.
  [/(?<![\w:.>])(?=[0-9a-f:]*[0-9a-f])(?:[0-9a-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{1,4})?(?![\w:<]|\.[\d<])/gi, '<ip>'],
  [/(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w.])/g, '<ip>'],
  [/(<ip>\]?):\d{1,5}\b/g, '$1:<port>'],
  [/\b\d+(?:\.\d+)?\s?(?:ms|milliseconds?|µs|us|ns|s|secs?|seconds?|m|mins?|minutes?|h|hours?)\b/gi, '<duration>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  // Hashes and ids of 8+ hex characters; at least one digit, so plain words such as "deadbeef" stay.
  [/\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi, '<hex>'],
  // Quoted tokens mixing letters and digits are ids ("a8f3k2", 'req_91x'); quoted words stay.
  [/(["'`])(?=[\w.:-]*[a-z])(?=[\w.:-]*\d)[\w.:-]+\1/gi, '$1<id>$1'],
  // Any other digits, inside words too (`job_8412`, `attempt3`), so ids glued to names group.
  [/\d+(?:\.\d+)*/g, '<n>'],
];

/**
 * An error message without its volatile parts, so the same failure on different runs reads the
 * same: timestamps, dates and times, UUIDs, URL query strings, IPv4/IPv6 addresses and ports,
 * durations (`1234ms`, `5 s`), hex numbers and hashes of 8+ characters, quoted ids and any other
 * number become placeholders (`<timestamp>`, `<uuid>`, `<ip>:<port>`, `<n>`...); whitespace runs
 * collapse to one space. Idempotent.
 */
export function cleanErrorMessage(raw: string): string {
  let s = raw.replace(/[^\s"'<>`]+/g, withoutQueryString);
  for (const [pattern, replacement] of RULES) s = s.replace(pattern, replacement);
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * A token (text between whitespace, quotes and angle brackets) with the query string of each URL
 * in it replaced: a '?' after a "://" (with no '#' between) up to the next '#' or the token's end.
 * The path stays, it tells errors apart. A single forward scan, because a regex over the whole
 * message backtracks quadratically on long URL-like runs.
 */
function withoutQueryString(token: string): string {
  let out = '';
  let copiedUpTo = 0;
  let inUrl = false;
  for (let i = 0; i < token.length; i++) {
    const c = token[i];
    if (c === ':' && token.startsWith('//', i + 1)) {
      inUrl = true;
      i += 2;
    } else if (c === '#') {
      inUrl = false;
    } else if (c === '?' && inUrl) {
      const fragment = token.indexOf('#', i + 1);
      const end = fragment < 0 ? token.length : fragment;
      if (end > i + 1) {
        out += `${token.slice(copiedUpTo, i + 1)}<query>`;
        copiedUpTo = end;
        i = end - 1;
      }
    }
  }
  return out + token.slice(copiedUpTo);
}

/** The grouping key of a cleaned error message: its SHA-256, hex. */
export function errorHash(cleaned: string): string {
  return createHash('sha256').update(cleaned, 'utf8').digest('hex');
}
