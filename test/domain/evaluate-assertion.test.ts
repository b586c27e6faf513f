import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_ASSERTION_SOURCES, ASSERTION_SOURCES, COMPARISONS } from '../../src/domain/catalog.js';
import { evaluateAssertion, evaluateAssertions, MAX_ACTUAL_LENGTH, type Assertion } from '../../src/domain/evaluate-assertion.js';
import { formatDnsAnswerJson, formatDnsAnswerText } from '../../src/domain/format-dns-answer.js';
import type {
  DnsObservation, GrpcObservation, HttpObservation, IcmpObservation, Observation, TcpObservation,
  SslObservation, TracerouteObservation,
} from '../../src/domain/observation.js';

const document = {
  data: [{ id: 7, name: 'first', tags: [] }, { id: 8, name: 'second', tags: ['x'] }],
  items: [1, 2, 3],
  total: '42',
  ok: true,
  nothing: null,
  empty: {},
  text: 'hello world',
  nested: { name: 'deep' },
};

const http = (over: Partial<HttpObservation> = {}): HttpObservation => ({
  kind: 'HTTP',
  statusCode: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'x-request-id': 'abc', 'set-cookie': ['a=1', 'b=2'], 'x-absent': undefined },
  body: JSON.stringify(document),
  responseTime: 123,
  ...over,
});
const text = (body: string): HttpObservation => http({ body, headers: {} });
const tcp: TcpObservation = { kind: 'TCP', data: 'SSH-2.0-OpenSSH_9.6\r\n', responseTime: 45 };
const dns = (over: Partial<DnsObservation> = {}): DnsObservation => ({
  kind: 'DNS',
  rcode: 'NOERROR',
  answers: [
    { name: 'example.com.', type: 'A', ttl: 300, data: '93.184.216.34' },
    { name: 'example.com.', type: 'A', ttl: 300, data: '93.184.216.35' },
  ],
  responseTime: 30,
  ...over,
});
const icmp = (over: Partial<IcmpObservation> = {}): IcmpObservation => ({
  kind: 'ICMP',
  packetsSent: 10,
  packetsReceived: 9,
  packetLoss: 10,
  latency: { avg: 12.5, min: 10, max: 20, stdDev: 2.1 },
  address: '93.184.216.34',
  ...over,
});

const ssl: SslObservation = {
  kind: 'SSL',
  responseTime: 40,
  certificate: { subjectCN: 'example.com', daysUntilExpiry: 60, sans: ['example.com', 'www.example.com'], selfSigned: false },
  connection: { tlsVersion: 'TLS1.3', cipherSuite: 'TLS_AES_256_GCM_SHA384', chainTrusted: true, hostnameVerified: true },
  response: { protocol: 'TLS1.3', daysUntilExpiry: 60, findings: [] },
};
const traceroute: TracerouteObservation = { kind: 'TRACEROUTE', latency: { avg: 3, min: 2, max: 4, stdDev: 0.8 }, hopCount: 4, packetLoss: 0 };
const grpc = (over: Partial<GrpcObservation> = {}): GrpcObservation => ({
  kind: 'GRPC',
  statusCode: 0,
  healthStatus: 1,
  message: JSON.stringify({ status: 'ok', items: [{ id: 1 }] }),
  metadata: { 'content-type': 'application/grpc', 'x-served-by': 'a, b' },
  responseTime: 12,
  ...over,
});

/** An observation of the right family for each source, for the matrix tests. */
const OBSERVATION_FOR: Record<string, Observation> = {
  STATUS_CODE: http(), JSON_BODY: http(), HEADERS: http(), TEXT_BODY: http(), RESPONSE_TIME: http(),
  RESPONSE_DATA: tcp, RESPONSE_CODE: dns(), TEXT_ANSWER: dns(), JSON_ANSWER: dns(), LATENCY: icmp(), JSON_RESPONSE: icmp(),
  CERTIFICATE: ssl, CONNECTION: ssl, TEXT_RESPONSE: ssl, HOP_COUNT: traceroute, PACKET_LOSS: traceroute,
  GRPC_STATUS_CODE: grpc(), GRPC_HEALTHCHECK_STATUS: grpc(), GRPC_RESPONSE: grpc(), GRPC_METADATA: grpc(),
};
const PROPERTY_FOR: Record<string, string | null> = {
  JSON_BODY: '$.data[0].name', HEADERS: 'content-type', JSON_ANSWER: '$.Answer[0].data', LATENCY: 'avg', JSON_RESPONSE: '$.packetLoss',
  CERTIFICATE: 'subjectCN', CONNECTION: 'tlsVersion',
  GRPC_RESPONSE: '$.status', GRPC_METADATA: 'content-type',
};

interface Row {
  name: string;
  assertion: Assertion;
  observed: Observation;
  passed: boolean;
  actual?: string | null;
  error?: RegExp;
}

const a = (source: string, comparison: string, target?: string | number | null, property?: string | null, regex?: string | null): Assertion =>
  ({ source, comparison, target, property, regex });

function check(row: Row): void {
  const outcome = evaluateAssertion(row.assertion, row.observed);
  expect(outcome.passed).toBe(row.passed);
  if (row.actual !== undefined) expect(outcome.actual).toBe(row.actual);
  if (row.error) expect(outcome.error).toMatch(row.error);
  if (row.passed) expect(outcome.error).toBeUndefined();
  else expect(outcome.error).toEqual(expect.any(String));
}

