import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePingOutput } from '../../src/domain/parse-ping-output.js';

/** Outputs as iputils 20221126 (Debian bookworm) prints them, on documentation addresses. */
const ALL_ANSWERED = `PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.
64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.215 ms
64 bytes from 127.0.0.1: icmp_seq=2 ttl=64 time=0.031 ms
64 bytes from 127.0.0.1: icmp_seq=3 ttl=64 time=0.032 ms

--- 127.0.0.1 ping statistics ---
3 packets transmitted, 3 received, 0% packet loss, time 410ms
rtt min/avg/max/mdev = 0.031/0.092/0.215/0.086 ms
`;

const IPV6 = `PING ::1(::1) 56 data bytes
64 bytes from ::1: icmp_seq=1 ttl=64 time=0.224 ms
64 bytes from ::1: icmp_seq=2 ttl=64 time=0.043 ms

--- ::1 ping statistics ---
2 packets transmitted, 2 received, 0% packet loss, time 1015ms
rtt min/avg/max/mdev = 0.043/0.133/0.224/0.090 ms
`;

const HOSTNAME_V6 = `PING ip6-localhost(ip6-localhost (::1)) 56 data bytes
64 bytes from ip6-localhost (::1): icmp_seq=1 ttl=64 time=0.050 ms

--- ip6-localhost ping statistics ---
1 packets transmitted, 1 received, 0% packet loss, time 0ms
rtt min/avg/max/mdev = 0.050/0.050/0.050/0.000 ms
`;

const PARTIAL_LOSS = `PING 192.0.2.7 (192.0.2.7) 56(84) bytes of data.
64 bytes from 192.0.2.7: icmp_seq=1 ttl=57 time=12.4 ms
64 bytes from 192.0.2.7: icmp_seq=3 ttl=57 time=11.9 ms

--- 192.0.2.7 ping statistics ---
3 packets transmitted, 2 received, 33.3333% packet loss, time 2003ms
rtt min/avg/max/mdev = 11.900/12.150/12.400/0.250 ms
`;

const TOTAL_LOSS = `PING 192.0.2.1 (192.0.2.1) 56(84) bytes of data.

--- 192.0.2.1 ping statistics ---
5 packets transmitted, 0 received, 100% packet loss, time 4093ms

`;

const UNREACHABLE = `PING 192.0.2.9 (192.0.2.9) 56(84) bytes of data.
From 192.0.2.254 icmp_seq=1 Destination Host Unreachable
From 192.0.2.254 icmp_seq=2 Destination Host Unreachable
From 192.0.2.254 icmp_seq=3 Destination Host Unreachable

--- 192.0.2.9 ping statistics ---
3 packets transmitted, 0 received, +3 errors, 100% packet loss, time 2031ms
pipe 3
`;

const DUPLICATES = `PING 192.0.2.10 (192.0.2.10) 56(84) bytes of data.
64 bytes from 192.0.2.10: icmp_seq=1 ttl=64 time=1.00 ms
64 bytes from 192.0.2.10: icmp_seq=1 ttl=64 time=1.20 ms (DUP!)

--- 192.0.2.10 ping statistics ---
1 packets transmitted, 1 received, +1 duplicates, 0% packet loss, time 0ms
rtt min/avg/max/mdev = 1.000/1.100/1.200/0.100 ms
`;

/** SIGINT after the last reply and before its statistics line would be printed: no rtt line. */
const REPLIES_ONLY_SUMMARY = `PING 192.0.2.11 (192.0.2.11) 56(84) bytes of data.
64 bytes from 192.0.2.11: icmp_seq=1 ttl=64 time=2.0 ms
64 bytes from 192.0.2.11: icmp_seq=2 ttl=64 time=4.0 ms

--- 192.0.2.11 ping statistics ---
2 packets transmitted, 2 received, 0% packet loss, time 1001ms
`;

const BUSYBOX = `PING 192.0.2.12 (192.0.2.12): 56 data bytes
64 bytes from 192.0.2.12: seq=0 ttl=64 time=0.080 ms

--- 192.0.2.12 ping statistics ---
1 packets transmitted, 1 packets received, 0% packet loss
round-trip min/avg/max = 0.080/0.080/0.080 ms
`;

