import { JSONPath } from 'jsonpath-plus';
import { COMPARISONS, type Comparison } from './catalog.js';
import type { AssertionOutcome } from './check-result.js';
import { formatDnsAnswerJson, formatDnsAnswerText } from './format-dns-answer.js';
import type { Observation } from './observation.js';
import { readMonitorSource } from './read-monitor-source.js';

/** An assertion as a check stores it (`request.assertions[]`). */
export interface Assertion {
  source: string;
  property?: string | null;
  comparison: string;
  target?: string | number | null;
  regex?: string | null;
}

/** Longest `actual` kept in an outcome: a whole response body does not belong in every outcome. */
export const MAX_ACTUAL_LENGTH = 1000;

/**
 * Evaluates one assertion against what a run observed. Never throws: anything that cannot be
 * evaluated (invalid JSON body, invalid JSON path or regex, unknown source or comparison, a source
 * of another check family, a non-numeric side of a numeric comparison) is `passed: false` with
 * an `error`; a plain failure also carries an `error` saying what was expected.
 *
 * The value looked at, per source (`property` is ignored where not listed):
 *
 * | source        | family | value                                                                 |
 * |---------------|--------|-----------------------------------------------------------------------|
 * | STATUS_CODE   | HTTP   | status code (number)                                                  |
 * | RESPONSE_TIME | HTTP, TCP, DNS | response time in ms (number)                                  |
 * | TEXT_BODY     | HTTP   | body text                                                             |
 * | HEADERS       | HTTP   | value of header `property` (name matched ignoring case; repeated headers joined with ", "); without property, all headers as an object with lower-case names |
 * | JSON_BODY     | HTTP   | JSON path `property` (default `$`) into the parsed body               |
 * | RESPONSE_DATA | TCP    | data received                                                         |
 * | RESPONSE_CODE | DNS    | response code name; compared ignoring case (NOERROR, NXDOMAIN...)     |
 * | TEXT_ANSWER   | DNS    | answer records as text, one per line like dig (formatDnsAnswerText)   |
 * | JSON_ANSWER   | DNS    | JSON path `property` into `{Status, Answer: [{name, type, TTL, data}]}` |
 * | LATENCY       | ICMP   | latency `property` (avg, min, max or stdDev) in ms; null when no ping was answered |
 * | JSON_RESPONSE | ICMP   | JSON path `property` into `{packetsSent, packetsReceived, packetLoss, latency, address}` |
 * | GRPC_STATUS_CODE | GRPC | gRPC status code of the call (number; 0 is OK)                     |
 * | GRPC_HEALTHCHECK_STATUS | GRPC | serving status number (1 SERVING, 2 NOT_SERVING, …); absent outside HEALTH mode |
 * | GRPC_RESPONSE | GRPC   | JSON path `property` (default `$`) into the response message          |
 * | TEXT_BODY     | GRPC   | the response message as JSON text                                     |
 * | GRPC_METADATA | GRPC   | value of response metadata `property` (as HEADERS); without property, all of it as an object |
 * | (SSL and TRACEROUTE sources: see readMonitorSource)                                          |
 *
 * JSON paths are evaluated by jsonpath-plus (filters run in its safe evaluator): no match means no
 * value (absent), one match is that value, several matches (`$..name`, `[*]`) are the array of
 * matches. `$.items.length` is the length of an array or string.
 *
 * `regex`, when set, is applied to the value's text first; the value becomes the first capture
 * group (the whole match when the regex has no group), or absent when it does not match.
 *
 * Comparisons, with T the target as text ('' when null) and V the value:
 *
 * | comparison    | passes when                                                                        |
 * |---------------|------------------------------------------------------------------------------------|
 * | EQUALS        | V and T are both numbers and numerically equal; else V is an object/array deep-equal to T parsed as JSON; else V's text is exactly T. Never for an absent or null V |
 * | NOT_EQUALS    | EQUALS does not                                                                    |
 * | HAS_KEY       | V (or V's text parsed as JSON) is an object with own key T, or an array with index T |
 * | NOT_HAS_KEY   | HAS_KEY does not                                                                   |
 * | HAS_VALUE     | V (or V's text parsed as JSON) is an object or array with a member that EQUALS T    |
 * | NOT_HAS_VALUE | HAS_VALUE does not                                                                 |
 * | IS_EMPTY      | V is absent, null, '', [] or {} (numbers and booleans are never empty)             |
 * | NOT_EMPTY     | IS_EMPTY does not                                                                  |
 * | GREATER_THAN  | V > T numerically; an error when either is not a number                           |
 * | LESS_THAN     | V < T numerically; an error when either is not a number                           |
 * | CONTAINS      | V is an array with an element that EQUALS T; else V's text (objects as JSON) contains T. Never for an absent or null V |
 * | NOT_CONTAINS  | CONTAINS does not                                                                  |
 * | IS_NULL       | V is absent or null                                                                |
 * | NOT_NULL      | IS_NULL does not                                                                   |
 *
 * "Number" means a JSON number or a text that is a decimal number (`12`, `-1.5`, `2e3`), so the
 * target "200" equals the status code 200. Text comparisons are case-sensitive.
 */