describe('assertions on every source and comparison', () => {
  it('covers every source of the catalog with a fixture', () => {
    expect(Object.keys(OBSERVATION_FOR).sort()).toEqual([...ALL_ASSERTION_SOURCES].sort());
  });

  const matrix = ALL_ASSERTION_SOURCES.flatMap((source) => COMPARISONS.map((comparison) => ({ source, comparison })));
  it.each(matrix)('evaluates $source with $comparison to an outcome without throwing', ({ source, comparison }) => {
    const outcome = evaluateAssertion(a(source, comparison, '1', PROPERTY_FOR[source] ?? null), OBSERVATION_FOR[source]!);
    expect(outcome).toMatchObject({ source, comparison, property: PROPERTY_FOR[source] ?? null, target: '1', regex: null });
    expect(typeof outcome.passed).toBe('boolean');
  });

  const opposites = [
    ['EQUALS', 'NOT_EQUALS'], ['HAS_KEY', 'NOT_HAS_KEY'], ['HAS_VALUE', 'NOT_HAS_VALUE'],
    ['IS_EMPTY', 'NOT_EMPTY'], ['CONTAINS', 'NOT_CONTAINS'], ['IS_NULL', 'NOT_NULL'],
  ] as const;
  const pairs = ALL_ASSERTION_SOURCES.flatMap((source) =>
    opposites.flatMap(([yes, no]) => ['1', '200', 'first', 'NOERROR', 'x'].map((target) => ({ source, yes, no, target }))));
  it.each(pairs)('gives $yes and $no opposite results on $source for target $target', ({ source, yes, no, target }) => {
    const property = PROPERTY_FOR[source] ?? null;
    const positive = evaluateAssertion(a(source, yes, target, property), OBSERVATION_FOR[source]!);
    const negative = evaluateAssertion(a(source, no, target, property), OBSERVATION_FOR[source]!);
    expect(negative.passed).toBe(!positive.passed);
  });

  const families: Record<string, Observation['kind'][]> = {
    STATUS_CODE: ['HTTP'], JSON_BODY: ['HTTP'], HEADERS: ['HTTP'], TEXT_BODY: ['HTTP', 'GRPC'], RESPONSE_TIME: ['HTTP', 'TCP', 'DNS', 'GRPC'],
    RESPONSE_DATA: ['TCP'], RESPONSE_CODE: ['DNS'], TEXT_ANSWER: ['DNS'], JSON_ANSWER: ['DNS'], LATENCY: ['ICMP'], JSON_RESPONSE: ['ICMP'],
    CERTIFICATE: ['SSL'], CONNECTION: ['SSL'], TEXT_RESPONSE: ['SSL'], HOP_COUNT: ['TRACEROUTE'], PACKET_LOSS: ['TRACEROUTE'],
    GRPC_STATUS_CODE: ['GRPC'], GRPC_HEALTHCHECK_STATUS: ['GRPC'], GRPC_RESPONSE: ['GRPC'], GRPC_METADATA: ['GRPC'],
  };
  families.RESPONSE_TIME!.push('SSL', 'TRACEROUTE');
  families.JSON_RESPONSE!.push('SSL');
  const byKind: Record<Observation['kind'], Observation> = { HTTP: http(), TCP: tcp, DNS: dns(), ICMP: icmp(), SSL: ssl, TRACEROUTE: traceroute, GRPC: grpc() };

  it('knows the family of every source the catalog gives a check type', () => {
    for (const [type, sources] of Object.entries(ASSERTION_SOURCES)) {
      const family = type === 'API' || type === 'URL' ? 'HTTP' : type;
      for (const source of sources ?? []) expect(families[source]).toContain(family);
    }
  });

  const mismatches = Object.entries(families).flatMap(([source, kinds]) =>
    (['HTTP', 'TCP', 'DNS', 'ICMP', 'SSL', 'TRACEROUTE', 'GRPC'] as const).filter((k) => !kinds.includes(k)).map((kind) => ({ source, kind })));
  it.each(mismatches)('fails $source against a $kind result with an error instead of throwing', ({ source, kind }) => {
    const outcome = evaluateAssertion(a(source, 'NOT_NULL', null, PROPERTY_FOR[source] ?? null), byKind[kind]);
    expect(outcome.passed).toBe(false);
    expect(outcome.error).toBe(`source ${source} does not apply to ${kind} results`);
  });
});