describe('parsePingOutput', () => {
  it.each([
    ['all pings answered', ALL_ANSWERED, { packetsSent: 3, packetsReceived: 3, packetLoss: 0, address: '127.0.0.1', latency: { min: 0.031, avg: 0.092, max: 0.215, stdDev: 0.086 } }],
    ['IPv6', IPV6, { packetsSent: 2, packetsReceived: 2, packetLoss: 0, address: '::1', latency: { min: 0.043, avg: 0.133, max: 0.224, stdDev: 0.09 } }],
    ['an IPv6 host name', HOSTNAME_V6, { packetsSent: 1, packetsReceived: 1, packetLoss: 0, address: '::1', latency: { min: 0.05, avg: 0.05, max: 0.05, stdDev: 0 } }],
    ['partial loss', PARTIAL_LOSS, { packetsSent: 3, packetsReceived: 2, packetLoss: 33.3333, address: '192.0.2.7', latency: { min: 11.9, avg: 12.15, max: 12.4, stdDev: 0.25 } }],
    ['total loss', TOTAL_LOSS, { packetsSent: 5, packetsReceived: 0, packetLoss: 100, address: '192.0.2.1', latency: null }],
    ['total loss with unreachable errors', UNREACHABLE, { packetsSent: 3, packetsReceived: 0, packetLoss: 100, address: '192.0.2.9', latency: null }],
    ['duplicates', DUPLICATES, { packetsSent: 1, packetsReceived: 1, packetLoss: 0, address: '192.0.2.10', latency: { min: 1, avg: 1.1, max: 1.2, stdDev: 0.1 } }],
    ['busybox', BUSYBOX, { packetsSent: 1, packetsReceived: 1, packetLoss: 0, address: '192.0.2.12', latency: { min: 0.08, avg: 0.08, max: 0.08, stdDev: 0 } }],
  ])('reads the statistics of %s', (_label, output, summary) => {
    expect(parsePingOutput(output).summary).toEqual(summary);
  });

  it('computes the latency from the replies when the summary has no rtt line', () => {
    expect(parsePingOutput(REPLIES_ONLY_SUMMARY).summary?.latency).toEqual({ min: 2, avg: 3, max: 4, stdDev: 1 });
  });

  it('reports no error for a clean run and the unreachable line for a lost one', () => {
    expect(parsePingOutput(ALL_ANSWERED).error).toBeNull();
    expect(parsePingOutput(UNREACHABLE).error).toEqual({ code: 'EHOSTUNREACH', message: 'From 192.0.2.254 icmp_seq=1 Destination Host Unreachable' });
  });

  it.each([
    ['ping: nowhere.example.test: Name or service not known', 'ENOTFOUND'],
    ['ping: nowhere.example.test: Temporary failure in name resolution', 'EAI_AGAIN'],
    ['ping: ::1: Address family for hostname not supported', 'EAI_ADDRFAMILY'],
    ['ping: connect: Network is unreachable', 'ENETUNREACH'],
    ['ping: socket: Operation not permitted', 'PING_NOT_PERMITTED'],
  ])('reads %j as no statistics and the error %s', (output, code) => {
    expect(parsePingOutput(`${output}\n`)).toEqual({ summary: null, error: { code, message: output } });
  });

  it('never throws and keeps its numbers in range, whatever the text', () => {
    const line = fc.oneof(
      fc.string(),
      fc.constantFrom(...[ALL_ANSWERED, PARTIAL_LOSS, UNREACHABLE, BUSYBOX].flatMap((o) => o.split('\n'))),
      fc.tuple(fc.nat(), fc.nat(), fc.double()).map(([a, b, c]) => `${a} packets transmitted, ${b} received, ${c}% packet loss`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }).map((lines) => lines.join('\n')), (text) => {
        const { summary } = parsePingOutput(text);
        if (summary) {
          expect(summary.packetLoss).toBeGreaterThanOrEqual(0);
          expect(summary.packetLoss).toBeLessThanOrEqual(100);
          if (summary.packetsReceived === 0) expect(summary.latency).toBeNull();
        }
      }),
      { numRuns: 1000 },
    );
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), (text) => {
      parsePingOutput(text);
    }), { numRuns: 1000 });
  });
});
