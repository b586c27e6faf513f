import dnsPacket from 'dns-packet';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDnsResponse, runDnsCheck, systemNameServer } from '../../src/runner/executors/run-dns-check.js';
import { dnsResponse, startDnsServer, type DnsResponder, type TestDnsServer } from '../support/dns-test-server.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';

const NOERROR = 0;
const SERVFAIL = 2;
const NXDOMAIN = 3;
const REFUSED = 5;

const SOA = {
  type: 'SOA', name: 'example.test', ttl: 3600,
  data: { mname: 'ns1.example.test', rname: 'hostmaster.example.test', serial: 2024010101, refresh: 7200, retry: 3600, expire: 1209600, minimum: 300 },
} as const;

/** Records of the zone example.test, by name and type. */
const ZONE: Record<string, dnsPacket.Answer[]> = {
  'example.test A': [{ type: 'A', name: 'example.test', ttl: 300, data: '192.0.2.10' }, { type: 'A', name: 'example.test', ttl: 300, data: '192.0.2.11' }],
  'example.test AAAA': [{ type: 'AAAA', name: 'example.test', ttl: 300, data: '2001:db8::10' }],
  'www.example.test CNAME': [{ type: 'CNAME', name: 'www.example.test', ttl: 60, data: 'example.test' }],
  'example.test MX': [{ type: 'MX', name: 'example.test', ttl: 300, data: { preference: 10, exchange: 'mail.example.test' } }],
  'example.test TXT': [{ type: 'TXT', name: 'example.test', ttl: 300, data: ['v=spf1 -all'] }, { type: 'TXT', name: 'example.test', ttl: 300, data: ['say "hi"', 'twice'] }],
  'example.test SOA': [SOA],
  'example.test NS': [{ type: 'NS', name: 'example.test', ttl: 86400, data: 'ns1.example.test' }, { type: 'NS', name: 'example.test', ttl: 86400, data: 'ns2.example.test' }],
};

const BIG_TXT: dnsPacket.Answer[] = Array.from({ length: 40 }, (_, i) => ({ type: 'TXT', name: 'big.example.test', ttl: 60, data: [`chunk-${i}-${'x'.repeat(40)}`] }));

const zone: DnsResponder = (query) => {
  const q = query?.questions?.[0];
  if (!query || !q) return [];
  switch (q.name) {
    case 'missing.example.test': return [dnsResponse(query, { rcode: NXDOMAIN, authorities: [SOA] })];
    case 'servfail.example.test': return [dnsResponse(query, { rcode: SERVFAIL })];
    case 'refused.example.test': return [dnsResponse(query, { rcode: REFUSED })];
    case 'silent.example.test': return [];
    case 'big.example.test': return [];
    case 'stray.example.test':
      // An answer to another query arrives first: it must be ignored, not taken.
      return [
        dnsResponse(query, { id: (query.id! + 1) % 65536, answers: [{ type: 'A', name: q.name, ttl: 1, data: '198.51.100.66' }] }),
        dnsResponse(query, { answers: [{ type: 'A', name: q.name, ttl: 1, data: '192.0.2.77' }] }),
      ];
    default: return [dnsResponse(query, { rcode: NOERROR, answers: ZONE[`${q.name} ${q.type}`] ?? [] })];
  }
};

/** big.example.test does not fit a datagram: over UDP only the truncated header comes back. */
const withTruncation: DnsResponder = (query, transport, raw) => {
  const q = query?.questions?.[0];
  if (query && q?.name === 'big.example.test') {
    return transport === 'UDP' ? [dnsResponse(query, { truncated: true })] : [dnsResponse(query, { answers: BIG_TXT })];
  }
  return zone(query, transport, raw);
};