describe('STATUS_CODE (API and URL)', () => {
  const rows: Row[] = [
    { name: 'a status code equals the same number', assertion: a('STATUS_CODE', 'EQUALS', 200), observed: http(), passed: true, actual: '200' },
    { name: 'a status code equals the same number given as text', assertion: a('STATUS_CODE', 'EQUALS', '200'), observed: http(), passed: true },
    { name: 'a status code does not equal another number and says why', assertion: a('STATUS_CODE', 'EQUALS', 201), observed: http(), passed: false, error: /^expected STATUS_CODE 200 to equal 201$/ },
    { name: 'a status code is not equal to a server error', assertion: a('STATUS_CODE', 'NOT_EQUALS', 500), observed: http(), passed: true },
    { name: 'a status code is greater than a smaller number', assertion: a('STATUS_CODE', 'GREATER_THAN', '199'), observed: http(), passed: true },
    { name: 'a status code is not greater than itself', assertion: a('STATUS_CODE', 'GREATER_THAN', 200), observed: http(), passed: false },
    { name: 'a status code is less than a larger number', assertion: a('STATUS_CODE', 'LESS_THAN', 300), observed: http(), passed: true },
    { name: 'a status code is not less than itself', assertion: a('STATUS_CODE', 'LESS_THAN', 200), observed: http(), passed: false },
    { name: 'a numeric comparison with a text target is an error', assertion: a('STATUS_CODE', 'LESS_THAN', 'abc'), observed: http(), passed: false, error: /target "abc" is not a number/ },
    { name: 'a numeric comparison with a null target is an error', assertion: a('STATUS_CODE', 'GREATER_THAN', null), observed: http(), passed: false, error: /is not a number/ },
    { name: 'a status code contains its digits as text', assertion: a('STATUS_CODE', 'CONTAINS', '20'), observed: http(), passed: true },
    { name: 'a status code does not contain other digits', assertion: a('STATUS_CODE', 'NOT_CONTAINS', '5'), observed: http(), passed: true },
    { name: 'a status code is never null', assertion: a('STATUS_CODE', 'IS_NULL'), observed: http(), passed: false },
    { name: 'a status code is not null', assertion: a('STATUS_CODE', 'NOT_NULL'), observed: http(), passed: true },
    { name: 'a number is never empty', assertion: a('STATUS_CODE', 'IS_EMPTY'), observed: http(), passed: false },
    { name: 'a number is not empty', assertion: a('STATUS_CODE', 'NOT_EMPTY'), observed: http(), passed: true },
    { name: 'a number has no keys', assertion: a('STATUS_CODE', 'HAS_KEY', '0'), observed: http(), passed: false },
    { name: 'a number lacks any key', assertion: a('STATUS_CODE', 'NOT_HAS_KEY', '0'), observed: http(), passed: true },
    { name: 'a number has no values', assertion: a('STATUS_CODE', 'HAS_VALUE', '200'), observed: http(), passed: false },
    { name: 'a number lacks any value', assertion: a('STATUS_CODE', 'NOT_HAS_VALUE', '200'), observed: http(), passed: true },
    { name: 'a regex narrows the status code to its class digit', assertion: a('STATUS_CODE', 'EQUALS', 2, null, '^(\\d)'), observed: http({ statusCode: 204 }), passed: true, actual: '2' },
    { name: 'a URL check status code of 301 is below 400', assertion: a('STATUS_CODE', 'LESS_THAN', 400), observed: http({ statusCode: 301, body: '' }), passed: true },
  ];
  it.each(rows)('$name', check);
});

describe('RESPONSE_TIME (API, TCP, DNS)', () => {
  const rows: Row[] = [
    { name: 'an HTTP response time below the target passes', assertion: a('RESPONSE_TIME', 'LESS_THAN', 500), observed: http(), passed: true, actual: '123' },
    { name: 'an HTTP response time below the target is not greater than it', assertion: a('RESPONSE_TIME', 'GREATER_THAN', 500), observed: http(), passed: false },
    { name: 'a TCP response time below the target passes', assertion: a('RESPONSE_TIME', 'LESS_THAN', '50'), observed: tcp, passed: true, actual: '45' },
    { name: 'a DNS response time above the target fails', assertion: a('RESPONSE_TIME', 'LESS_THAN', 10), observed: dns(), passed: false, error: /expected RESPONSE_TIME 30 to be less than 10/ },
    { name: 'a fractional response time compares numerically', assertion: a('RESPONSE_TIME', 'GREATER_THAN', '12.25'), observed: http({ responseTime: 12.5 }), passed: true },
    { name: 'an ICMP result has no RESPONSE_TIME source', assertion: a('RESPONSE_TIME', 'LESS_THAN', 10), observed: icmp(), passed: false, error: /does not apply to ICMP results/ },
  ];
  it.each(rows)('$name', check);
});

