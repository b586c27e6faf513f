import { describe, expect, it } from 'vitest';
import { parseTracerouteOutput } from '../../src/domain/parse-traceroute-output.js';
import { summarizeTraceroute, trailingUnknownHops } from '../../src/domain/summarize-traceroute.js';

// Captured from Debian's traceroute 2.1 (`-n`), addresses kept; the last sample as printed without `-n`.
const LOOPBACK = `traceroute to 127.0.0.1 (127.0.0.1), 5 hops max, 60 byte packets
 1  127.0.0.1  0.037 ms  0.005 ms  0.006 ms
`;
const MULTI_HOP = `traceroute to 93.184.216.34 (93.184.216.34), 30 hops max, 60 byte packets
 1  192.168.1.1  1.204 ms  1.105 ms  1.001 ms
 2  * * *
 3  10.20.0.1  5.100 ms 10.20.0.2  5.300 ms  5.200 ms
 4  * 72.14.215.85  9.870 ms *
 5  93.184.216.34  12.000 ms  14.000 ms  13.000 ms
`;
const UNREACHABLE = `traceroute to 1.1.1.1 (1.1.1.1), 4 hops max, 60 byte packets
 1  192.0.2.1  0.509 ms  0.462 ms
 2  21.4.101.87  0.398 ms !N  0.384 ms !N
`;
const SILENT = `traceroute to 203.0.113.9 (203.0.113.9), 4 hops max, 60 byte packets
 1  192.168.1.1  0.800 ms  0.700 ms  0.900 ms
 2  * * *
 3  * * *
 4  * * *
`;
const NAMES = `traceroute to example.com (93.184.216.34), 30 hops max, 60 byte packets
 1  router.lan (192.168.1.1)  1.000 ms  1.200 ms  1.400 ms
 2  example.com (93.184.216.34)  10.000 ms  12.000 ms  14.000 ms
`;
const UNKNOWN_HOST = `nonexistent.invalid: Name or service not known
Cannot handle "host" cmdline arg \`nonexistent.invalid' on position 1 (argc 4)
`;

const limits = { maxHops: 30, stoppedForUnknownHops: false, timedOut: false };

describe('parseTracerouteOutput', () => {
  it('reads a one-hop trace to the loopback address', () => {
    const parsed = parseTracerouteOutput(LOOPBACK);
    expect(parsed.resolvedIp).toBe('127.0.0.1');
    expect(parsed.error).toBeNull();
    expect(parsed.hops).toHaveLength(1);
    expect(parsed.hops[0]).toMatchObject({
      hop_number: 1, main_ip: '127.0.0.1', main_host: null, ips: ['127.0.0.1'], loss_percentage: 0,
      rtt: { avg_ms: 0.016, best_ms: 0.005, worst_ms: 0.037 },
    });
  });

  it('reads unanswered probes, several answering addresses and partial loss of a multi-hop trace', () => {
    const { hops } = parseTracerouteOutput(MULTI_HOP);
    expect(hops.map((h) => h.hop_number)).toEqual([1, 2, 3, 4, 5]);
    expect(hops[1]).toMatchObject({ main_ip: null, ips: [], loss_percentage: 100, rtt: null });
    expect(hops[1]!.probes).toHaveLength(3);
    expect(hops[2]).toMatchObject({ main_ip: '10.20.0.2', ips: ['10.20.0.1', '10.20.0.2'], loss_percentage: 0 });
    expect(hops[3]).toMatchObject({ main_ip: '72.14.215.85', loss_percentage: 66.667, rtt: { avg_ms: 9.87, best_ms: 9.87, worst_ms: 9.87 } });
    expect(hops[4]!.rtt).toEqual({ avg_ms: 13, best_ms: 12, worst_ms: 14, std_dev_ms: 0.816 });
  });

  it('keeps annotations such as !N on the probe they follow', () => {
    const { hops } = parseTracerouteOutput(UNREACHABLE);
    expect(hops[1]!.probes.map((p) => p.annotation)).toEqual(['!N', '!N']);
    expect(hops[0]!.probes).toHaveLength(2);
  });

  it('reads host names with their addresses when reverse lookups are on', () => {
    const { hops } = parseTracerouteOutput(NAMES);
    expect(hops.map((h) => [h.main_ip, h.main_host])).toEqual([['192.168.1.1', 'router.lan'], ['93.184.216.34', 'example.com']]);
  });

  it('reports an unknown host as ENOTFOUND and never throws on any text', () => {
    expect(parseTracerouteOutput(UNKNOWN_HOST)).toEqual({
      resolvedIp: null, hops: [], error: { code: 'ENOTFOUND', message: 'nonexistent.invalid: Name or service not known' },
    });
    for (const junk of ['', ' 1  2  3', '\u0000\n*', 'traceroute to x (', undefined as unknown as string]) {
      expect(() => parseTracerouteOutput(junk)).not.toThrow();
    }
  });
});

describe('summarizeTraceroute', () => {
  it('counts hops up to the destination and takes its latency and loss', () => {
    expect(summarizeTraceroute(parseTracerouteOutput(MULTI_HOP), limits)).toMatchObject({
      resolvedIp: '93.184.216.34', totalHops: 5, destinationReached: true, truncationReason: null, packetLoss: 0,
      finalHopLatency: { avgMs: 13, bestMs: 12, worstMs: 14, stdDevMs: 0.816 },
    });
  });

  it('does not count an unreachable answer from a router as reaching the destination', () => {
    expect(summarizeTraceroute(parseTracerouteOutput(UNREACHABLE), limits)).toMatchObject({
      totalHops: 2, destinationReached: false, truncationReason: 'unreachable', packetLoss: 100, finalHopLatency: null,
    });
  });

  it('says why a silent trace ended', () => {
    const parsed = parseTracerouteOutput(SILENT);
    expect(trailingUnknownHops(parsed.hops)).toBe(3);
    expect(summarizeTraceroute(parsed, limits).truncationReason).toBe('max_hops');
    expect(summarizeTraceroute(parsed, { ...limits, stoppedForUnknownHops: true }).truncationReason).toBe('max_unknown_hops');
    expect(summarizeTraceroute(parsed, { ...limits, timedOut: true }).truncationReason).toBe('timeout');
  });
});