describe('DNS check executor', () => {
  let server: TestDnsServer;
  const dnsCheck = (request: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    runnableCheck('DNS', { request: { nameServer: '127.0.0.1', port: server.port, ...request }, ...extra });

  beforeAll(async () => {
    server = await startDnsServer(withTruncation);
  });
  afterAll(async () => {
    await server.close();
  });

  const expectedAnswers: [string, string, string[]][] = [
    ['A', 'example.test', ['example.test.\t300\tIN\tA\t192.0.2.10', 'example.test.\t300\tIN\tA\t192.0.2.11']],
    ['AAAA', 'example.test', ['example.test.\t300\tIN\tAAAA\t2001:db8::10']],
    ['CNAME', 'www.example.test', ['www.example.test.\t60\tIN\tCNAME\texample.test.']],
    ['MX', 'example.test', ['example.test.\t300\tIN\tMX\t10 mail.example.test.']],
    ['TXT', 'example.test', ['example.test.\t300\tIN\tTXT\t"v=spf1 -all"', 'example.test.\t300\tIN\tTXT\t"say \\"hi\\"" "twice"']],
    ['SOA', 'example.test', ['example.test.\t3600\tIN\tSOA\tns1.example.test. hostmaster.example.test. 2024010101 7200 3600 1209600 300']],
    ['NS', 'example.test', ['example.test.\t86400\tIN\tNS\tns1.example.test.', 'example.test.\t86400\tIN\tNS\tns2.example.test.']],
  ];

  describe.each(['UDP', 'TCP'])('over %s', (protocol) => {
    it.each(expectedAnswers)('answers a %s query for %s with the records as dig prints them', async (recordType, query, lines) => {
      const check = dnsCheck({
        query, recordType, protocol,
        assertions: [
          { source: 'RESPONSE_CODE', comparison: 'EQUALS', target: 'NOERROR' },
          { source: 'TEXT_ANSWER', comparison: 'EQUALS', target: lines.join('\n') },
          { source: 'JSON_ANSWER', property: '$.Answer[0].type', comparison: 'EQUALS', target: recordType },
          { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: 5000 },
        ],
      });
      const result = await runDnsCheck(check, runContext());
      expect(result.errors).toEqual([]);
      expect(result.assertions.map((a) => [a.source, a.passed, a.error])).toEqual([
        ['RESPONSE_CODE', true, undefined], ['TEXT_ANSWER', true, undefined], ['JSON_ANSWER', true, undefined], ['RESPONSE_TIME', true, undefined],
      ]);
      expect(result).toMatchObject({ hasFailures: false, hasErrors: false, networkError: false });
      expect(result.details).toMatchObject({
        rcode: 'NOERROR', nameServer: '127.0.0.1', port: server.port, protocol, truncatedOverUdp: false, query, recordType,
      });
      expect((result.details?.answers as unknown[]).length).toBe(lines.length);
    });

    it.each([
      ['missing.example.test', 'NXDOMAIN'],
      ['servfail.example.test', 'SERVFAIL'],
      ['refused.example.test', 'REFUSED'],
    ])('fails %s with DNS_%s when the check has no assertions', async (query, rcode) => {
      const result = await runDnsCheck(dnsCheck({ query, protocol }), runContext());
      expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: false });
      expect(result.errors).toEqual([{ code: `DNS_${rcode}`, message: expect.stringContaining(rcode) }]);
      expect(result.details).toMatchObject({ rcode, answers: [] });
    });

    it.each([
      ['missing.example.test', 'NXDOMAIN'],
      ['servfail.example.test', 'SERVFAIL'],
      ['refused.example.test', 'REFUSED'],
    ])('passes %s when a RESPONSE_CODE assertion expects %s', async (query, rcode) => {
      const check = dnsCheck({ query, protocol, assertions: [{ source: 'RESPONSE_CODE', comparison: 'EQUALS', target: rcode.toLowerCase() }] });
      const result = await runDnsCheck(check, runContext());
      expect(result.errors).toEqual([]);
      expect(result.hasFailures).toBe(false);
      expect(result.assertions[0]).toMatchObject({ passed: true, actual: rcode });
    });
  });

  it('keeps the authority section of a negative answer', async () => {
    const result = await runDnsCheck(dnsCheck({ query: 'missing.example.test', assertions: [{ source: 'RESPONSE_CODE', comparison: 'EQUALS', target: 'NXDOMAIN' }] }), runContext());
    expect(result.details?.authority).toEqual([{
      name: 'example.test.', type: 'SOA', ttl: 3600, data: 'ns1.example.test. hostmaster.example.test. 2024010101 7200 3600 1209600 300',
    }]);
  });

  it('fails a run whose answer does not match a JSON_ANSWER assertion, without an error', async () => {
    const check = dnsCheck({ query: 'example.test', assertions: [{ source: 'JSON_ANSWER', property: '$.Answer[*].data', comparison: 'CONTAINS', target: '203.0.113.1' }] });
    const result = await runDnsCheck(check, runContext());
    expect(result).toMatchObject({ hasFailures: true, hasErrors: false });
    expect(result.assertions[0]?.passed).toBe(false);
  });

  it('asks again over TCP when the UDP answer is truncated', async () => {
    const before = server.received.length;
    const check = dnsCheck({ query: 'big.example.test', recordType: 'TXT', protocol: 'UDP' });
    const result = await runDnsCheck(check, runContext());
    expect(result.errors).toEqual([]);
    expect(result.details).toMatchObject({ protocol: 'TCP', truncatedOverUdp: true, rcode: 'NOERROR' });
    expect((result.details?.answers as unknown[]).length).toBe(BIG_TXT.length);
    expect(server.received.slice(before).map((r) => r.transport)).toEqual(['UDP', 'TCP']);
  });

  it('ignores a datagram carrying another id and takes the answer to its own query', async () => {
    const result = await runDnsCheck(dnsCheck({ query: 'stray.example.test' }), runContext());
    expect(result.errors).toEqual([]);
    expect(result.details?.answers).toEqual([{ name: 'stray.example.test.', type: 'A', ttl: 1, data: '192.0.2.77' }]);
  });

  it.each(['UDP', 'TCP'])('reports ETIMEDOUT as a network error when the server never answers over %s', async (protocol) => {
    const result = await runDnsCheck(dnsCheck({ query: 'silent.example.test', protocol }), runContext({ timeoutMs: 300 }));
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: true });
    expect(result.errors.map((e) => e.code)).toEqual(['ETIMEDOUT']);
    expect(result.details).toMatchObject({ rcode: null, answers: [], protocol });
  });

  it('resolves a name server given by host name', async () => {
    const result = await runDnsCheck(dnsCheck({ query: 'example.test', nameServer: 'localhost' }), runContext());
    expect(result.errors).toEqual([]);
    expect(result.details).toMatchObject({ nameServer: '127.0.0.1', rcode: 'NOERROR' });
  });

  it('replaces variables in the query', async () => {
    const check = dnsCheck({ query: '{{ZONE}}', recordType: 'MX' });
    const result = await runDnsCheck(check, runContext({ variables: [{ key: 'ZONE', value: 'example.test', secret: false }] }));
    expect(result.details).toMatchObject({ query: 'example.test', answers: [{ data: '10 mail.example.test.' }] });
  });

  it('reports ECONNREFUSED for a TCP query to a port nobody listens on', async () => {
    const free = await startDnsServer(() => []);
    await free.close();
    const result = await runDnsCheck(dnsCheck({ query: 'example.test', protocol: 'TCP', port: free.port }), runContext());
    expect(result).toMatchObject({ hasErrors: true, networkError: true });
    expect(result.errors.map((e) => e.code)).toEqual(['ECONNREFUSED']);
  });

  it('stops with CANCELLED when the run is cancelled while waiting for the answer', async () => {
    const controller = new AbortController();
    const pending = runDnsCheck(dnsCheck({ query: 'silent.example.test' }), runContext({ signal: controller.signal, timeoutMs: 30_000 }));
    controller.abort();
    const result = await pending;
    expect(result.errors.map((e) => e.code)).toEqual(['CANCELLED']);
  });

  it.each([
    ['a record type outside the set', { query: 'example.test', recordType: 'PTR' }],
    ['an empty query', { query: '' }],
    ['a label longer than 63 bytes', { query: `${'a'.repeat(64)}.test` }],
    ['an empty label', { query: 'a..test' }],
    ['a port out of range', { query: 'example.test', port: 0 }],
  ])('returns INVALID_REQUEST instead of throwing for %s', async (_label, request) => {
    const result = await runDnsCheck(dnsCheck(request), runContext());
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: false });
    expect(result.errors.map((e) => e.code)).toEqual(['INVALID_REQUEST']);
  });
});