describe('TEXT_BODY', () => {
  const rows: Row[] = [
    { name: 'a body contains a word it has', assertion: a('TEXT_BODY', 'CONTAINS', 'world'), observed: text('hello world'), passed: true, actual: 'hello world' },
    { name: 'a body does not "not contain" a word it has', assertion: a('TEXT_BODY', 'NOT_CONTAINS', 'world'), observed: text('hello world'), passed: false },
    { name: 'text comparisons are case-sensitive', assertion: a('TEXT_BODY', 'CONTAINS', 'World'), observed: text('hello world'), passed: false },
    { name: 'a body equals its exact text', assertion: a('TEXT_BODY', 'EQUALS', 'hello world'), observed: text('hello world'), passed: true },
    { name: 'a body does not equal a prefix of it', assertion: a('TEXT_BODY', 'EQUALS', 'hello'), observed: text('hello world'), passed: false },
    { name: 'an empty body is empty', assertion: a('TEXT_BODY', 'IS_EMPTY'), observed: text(''), passed: true, actual: '' },
    { name: 'an empty body equals a null target', assertion: a('TEXT_BODY', 'EQUALS', null), observed: text(''), passed: true },
    { name: 'an empty body is not null', assertion: a('TEXT_BODY', 'IS_NULL'), observed: text(''), passed: false },
    { name: 'a body with text is not empty', assertion: a('TEXT_BODY', 'NOT_EMPTY'), observed: text('x'), passed: true },
    { name: 'a numeric body is greater than a smaller number', assertion: a('TEXT_BODY', 'GREATER_THAN', 9), observed: text(' 10\n'), passed: true },
    { name: 'a non-numeric body in a numeric comparison is an error', assertion: a('TEXT_BODY', 'GREATER_THAN', 9), observed: text('ten'), passed: false, error: /value ten is not a number/ },
    { name: 'a body that is JSON text has its keys', assertion: a('TEXT_BODY', 'HAS_KEY', 'ok'), observed: text('{"ok":true}'), passed: true },
    { name: 'a body that is JSON text has its values', assertion: a('TEXT_BODY', 'HAS_VALUE', 'true'), observed: text('{"ok":true}'), passed: true },
    { name: 'a body that is not JSON has no keys', assertion: a('TEXT_BODY', 'HAS_KEY', 'ok'), observed: text('ok'), passed: false },
    { name: 'a regex compares its first capture group', assertion: a('TEXT_BODY', 'EQUALS', 'world', null, 'hello (\\w+)'), observed: text('hello world'), passed: true, actual: 'world' },
    { name: 'a regex without a group compares the whole match', assertion: a('TEXT_BODY', 'EQUALS', 'world', null, 'w\\w+'), observed: text('hello world'), passed: true },
    { name: 'a regex capturing a number feeds numeric comparisons', assertion: a('TEXT_BODY', 'GREATER_THAN', 3, null, 'version (\\d+)'), observed: text('version 12'), passed: true, actual: '12' },
    { name: 'a regex that does not match leaves no value (null)', assertion: a('TEXT_BODY', 'IS_NULL', null, null, 'absent (\\w+)'), observed: text('hello world'), passed: true, actual: null },
    { name: 'a regex that does not match does not equal anything', assertion: a('TEXT_BODY', 'EQUALS', 'x', null, 'absent'), observed: text('hello world'), passed: false, error: /\(none\) to equal "x"/ },
    { name: 'a regex whose optional group did not take part leaves no value', assertion: a('TEXT_BODY', 'IS_NULL', null, null, 'hello( there)?'), observed: text('hello world'), passed: true },
    { name: 'a regex that does not compile is an error', assertion: a('TEXT_BODY', 'CONTAINS', 'x', null, '('), observed: text('hello'), passed: false, error: /invalid regex "\("/ },
  ];
  it.each(rows)('$name', check);

  it('keeps only the first characters of a long value as actual', () => {
    const outcome = evaluateAssertion(a('TEXT_BODY', 'CONTAINS', 'zzz'), text('y'.repeat(5000)));
    expect(outcome.actual).toHaveLength(MAX_ACTUAL_LENGTH + 1);
    expect(outcome.error!.length).toBeLessThan(1200);
  });
});

describe('HEADERS', () => {
  const rows: Row[] = [
    { name: 'a header is found by its name in another case', assertion: a('HEADERS', 'CONTAINS', 'application/json', 'content-type'), observed: http(), passed: true, actual: 'application/json; charset=utf-8' },
    { name: 'a header name in upper case finds the header too', assertion: a('HEADERS', 'EQUALS', 'abc', 'X-REQUEST-ID'), observed: http(), passed: true },
    { name: 'header values compare case-sensitively', assertion: a('HEADERS', 'EQUALS', 'ABC', 'x-request-id'), observed: http(), passed: false },
    { name: 'a repeated header reads as its values joined with a comma', assertion: a('HEADERS', 'EQUALS', 'a=1, b=2', 'Set-Cookie'), observed: http(), passed: true },
    { name: 'a missing header is null', assertion: a('HEADERS', 'IS_NULL', null, 'x-missing'), observed: http(), passed: true, actual: null },
    { name: 'a header whose value is undefined counts as missing', assertion: a('HEADERS', 'NOT_NULL', null, 'x-absent'), observed: http(), passed: false },
    { name: 'a missing header equals nothing', assertion: a('HEADERS', 'EQUALS', 'x', 'x-missing'), observed: http(), passed: false },
    { name: 'a missing header is "not equal" to anything', assertion: a('HEADERS', 'NOT_EQUALS', 'x', 'x-missing'), observed: http(), passed: true },
    { name: 'a missing header is empty', assertion: a('HEADERS', 'IS_EMPTY', null, 'x-missing'), observed: http(), passed: true },
    { name: 'without a property the headers have a key in any case', assertion: a('HEADERS', 'HAS_KEY', 'X-Request-Id'), observed: http(), passed: true },
    { name: 'without a property the headers lack an absent key', assertion: a('HEADERS', 'NOT_HAS_KEY', 'x-missing'), observed: http(), passed: true },
    { name: 'without a property the headers have a value of a header', assertion: a('HEADERS', 'HAS_VALUE', 'abc'), observed: http(), passed: true },
    { name: 'without a property the headers lack a value no header has', assertion: a('HEADERS', 'NOT_HAS_VALUE', 'zzz'), observed: http(), passed: true },
    { name: 'a regex extracts the charset of a header', assertion: a('HEADERS', 'EQUALS', 'utf-8', 'content-type', 'charset=([\\w-]+)'), observed: http(), passed: true, actual: 'utf-8' },
  ];
  it.each(rows)('$name', check);
});

