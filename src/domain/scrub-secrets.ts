import { domainToASCII } from 'node:url';

/** What a secret value is replaced with wherever a run's output is kept. */
export const SCRUBBED = '*****';

/** Replaces every secret in a text; the identity when there are no secrets. */
export type Scrubber = (text: string) => string;

/**
 * Shortest piece of base64 matched inside a longer base64 text. A shorter piece would turn up by
 * chance in unrelated base64 (certificates, images, tokens) and hide it.
 */
export const MIN_BASE64_PIECE = 4;

/** The values of the secret variables among `variables` (empty values hide nothing and are left out). */
export function secretValues<V extends { value: string; secret?: boolean }>(variables: readonly V[]): string[] {
  return variables.filter((v) => v.secret === true && v.value !== '').map((v) => v.value);
}

/**
 * A scrubber for `secrets`: each value is replaced by `*****` in every form it takes on the way
 * into a request, an error message or a log:
 * - as written, and in any letter case (resolvers and URL parsers lower-case host names);
 * - percent-encoded as encodeURIComponent, encodeURI, HTML forms (`+` for spaces) and the URL
 *   parser's path, query and user-info encodings do it (hex digits in either case);
 * - escaped inside a JSON string, also with a `\u` escape for every non-ASCII character;
 * - as an IDNA host name (punycode, `url.domainToASCII`) where that differs;
 * - base64 and base64url, alone (padded or not) and inside a longer base64 text such as the
 *   `user:password` of HTTP Basic auth: for each of the three byte alignments, the characters
 *   that depend on the secret's bytes alone, when there are at least MIN_BASE64_PIECE of them.
 *   Base64 is matched in its exact case, since its letter case carries the bits.
 * Longer forms are tried first, so a secret that contains another is hidden whole. All forms of
 * all secrets are one regular expression compiled here, once: build one scrubber per run. Each
 * alternative is a fixed sequence of characters, so matching stays linear in the text.
 */
export function createScrubber(secrets: readonly string[]): Scrubber {
  const alternatives = new Map<string, number>();
  const add = (pattern: string, length: number) => alternatives.set(pattern, Math.max(length, alternatives.get(pattern) ?? 0));
  for (const secret of new Set(secrets)) {
    if (!secret) continue;
    for (const form of textForms(secret)) add(anyCase(form), form.length);
    for (const form of base64Forms(secret)) add(escapeRegExp(form), form.length);
  }
  if (alternatives.size === 0) return (text) => text;
  const ordered = [...alternatives].sort((a, b) => b[1] - a[1]).map(([pattern]) => pattern);
  const pattern = new RegExp(ordered.join('|'), 'gu');
  return (text) => text.replace(pattern, SCRUBBED);
}

/**
 * A copy of a JSON-like value with every string (object keys included) scrubbed; other values
 * are kept as they are.
 */
export function scrubDeep<T>(value: T, scrub: Scrubber): T {
  return walk(value, scrub) as T;
}

function walk(value: unknown, scrub: Scrubber): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, scrub));
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[scrub(k)] = walk(v, scrub);
    return out;
  }
  return value;
}

/** Printable ASCII but `except`: what a WHATWG URL percent-encode set leaves as it is. */
function printableExcept(except: string): (ch: string) => boolean {
  return (ch) => ch >= '!' && ch <= '~' && !except.includes(ch);
}

/** Characters each encoding leaves as they are; everything else becomes UTF-8 `%XX`. */
const KEEP = {
  uriComponent: (ch: string) => /^[A-Za-z0-9\-_.!~*'()]$/.test(ch),
  uri: (ch: string) => /^[A-Za-z0-9\-_.!~*'();,/?:@&=+$#]$/.test(ch),
  form: (ch: string) => /^[A-Za-z0-9*\-._]$/.test(ch),
  // As node's URL class writes a path, a query and a password.
  urlPath: printableExcept('"#<>?`{}'),
  urlQuery: printableExcept('"#\'<>'),
  urlUserinfo: printableExcept('"#/:;<=>?@[\\]^`{|}'),
} as const;

function percentEncode(text: string, keep: (ch: string) => boolean, spaceAsPlus = false): string {
  let out = '';
  for (const ch of text) {
    if (spaceAsPlus && ch === ' ') out += '+';
    else if (keep(ch)) out += ch;
    else for (const byte of Buffer.from(ch, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `text` as it sits between the quotes of a JSON string. */
function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Textual forms, matched in any letter case. */
function textForms(secret: string): Set<string> {
  const forms = new Set<string>();
  // Case mappings that change the length (ß → SS) are not single-character classes: spell them out.
  for (const cased of new Set([secret, secret.toLowerCase(), secret.toUpperCase()])) {
    forms.add(cased);
    forms.add(percentEncode(cased, KEEP.uriComponent));
    forms.add(percentEncode(cased, KEEP.uri));
    forms.add(percentEncode(cased, KEEP.form, true));
    forms.add(percentEncode(cased, KEEP.urlPath));
    forms.add(percentEncode(cased, KEEP.urlQuery));
    forms.add(percentEncode(cased, KEEP.urlUserinfo));
    forms.add(jsonEscaped(cased));
    forms.add(jsonEscaped(cased).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  }
  const idna = domainToASCII(secret);
  if (idna) forms.add(idna);
  return forms;
}

/** Base64 and base64url forms of at least MIN_BASE64_PIECE characters, matched exactly. */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const standard = bytes.toString('base64');
  const forms = [standard, standard.replace(/=+$/, '')];
  for (let pad = 0; pad < 3; pad++) {
    // After `pad` bytes of other text, the first character wholly made of the secret's bits is
    // at ceil(8·pad / 6); the last ends before the secret's final bit.
    const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    forms.push(encoded.slice(Math.ceil((8 * pad) / 6), Math.floor((8 * (pad + bytes.length)) / 6)));
  }
  const urlSafe = forms.map((form) => form.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
  return [...new Set([...forms, ...urlSafe])].filter((form) => form.length >= MIN_BASE64_PIECE);
}

/** A pattern matching `text` in any letter case, one character class per cased character. */
function anyCase(text: string): string {
  let out = '';
  for (const ch of text) {
    const variants = new Set([ch, ch.toLowerCase(), ch.toUpperCase()].filter((v) => [...v].length === 1));
    out += variants.size > 1 ? `[${[...variants].sort().join('')}]` : escapeRegExp(ch);
  }
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