describe('DNS response decoding', () => {
  /** A well-formed answer to `example.test A` with records of every kind, to mutate. */
  const wellFormed = dnsPacket.encode({
    type: 'response', id: 0, flags: dnsPacket.RECURSION_AVAILABLE,
    questions: [{ type: 'A', name: 'example.test' }],
    answers: [...ZONE['example.test A']!, ...ZONE['example.test MX']!, ...ZONE['example.test TXT']!, SOA],
    authorities: [SOA],
  });
  /** Random bytes, or the well-formed answer with bytes overwritten and its tail cut anywhere. */
  const serverBytes = fc.oneof(
    fc.uint8Array({ maxLength: 600, size: 'max' }),
    fc.tuple(
      fc.array(fc.tuple(fc.nat({ max: wellFormed.length - 1 }), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
      fc.option(fc.nat({ max: wellFormed.length }), { freq: 2 }),
    ).map(([edits, keep]) => {
      const out = Buffer.from(wellFormed);
      for (const [at, byte] of edits) out[at] = byte;
      return new Uint8Array(out.subarray(0, keep === null ? out.length : Math.max(keep, 12)));
    }),
  );

  it('returns a result with an error, never a throw, whatever bytes the server answers with', async () => {
    let reply = Buffer.alloc(0);
    // The fuzzed bytes get the query's id so they reach the decoder instead of being ignored as
    // a stray datagram (which the test of the stray answer covers).
    const fuzzServer = await startDnsServer((query) => {
      const out = Buffer.from(reply);
      if (query && out.length >= 2) out.writeUInt16BE(query.id ?? 0, 0);
      return [out];
    });
    const outcomes = new Set<string>();
    try {
      await fc.assert(
        fc.asyncProperty(serverBytes, fc.constantFrom('UDP', 'TCP'), async (bytes, protocol) => {
          reply = Buffer.from(bytes);
          const check = runnableCheck('DNS', { request: { query: 'example.test', nameServer: '127.0.0.1', port: fuzzServer.port, protocol } });
          const result = await runDnsCheck(check, runContext({ timeoutMs: 5000 }));
          expect(result.startedAt).toBeInstanceOf(Date);
          const decoded = typeof result.details?.rcode === 'string';
          expect(decoded || result.hasErrors).toBe(true);
          expect(result.errors.map((e) => e.code)).not.toContain('ETIMEDOUT');
          outcomes.add(decoded ? 'decoded' : result.errors[0]!.code);
        }),
        // The intact answer decodes and a zeroed header (a query, not a response) does not, so
        // both ways out are taken whatever the random draws.
        { numRuns: 200, examples: [[new Uint8Array(wellFormed), 'UDP'], [new Uint8Array(40), 'TCP']] },
      );
    } finally {
      await fuzzServer.close();
    }
    // Both ways out were exercised: bytes that decode and bytes that do not.
    expect(outcomes).toContain('decoded');
    expect(outcomes).toContain('DNS_BAD_RESPONSE');
  });

  it('never throws on arbitrary messages and only takes responses with the query id', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000, size: 'max' }), fc.integer({ min: 0, max: 65535 }), (bytes, id) => {
        const reading = readDnsResponse(Buffer.from(bytes), { id, name: 'example.test', type: 'A' });
        if (reading.kind === 'response') expect(reading.response.id).toBe(id);
      }),
      { numRuns: 2000 },
    );
  });

  it('treats a message that is a query, not a response, as a bad response', () => {
    const query = dnsPacket.encode({ type: 'query', id: 42, questions: [{ type: 'A', name: 'example.test' }] });
    expect(readDnsResponse(query, { id: 42, name: 'example.test', type: 'A' })).toMatchObject({ kind: 'bad' });
  });

  it('treats a response to another question as a bad response', () => {
    const response = dnsPacket.encode({ type: 'response', id: 42, questions: [{ type: 'A', name: 'other.test' }] });
    expect(readDnsResponse(response, { id: 42, name: 'example.test', type: 'A' })).toMatchObject({ kind: 'bad' });
  });
});

describe('system name server', () => {
  it.each([
    [['10.0.0.2'], 53, { address: '10.0.0.2', port: 53 }],
    [['10.0.0.2:5353', '10.0.0.3'], 53, { address: '10.0.0.2', port: 5353 }],
    [['2001:db8::53'], 53, { address: '2001:db8::53', port: 53 }],
    [['[2001:db8::53]:1053'], 53, { address: '2001:db8::53', port: 1053 }],
    [['127.0.0.53'], 5300, { address: '127.0.0.53', port: 5300 }],
    [[], 53, null],
  ])('reads %j (default port %i) as %j', (servers, port, expected) => {
    expect(systemNameServer(servers, port)).toEqual(expected);
  });
});