describe('JSON_BODY', () => {
  const rows: Row[] = [
    { name: 'a JSON path to a number equals that number', assertion: a('JSON_BODY', 'EQUALS', 7, '$.data[0].id'), observed: http(), passed: true, actual: '7' },
    { name: 'a JSON path to a number equals it given as text', assertion: a('JSON_BODY', 'EQUALS', '7', '$.data[0].id'), observed: http(), passed: true },
    { name: 'a JSON number is greater than a smaller target', assertion: a('JSON_BODY', 'GREATER_THAN', 6, '$.data[0].id'), observed: http(), passed: true },
    { name: 'a JSON number is not less than itself', assertion: a('JSON_BODY', 'LESS_THAN', 7, '$.data[0].id'), observed: http(), passed: false },
    { name: 'a numeric JSON string compares numerically', assertion: a('JSON_BODY', 'GREATER_THAN', 41, '$.total'), observed: http(), passed: true },
    { name: 'a JSON string equals its text', assertion: a('JSON_BODY', 'EQUALS', 'second', '$.data[1].name'), observed: http(), passed: true, actual: 'second' },
    { name: 'a JSON path without the leading $ works too', assertion: a('JSON_BODY', 'EQUALS', 'second', 'data[1].name'), observed: http(), passed: true },
    { name: 'the length of an array is a number', assertion: a('JSON_BODY', 'EQUALS', 3, '$.items.length'), observed: http(), passed: true, actual: '3' },
    { name: 'the length of a string is a number', assertion: a('JSON_BODY', 'EQUALS', 11, '$.text.length'), observed: http(), passed: true },
    { name: 'a recursive path yields all matches, which contain one of them', assertion: a('JSON_BODY', 'CONTAINS', 'second', '$..name'), observed: http(), passed: true, actual: '["first","second","deep"]' },
    { name: 'the matches of a recursive path do not contain a part of one', assertion: a('JSON_BODY', 'CONTAINS', 'sec', '$..name'), observed: http(), passed: false },
    { name: 'the matches of a recursive path have one of them as a value', assertion: a('JSON_BODY', 'HAS_VALUE', 'deep', '$..name'), observed: http(), passed: true },
    { name: 'the matches of a recursive path equal their array as JSON', assertion: a('JSON_BODY', 'EQUALS', '["first","second","deep"]', '$..name'), observed: http(), passed: true },
    { name: 'a wildcard path contains a number given as text', assertion: a('JSON_BODY', 'CONTAINS', '8', '$.data[*].id'), observed: http(), passed: true },
    { name: 'a filter expression selects by value', assertion: a('JSON_BODY', 'EQUALS', 'second', '$.data[?(@.id > 7)].name'), observed: http(), passed: true },
    { name: 'a JSON boolean equals "true"', assertion: a('JSON_BODY', 'EQUALS', 'true', '$.ok'), observed: http(), passed: true, actual: 'true' },
    { name: 'a JSON null is null', assertion: a('JSON_BODY', 'IS_NULL', null, '$.nothing'), observed: http(), passed: true, actual: null },
    { name: 'a JSON null is not "not null"', assertion: a('JSON_BODY', 'NOT_NULL', null, '$.nothing'), observed: http(), passed: false },
    { name: 'a JSON null is empty', assertion: a('JSON_BODY', 'IS_EMPTY', null, '$.nothing'), observed: http(), passed: true },
    { name: 'a JSON null does not equal the text null', assertion: a('JSON_BODY', 'EQUALS', 'null', '$.nothing'), observed: http(), passed: false },
    { name: 'a missing JSON property is null', assertion: a('JSON_BODY', 'IS_NULL', null, '$.missing'), observed: http(), passed: true, actual: null },
    { name: 'a missing JSON property equals nothing and says so', assertion: a('JSON_BODY', 'EQUALS', 'x', '$.missing'), observed: http(), passed: false, error: /expected JSON_BODY \$\.missing \(none\) to equal "x"/ },
    { name: 'a missing JSON property is "not equal" to anything', assertion: a('JSON_BODY', 'NOT_EQUALS', 'x', '$.missing'), observed: http(), passed: true },
    { name: 'a missing JSON property in a numeric comparison is an error', assertion: a('JSON_BODY', 'LESS_THAN', 1, '$.missing'), observed: http(), passed: false, error: /value \(none\) is not a number/ },
    { name: 'an empty object is empty', assertion: a('JSON_BODY', 'IS_EMPTY', null, '$.empty'), observed: http(), passed: true, actual: '{}' },
    { name: 'an empty array is empty', assertion: a('JSON_BODY', 'IS_EMPTY', null, '$.data[0].tags'), observed: http(), passed: true, actual: '[]' },
    { name: 'an array with elements is not empty', assertion: a('JSON_BODY', 'NOT_EMPTY', null, '$.data'), observed: http(), passed: true },
    { name: 'an object has its own key', assertion: a('JSON_BODY', 'HAS_KEY', 'name', '$.data[0]'), observed: http(), passed: true },
    { name: 'object keys compare case-sensitively', assertion: a('JSON_BODY', 'HAS_KEY', 'NAME', '$.data[0]'), observed: http(), passed: false },
    { name: 'an object lacks a key it does not have', assertion: a('JSON_BODY', 'NOT_HAS_KEY', 'missing', '$.data[0]'), observed: http(), passed: true },
    { name: 'an object does not have inherited keys', assertion: a('JSON_BODY', 'HAS_KEY', 'toString', '$.data[0]'), observed: http(), passed: false },
    { name: 'an object has a text value', assertion: a('JSON_BODY', 'HAS_VALUE', 'first', '$.data[0]'), observed: http(), passed: true },
    { name: 'an object has a number value given as a number', assertion: a('JSON_BODY', 'HAS_VALUE', 7, '$.data[0]'), observed: http(), passed: true },
    { name: 'an object lacks a value it does not have', assertion: a('JSON_BODY', 'NOT_HAS_VALUE', 'third', '$.data[0]'), observed: http(), passed: true },
    { name: 'an array has an index below its length as a key', assertion: a('JSON_BODY', 'HAS_KEY', 2, '$.items'), observed: http(), passed: true },
    { name: 'an array does not have its length as a key', assertion: a('JSON_BODY', 'HAS_KEY', 3, '$.items'), observed: http(), passed: false },
    { name: 'an array contains an element equal to the target', assertion: a('JSON_BODY', 'CONTAINS', 2, '$.items'), observed: http(), passed: true },
    { name: 'an array does not contain an element it lacks', assertion: a('JSON_BODY', 'NOT_CONTAINS', 4, '$.items'), observed: http(), passed: true },
    { name: 'an object equals JSON with the same content in another order and spacing', assertion: a('JSON_BODY', 'EQUALS', '{ "name" : "deep" }', '$.nested'), observed: http(), passed: true, actual: '{"name":"deep"}' },
    { name: 'an object does not equal target text that is not JSON', assertion: a('JSON_BODY', 'EQUALS', 'deep', '$.nested'), observed: http(), passed: false },
    { name: 'an object contains text of its JSON', assertion: a('JSON_BODY', 'CONTAINS', '"name":"deep"', '$.nested'), observed: http(), passed: true },
    { name: 'no property means the whole document', assertion: a('JSON_BODY', 'HAS_KEY', 'data'), observed: http(), passed: true },
    { name: 'an empty property means the whole document', assertion: a('JSON_BODY', 'HAS_KEY', 'items', ' '), observed: http(), passed: true },
    { name: 'a regex applies to the value found by the path', assertion: a('JSON_BODY', 'EQUALS', 'world', '$.text', 'hello (\\w+)'), observed: http(), passed: true, actual: 'world' },
    { name: 'a regex applies to the JSON text of an object', assertion: a('JSON_BODY', 'EQUALS', 'deep', '$.nested', '"name":"(\\w+)"'), observed: http(), passed: true },
    { name: 'a body that is not JSON fails with an error', assertion: a('JSON_BODY', 'IS_NULL', null, '$.x'), observed: text('<html>'), passed: false, error: /response body is not valid JSON/ },
    { name: 'an empty body is not valid JSON either', assertion: a('JSON_BODY', 'NOT_NULL', null, '$'), observed: text(''), passed: false, error: /not valid JSON/ },
    { name: 'a JSON body of null is null at the root', assertion: a('JSON_BODY', 'IS_NULL', null, '$'), observed: text('null'), passed: true },
    { name: 'a JSON body of null has nothing below the root', assertion: a('JSON_BODY', 'IS_NULL', null, '$.a'), observed: text('null'), passed: true },
    { name: 'a body with a byte-order mark is still JSON', assertion: a('JSON_BODY', 'EQUALS', 1, '$.a'), observed: text('\uFEFF{"a":1}'), passed: true },
    { name: 'a JSON array body is queried from the root', assertion: a('JSON_BODY', 'EQUALS', 'b', '$[1]'), observed: text('["a","b"]'), passed: true },
    { name: 'a filter reaching for the constructor finds nothing', assertion: a('JSON_BODY', 'IS_NULL', null, '$[?(@.constructor.constructor("return process")())]'), observed: http(), passed: true },
  ];
  it.each(rows)('$name', check);

  it('never throws, whatever the JSON path', () => {
    fc.assert(fc.property(fc.string(), fc.constantFrom(...COMPARISONS), (property, comparison) => {
      const outcome = evaluateAssertion(a('JSON_BODY', comparison, 'x', property), http());
      expect(typeof outcome.passed).toBe('boolean');
    }), { numRuns: 300 });
  });

  it('never throws, whatever the body, target and regex', () => {
    fc.assert(fc.property(
      fc.oneof(fc.string(), fc.json()),
      fc.constantFrom(...COMPARISONS),
      fc.oneof(fc.string(), fc.double(), fc.constant(null)),
      fc.option(fc.constantFrom('(', '(\\d+)', '.*', '[a-z]+', 'x|'), { nil: null }),
      (body, comparison, target, regex) => {
        for (const source of ['JSON_BODY', 'TEXT_BODY', 'HEADERS']) {
          const outcome = evaluateAssertion(a(source, comparison, target, '$..a', regex), text(body));
          expect(typeof outcome.passed).toBe('boolean');
        }
      },
    ), { numRuns: 300 });
  });
});

