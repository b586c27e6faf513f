import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDnsRecord } from '../../src/domain/to-dns-record.js';

describe('toDnsRecord', () => {
  it.each([
    [{ type: 'A', name: 'example.test', ttl: 300, data: '192.0.2.1' }, 'example.test.', '192.0.2.1'],
    [{ type: 'AAAA', name: 'example.test', ttl: 300, data: '2001:db8::1' }, 'example.test.', '2001:db8::1'],
    [{ type: 'CNAME', name: 'www.example.test', ttl: 60, data: 'example.test' }, 'www.example.test.', 'example.test.'],
    [{ type: 'NS', name: 'example.test.', ttl: 60, data: 'ns1.example.test.' }, 'example.test.', 'ns1.example.test.'],
    [{ type: 'MX', name: 'example.test', ttl: 60, data: { preference: 10, exchange: 'mail.example.test' } }, 'example.test.', '10 mail.example.test.'],
    [{ type: 'MX', name: 'example.test', ttl: 60, data: { preference: 0, exchange: '.' } }, 'example.test.', '0 .'],
    [{ type: 'TXT', name: 'example.test', ttl: 60, data: [Buffer.from('v=spf1 -all')] }, 'example.test.', '"v=spf1 -all"'],
    [{ type: 'TXT', name: 'example.test', ttl: 60, data: [Buffer.from('a "quoted" \\ word'), Buffer.from([0x09, 0xc3, 0xa9])] }, 'example.test.', '"a \\"quoted\\" \\\\ word" "\\009\\195\\169"'],
    [{
      type: 'SOA', name: 'example.test', ttl: 60,
      data: { mname: 'ns1.example.test', rname: 'hostmaster.example.test', serial: 7, refresh: 1, retry: 2, expire: 3, minimum: 4 },
    }, 'example.test.', 'ns1.example.test. hostmaster.example.test. 7 1 2 3 4'],
    [{ type: 'SRV', name: '_sip._tcp.example.test', ttl: 60, data: { priority: 1, weight: 2, port: 5060, target: 'sip.example.test' } }, '_sip._tcp.example.test.', '1 2 5060 sip.example.test.'],
    [{ type: 'CAA', name: 'example.test', ttl: 60, data: { flags: 0, tag: 'issue', value: 'ca.example' } }, 'example.test.', '0 issue "ca.example"'],
    [{ type: 'UNKNOWN_65280', name: '.', ttl: 60, data: Buffer.from([0xde, 0xad]) }, '.', '\\# 2 dead'],
  ])('renders %j the way dig prints it', (answer, name, data) => {
    expect(toDnsRecord(answer)).toEqual({ name, type: answer.type, ttl: answer.ttl, data });
  });

  it('never throws and always gives strings and a number, whatever was decoded', () => {
    fc.assert(fc.property(fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true, withBigInt: true }), fc.constantFrom('A', 'MX', 'TXT', 'SOA', 'SRV', 'CAA', 'HINFO', 'CNAME', 'DNSKEY', 'X'), (data, type) => {
      const record = toDnsRecord({ type, name: 'n', ttl: 1, data });
      expect(typeof record.data).toBe('string');
      expect(typeof record.name).toBe('string');
    }));
    fc.assert(fc.property(fc.anything({ withNullPrototype: true }), (answer) => {
      const record = toDnsRecord(answer);
      expect(Number.isFinite(record.ttl)).toBe(true);
    }));
  });
});