export function evaluateAssertion(assertion: Assertion, observed: Observation): AssertionOutcome {
  return evaluate(assertion, { observation: observed });
}

/** Evaluates each assertion in order (the observed JSON body is parsed once for all of them). */
export function evaluateAssertions(assertions: readonly Assertion[], observed: Observation): AssertionOutcome[] {
  const ctx: Context = { observation: observed };
  return assertions.map((a) => evaluate(a, ctx));
}

interface Context {
  observation: Observation;
  /** The HTTP body (or gRPC response message) parsed as JSON, once per context. */
  json?: Parsed;
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

interface Reading {
  /** undefined means absent: no such header, no JSON path match, no regex match. */
  value: unknown;
  /** HEADERS without property: HAS_KEY matches header names ignoring case. */
  keysIgnoreCase?: boolean;
  /** RESPONSE_CODE: both sides compare upper-cased. */
  upperCase?: boolean;
}

type Extracted = Reading | { error: string };

function evaluate(assertion: Assertion, ctx: Context): AssertionOutcome {
  const property = assertion.property ?? null;
  const base = {
    source: assertion.source,
    property,
    comparison: assertion.comparison,
    target: assertion.target ?? null,
    regex: assertion.regex ?? null,
  };
  const fail = (error: string, value?: unknown): AssertionOutcome => ({ ...base, actual: actualText(value), passed: false, error });

  const comparison = assertion.comparison;
  if (!isComparison(comparison)) return fail(`unknown comparison ${JSON.stringify(comparison)}`);
  let read = readSource(assertion.source, property, ctx);
  if ('error' in read) return fail(read.error);
  if (assertion.regex) {
    const matched = applyRegex(read.value, assertion.regex);
    if ('error' in matched) return fail(matched.error, read.value);
    read = { ...read, value: matched.value };
  }

  let target = assertion.target == null ? '' : String(assertion.target);
  let value = read.value;
  if (read.upperCase) {
    target = target.toUpperCase();
    if (typeof value === 'string') value = value.toUpperCase();
  }
  const verdict = compare(comparison, value, target, read.keysIgnoreCase === true);
  if ('error' in verdict) return fail(verdict.error, value);
  if (verdict.passed) return { ...base, actual: actualText(value), passed: true };
  return fail(failureMessage(assertion, comparison, value), value);
}

function isComparison(c: string): c is Comparison {
  return (COMPARISONS as readonly string[]).includes(c);
}

const LATENCY_PROPERTIES = ['avg', 'min', 'max', 'stdDev'] as const;

function readSource(source: string, property: string | null, ctx: Context): Extracted {
  const o = ctx.observation;
  const wrongFamily = (): Extracted => ({ error: `source ${source} does not apply to ${o.kind} results` });
  if (o.kind === 'SSL' || o.kind === 'TRACEROUTE') return readMonitorSource(source, property, o);
  switch (source) {
    case 'STATUS_CODE':
      return o.kind === 'HTTP' ? { value: o.statusCode } : wrongFamily();
    case 'RESPONSE_TIME':
      return o.kind === 'ICMP' ? wrongFamily() : { value: o.responseTime };
    case 'TEXT_BODY':
      if (o.kind === 'GRPC') return { value: o.message };
      return o.kind === 'HTTP' ? { value: o.body } : wrongFamily();
    case 'HEADERS':
      if (o.kind !== 'HTTP') return wrongFamily();
      return property ? { value: headerValue(o.headers, property) } : { value: lowerCaseHeaders(o.headers), keysIgnoreCase: true };
    case 'JSON_BODY': {
      if (o.kind !== 'HTTP') return wrongFamily();
      ctx.json ??= parseJson(o.body);
      if (!ctx.json.ok) return { error: `response body is not valid JSON: ${ctx.json.error}` };
      return queryJson(ctx.json.value, property);
    }
    case 'RESPONSE_DATA':
      return o.kind === 'TCP' ? { value: o.data } : wrongFamily();
    case 'RESPONSE_CODE':
      return o.kind === 'DNS' ? { value: o.rcode, upperCase: true } : wrongFamily();
    case 'TEXT_ANSWER':
      return o.kind === 'DNS' ? { value: formatDnsAnswerText(o) } : wrongFamily();
    case 'JSON_ANSWER':
      return o.kind === 'DNS' ? queryJson(formatDnsAnswerJson(o), property) : wrongFamily();
    case 'LATENCY': {
      if (o.kind !== 'ICMP') return wrongFamily();
      const key = LATENCY_PROPERTIES.find((p) => p === property);
      if (!key) return { error: `LATENCY property must be one of ${LATENCY_PROPERTIES.join(', ')}` };
      return { value: o.latency ? o.latency[key] : null };
    }
    case 'JSON_RESPONSE': {
      if (o.kind !== 'ICMP') return wrongFamily();
      const { kind: _kind, ...summary } = o;
      return queryJson({ ...summary, address: o.address ?? null }, property);
    }
    case 'CERTIFICATE': case 'CONNECTION': case 'TEXT_RESPONSE': case 'HOP_COUNT': case 'PACKET_LOSS':
      return wrongFamily();
    case 'GRPC_STATUS_CODE':
      return o.kind === 'GRPC' ? { value: o.statusCode } : wrongFamily();
    case 'GRPC_HEALTHCHECK_STATUS':
      return o.kind === 'GRPC' ? { value: o.healthStatus ?? undefined } : wrongFamily();
    case 'GRPC_RESPONSE': {
      if (o.kind !== 'GRPC') return wrongFamily();
      ctx.json ??= parseJson(o.message);
      if (!ctx.json.ok) return { error: `response message is not valid JSON: ${ctx.json.error}` };
      return queryJson(ctx.json.value, property);
    }
    case 'GRPC_METADATA':
      if (o.kind !== 'GRPC') return wrongFamily();
      return property ? { value: headerValue(o.metadata, property) } : { value: { ...o.metadata }, keysIgnoreCase: true };
    default:
      return { error: `unknown source ${JSON.stringify(source)}` };
  }
}

function headerValue(headers: Readonly<Record<string, string | readonly string[] | undefined>>, name: string): string | undefined {
  const wanted = name.trim().toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted && value !== undefined) return typeof value === 'string' ? value : value.join(', ');
  }
  return undefined;
}