describe('RESPONSE_DATA (TCP)', () => {
  const rows: Row[] = [
    { name: 'the data received contains the banner name', assertion: a('RESPONSE_DATA', 'CONTAINS', 'OpenSSH'), observed: tcp, passed: true, actual: 'SSH-2.0-OpenSSH_9.6\r\n' },
    { name: 'the data received does not equal a part of it', assertion: a('RESPONSE_DATA', 'EQUALS', 'SSH-2.0'), observed: tcp, passed: false },
    { name: 'a regex pulls a version out of the data for a numeric comparison', assertion: a('RESPONSE_DATA', 'GREATER_THAN', 9, null, 'OpenSSH_([\\d.]+)'), observed: tcp, passed: true, actual: '9.6' },
    { name: 'no data received is empty', assertion: a('RESPONSE_DATA', 'IS_EMPTY'), observed: { ...tcp, data: '' }, passed: true },
    { name: 'a TCP result has no status code', assertion: a('STATUS_CODE', 'EQUALS', 200), observed: tcp, passed: false, error: /STATUS_CODE does not apply to TCP results/ },
  ];
  it.each(rows)('$name', check);
});

describe('DNS sources', () => {
  const rows: Row[] = [
    { name: 'the response code equals NOERROR', assertion: a('RESPONSE_CODE', 'EQUALS', 'NOERROR'), observed: dns(), passed: true, actual: 'NOERROR' },
    { name: 'the response code compares ignoring case', assertion: a('RESPONSE_CODE', 'EQUALS', 'noerror'), observed: dns(), passed: true },
    { name: 'a lower-case response code from the resolver still equals the name', assertion: a('RESPONSE_CODE', 'EQUALS', 'NXDOMAIN'), observed: dns({ rcode: 'nxdomain', answers: [] }), passed: true },
    { name: 'the response code is not NXDOMAIN', assertion: a('RESPONSE_CODE', 'NOT_EQUALS', 'NXDOMAIN'), observed: dns(), passed: true },
    { name: 'a SERVFAIL response code does not equal NOERROR', assertion: a('RESPONSE_CODE', 'EQUALS', 'NOERROR'), observed: dns({ rcode: 'SERVFAIL', answers: [] }), passed: false, error: /expected RESPONSE_CODE SERVFAIL to equal "NOERROR"/ },
    { name: 'the text answer contains an address', assertion: a('TEXT_ANSWER', 'CONTAINS', '93.184.216.34'), observed: dns(), passed: true },
    { name: 'the text answer has one line per record like dig', assertion: a('TEXT_ANSWER', 'EQUALS', 'example.com.\t300\tIN\tA\t93.184.216.34\nexample.com.\t300\tIN\tA\t93.184.216.35'), observed: dns(), passed: true },
    { name: 'the text answer does not contain an address it lacks', assertion: a('TEXT_ANSWER', 'NOT_CONTAINS', '1.1.1.1'), observed: dns(), passed: true },
    { name: 'a regex takes the first address of the text answer', assertion: a('TEXT_ANSWER', 'EQUALS', '93.184.216.34', null, 'IN\\tA\\t(\\S+)'), observed: dns(), passed: true, actual: '93.184.216.34' },
    { name: 'a text answer without records is empty', assertion: a('TEXT_ANSWER', 'IS_EMPTY'), observed: dns({ answers: [] }), passed: true },
    { name: 'a JSON answer path reaches the first record data', assertion: a('JSON_ANSWER', 'EQUALS', '93.184.216.34', '$.Answer[0].data'), observed: dns(), passed: true },
    { name: 'a JSON answer path counts the records', assertion: a('JSON_ANSWER', 'EQUALS', 2, '$.Answer.length'), observed: dns(), passed: true },
    { name: 'a JSON answer has the response code as Status', assertion: a('JSON_ANSWER', 'EQUALS', 'NOERROR', '$.Status'), observed: dns(), passed: true },
    { name: 'a JSON answer wildcard contains every record data', assertion: a('JSON_ANSWER', 'CONTAINS', '93.184.216.35', '$.Answer[*].data'), observed: dns(), passed: true },
    { name: 'a JSON answer TTL compares numerically', assertion: a('JSON_ANSWER', 'GREATER_THAN', 60, '$.Answer[0].TTL'), observed: dns(), passed: true },
    { name: 'a JSON answer without records has an empty Answer', assertion: a('JSON_ANSWER', 'IS_EMPTY', null, '$.Answer'), observed: dns({ answers: [] }), passed: true },
    { name: 'a JSON answer path to a missing record is null', assertion: a('JSON_ANSWER', 'IS_NULL', null, '$.Answer[5].data'), observed: dns(), passed: true },
  ];
  it.each(rows)('$name', check);

  it('renders answers as dig-like text and as JSON', () => {
    const observed = dns({ answers: [{ name: 'example.com.', type: 'MX', ttl: 60, data: '10 mail.example.com.' }] });
    expect(formatDnsAnswerText(observed)).toBe('example.com.\t60\tIN\tMX\t10 mail.example.com.');
    expect(formatDnsAnswerJson({ ...observed, rcode: 'noerror' })).toEqual({
      Status: 'NOERROR', Answer: [{ name: 'example.com.', type: 'MX', TTL: 60, data: '10 mail.example.com.' }],
    });
    expect(formatDnsAnswerText(dns({ answers: [] }))).toBe('');
  });
});

describe('ICMP sources', () => {
  const rows: Row[] = [
    { name: 'the average latency is below the target', assertion: a('LATENCY', 'LESS_THAN', 20, 'avg'), observed: icmp(), passed: true, actual: '12.5' },
    { name: 'the maximum latency is not above a higher target', assertion: a('LATENCY', 'GREATER_THAN', 25, 'max'), observed: icmp(), passed: false },
    { name: 'the minimum latency equals its value', assertion: a('LATENCY', 'EQUALS', '10', 'min'), observed: icmp(), passed: true },
    { name: 'the latency deviation is below the target', assertion: a('LATENCY', 'LESS_THAN', 3, 'stdDev'), observed: icmp(), passed: true },
    { name: 'an unknown latency property is an error', assertion: a('LATENCY', 'LESS_THAN', 3, 'median'), observed: icmp(), passed: false, error: /LATENCY property must be one of avg, min, max, stdDev/ },
    { name: 'a latency without property is an error', assertion: a('LATENCY', 'LESS_THAN', 3), observed: icmp(), passed: false, error: /LATENCY property/ },
    { name: 'the latency of a run without replies is null', assertion: a('LATENCY', 'IS_NULL', null, 'avg'), observed: icmp({ latency: null, packetsReceived: 0, packetLoss: 100 }), passed: true },
    { name: 'a latency threshold fails when no ping was answered', assertion: a('LATENCY', 'LESS_THAN', 100, 'avg'), observed: icmp({ latency: null, packetsReceived: 0, packetLoss: 100 }), passed: false, error: /is not a number/ },
    { name: 'a JSON response path reaches the packet loss', assertion: a('JSON_RESPONSE', 'LESS_THAN', 20, '$.packetLoss'), observed: icmp(), passed: true, actual: '10' },
    { name: 'a JSON response path reaches the average latency', assertion: a('JSON_RESPONSE', 'EQUALS', 12.5, '$.latency.avg'), observed: icmp(), passed: true },
    { name: 'a JSON response path reaches the packets received', assertion: a('JSON_RESPONSE', 'EQUALS', 9, '$.packetsReceived'), observed: icmp(), passed: true },
    { name: 'a JSON response has the address', assertion: a('JSON_RESPONSE', 'EQUALS', '93.184.216.34', '$.address'), observed: icmp(), passed: true },
    { name: 'a JSON response has a null address when none was given', assertion: a('JSON_RESPONSE', 'HAS_KEY', 'address'), observed: icmp({ address: undefined }), passed: true },
    { name: 'a JSON response address left undefined reads as null', assertion: a('JSON_RESPONSE', 'IS_NULL', null, '$.address'), observed: icmp({ address: undefined }), passed: true, actual: null },
    { name: 'a JSON response does not expose the observation kind', assertion: a('JSON_RESPONSE', 'IS_NULL', null, '$.kind'), observed: icmp(), passed: true },
  ];
  it.each(rows)('$name', check);
});