function lowerCaseHeaders(headers: Readonly<Record<string, string | readonly string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(headers)) {
    const value = headerValue(headers, key);
    if (value !== undefined) out[key.toLowerCase()] = value;
  }
  return out;
}

function parseJson(text: string): Parsed {
  try {
    // A byte-order mark is not JSON but servers send it.
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch (e) {
    return { ok: false, error: errorMessage(e) };
  }
}

function queryJson(doc: unknown, property: string | null): Extracted {
  const path = property?.trim() || '$';
  try {
    const matches = JSONPath({ path, json: doc as object, wrap: true, eval: 'safe', ignoreEvalErrors: true }) as unknown[] | undefined;
    // jsonpath-plus answers nothing at all for a null document, even for `$`.
    if (doc === null) return { value: path === '$' ? null : undefined };
    if (!matches || matches.length === 0) return { value: undefined };
    return { value: matches.length === 1 ? matches[0] : matches };
  } catch (e) {
    return { error: `invalid JSON path ${JSON.stringify(path)}: ${errorMessage(e)}` };
  }
}

function applyRegex(value: unknown, pattern: string): { value: unknown } | { error: string } {
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (e) {
    return { error: `invalid regex ${JSON.stringify(pattern)}: ${errorMessage(e)}` };
  }
  const text = textOf(value);
  if (text === null) return { value };
  const m = re.exec(text);
  if (!m) return { value: undefined };
  return { value: m.length > 1 ? m[1] : m[0] };
}

type Verdict = { passed: boolean } | { error: string };

function compare(comparison: Comparison, value: unknown, target: string, keysIgnoreCase: boolean): Verdict {
  switch (comparison) {
    case 'EQUALS': return { passed: equalsTarget(value, target) };
    case 'NOT_EQUALS': return { passed: !equalsTarget(value, target) };
    case 'HAS_KEY': return { passed: hasKey(value, target, keysIgnoreCase) };
    case 'NOT_HAS_KEY': return { passed: !hasKey(value, target, keysIgnoreCase) };
    case 'HAS_VALUE': return { passed: hasValue(value, target) };
    case 'NOT_HAS_VALUE': return { passed: !hasValue(value, target) };
    case 'IS_EMPTY': return { passed: isEmpty(value) };
    case 'NOT_EMPTY': return { passed: !isEmpty(value) };
    case 'GREATER_THAN': return numeric(value, target, (v, t) => v > t);
    case 'LESS_THAN': return numeric(value, target, (v, t) => v < t);
    case 'CONTAINS': return { passed: contains(value, target) };
    case 'NOT_CONTAINS': return { passed: !contains(value, target) };
    case 'IS_NULL': return { passed: value == null };
    case 'NOT_NULL': return { passed: value != null };
  }
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Whether a text is a number as assertions read one (`12`, `-1.5`, `2e3`; spaces around allowed). */
export function isDecimalNumber(text: string): boolean {
  return toNumber(text) !== null;
}

function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (!DECIMAL.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

function equalsTarget(value: unknown, target: string): boolean {
  if (value == null) return false;
  const v = toNumber(value);
  const t = toNumber(target);
  if (v !== null && t !== null) return v === t;
  if (typeof value === 'object') {
    const parsed = parseJson(target);
    return parsed.ok && canonicalJson(parsed.value) === canonicalJson(value);
  }
  return textOf(value) === target;
}

/** An object or array to look keys and values up in: the value itself or its text parsed as JSON. */
function containerOf(value: unknown): object | null {
  if (value !== null && typeof value === 'object') return value;
  if (typeof value !== 'string') return null;
  const parsed = parseJson(value);
  return parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? parsed.value : null;
}

function hasKey(value: unknown, key: string, ignoreCase: boolean): boolean {
  const c = containerOf(value);
  if (!c) return false;
  if (Array.isArray(c)) return /^\d+$/.test(key) && Number(key) < c.length;
  if (ignoreCase) return Object.keys(c).some((k) => k.toLowerCase() === key.toLowerCase());
  return Object.hasOwn(c, key);
}

function hasValue(value: unknown, target: string): boolean {
  const c = containerOf(value);
  if (!c) return false;
  return Object.values(c).some((member) => equalsTarget(member, target));
}

function isEmpty(value: unknown): boolean {
  if (value == null) return true;
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

function numeric(value: unknown, target: string, test: (v: number, t: number) => boolean): Verdict {
  const v = toNumber(value);
  const t = toNumber(target);
  if (t === null) return { error: `target ${JSON.stringify(target)} is not a number` };
  if (v === null) return { error: `value ${value === undefined ? '(none)' : truncate(textOf(value) ?? 'null')} is not a number` };
  return { passed: test(v, t) };
}

function contains(value: unknown, target: string): boolean {
  if (value == null) return false;
  if (Array.isArray(value)) return value.some((element) => equalsTarget(element, target));
  return (textOf(value) ?? '').includes(target);
}

/** JSON text with object keys sorted, so deep equality is text equality. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

function textOf(value: unknown): string | null {
  if (value == null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function truncate(text: string): string {
  return text.length > MAX_ACTUAL_LENGTH ? `${text.slice(0, MAX_ACTUAL_LENGTH)}…` : text;
}

function actualText(value: unknown): string | null {
  const text = textOf(value);
  return text === null ? null : truncate(text);
}

const EXPECTATIONS: Record<Comparison, string> = {
  EQUALS: 'to equal', NOT_EQUALS: 'not to equal', HAS_KEY: 'to have key', NOT_HAS_KEY: 'not to have key',
  HAS_VALUE: 'to have value', NOT_HAS_VALUE: 'not to have value', IS_EMPTY: 'to be empty', NOT_EMPTY: 'not to be empty',
  GREATER_THAN: 'to be greater than', LESS_THAN: 'to be less than', CONTAINS: 'to contain', NOT_CONTAINS: 'not to contain',
  IS_NULL: 'to be null', NOT_NULL: 'not to be null',
};
const WITHOUT_TARGET = new Set<Comparison>(['IS_EMPTY', 'NOT_EMPTY', 'IS_NULL', 'NOT_NULL']);

function failureMessage(assertion: Assertion, comparison: Comparison, value: unknown): string {
  const subject = assertion.property ? `${assertion.source} ${assertion.property}` : assertion.source;
  const shown = value === undefined ? '(none)' : truncate(textOf(value) ?? 'null');
  const target = WITHOUT_TARGET.has(comparison) ? '' : ` ${JSON.stringify(assertion.target ?? null)}`;
  return `expected ${subject} ${shown} ${EXPECTATIONS[comparison]}${target}`;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