describe('malformed assertions', () => {
  const rows: Row[] = [
    { name: 'an unknown source is an error', assertion: a('BODY_SIZE', 'EQUALS', 1), observed: http(), passed: false, error: /unknown source "BODY_SIZE"/ },
    { name: 'an unknown comparison is an error', assertion: a('STATUS_CODE', 'MATCHES', 1), observed: http(), passed: false, error: /unknown comparison "MATCHES"/ },
  ];
  it.each(rows)('$name', check);

  it('echoes the assertion with nulls for the fields it left out', () => {
    expect(evaluateAssertion({ source: 'STATUS_CODE', comparison: 'NOT_NULL' }, http())).toEqual({
      source: 'STATUS_CODE', property: null, comparison: 'NOT_NULL', target: null, regex: null, actual: '200', passed: true,
    });
  });
});

describe('evaluateAssertions', () => {
  it('evaluates each assertion in order, one bad JSON body failing only the JSON ones', () => {
    const outcomes = evaluateAssertions([
      a('STATUS_CODE', 'EQUALS', 200),
      a('JSON_BODY', 'EQUALS', 1, '$.a'),
      a('TEXT_BODY', 'CONTAINS', 'oops'),
      a('JSON_BODY', 'IS_NULL', null, '$.b'),
    ], text('oops'));
    expect(outcomes.map((o) => o.passed)).toEqual([true, false, true, false]);
    expect(outcomes[1]!.error).toMatch(/not valid JSON/);
    expect(outcomes[3]!.error).toMatch(/not valid JSON/);
  });

  it('answers no outcomes for no assertions', () => {
    expect(evaluateAssertions([], http())).toEqual([]);
  });
});

describe('GRPC sources', () => {
  const rows: Row[] = [
    { name: 'status code 0 equals "0"', assertion: a('GRPC_STATUS_CODE', 'EQUALS', '0'), observed: grpc(), passed: true, actual: '0' },
    { name: 'status code 14 is not 0', assertion: a('GRPC_STATUS_CODE', 'EQUALS', '0'), observed: grpc({ statusCode: 14 }), passed: false, actual: '14' },
    { name: 'health status SERVING is 1', assertion: a('GRPC_HEALTHCHECK_STATUS', 'EQUALS', '1'), observed: grpc(), passed: true },
    { name: 'health status NOT_SERVING is not 1', assertion: a('GRPC_HEALTHCHECK_STATUS', 'EQUALS', '1'), observed: grpc({ healthStatus: 2 }), passed: false },
    { name: 'no health status outside HEALTH mode is null', assertion: a('GRPC_HEALTHCHECK_STATUS', 'IS_NULL'), observed: grpc({ healthStatus: null }), passed: true },
    { name: 'a JSON path into the response message', assertion: a('GRPC_RESPONSE', 'EQUALS', 'ok', '$.status'), observed: grpc(), passed: true, actual: 'ok' },
    { name: 'a JSON path into an array of the message', assertion: a('GRPC_RESPONSE', 'EQUALS', '1', '$.items[0].id'), observed: grpc(), passed: true },
    { name: 'a message that is not JSON', assertion: a('GRPC_RESPONSE', 'NOT_NULL', null, '$.status'), observed: grpc({ message: '' }), passed: false, error: /not valid JSON/ },
    { name: 'the message as text', assertion: a('TEXT_BODY', 'CONTAINS', '"status":"ok"'), observed: grpc(), passed: true },
    { name: 'a metadata value by key, ignoring case', assertion: a('GRPC_METADATA', 'CONTAINS', 'grpc', 'Content-Type'), observed: grpc(), passed: true },
    { name: 'metadata keys without property', assertion: a('GRPC_METADATA', 'HAS_KEY', 'x-served-by'), observed: grpc(), passed: true },
    { name: 'the response time', assertion: a('RESPONSE_TIME', 'LESS_THAN', '100'), observed: grpc(), passed: true },
  ];
  it.each(rows)('$name', check);
});
