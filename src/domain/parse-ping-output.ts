import type { ProbeError } from './check-result.js';
import type { IcmpLatency } from './observation.js';

/** The statistics of one ping run. */
export interface PingSummary {
  packetsSent: number;
  packetsReceived: number;
  /** Percentage 0..100 of pings without a reply. */
  packetLoss: number;
  /** Null when no ping was answered. */
  latency: IcmpLatency | null;
  /** The address ping resolved the host to (from its `PING host (address)` line), when shown. */
  address: string | null;
}

/** What a ping run printed, read back. */
export interface ParsedPingOutput {
  /** Null when ping printed no statistics (it failed before sending, e.g. an unknown host). */
  summary: PingSummary | null;
  /** A failure ping reported on its own (unknown host, no route...), null when there was none. */
  error: ProbeError | null;
}

// iputils: "3 packets transmitted, 2 received, +1 errors, 33.3333% packet loss, time 2003ms";
// BSD and busybox say "packets received" and may omit the errors and time parts.
const STATISTICS = /(\d+)\s+packets?\s+transmitted,\s*(\d+)\s+(?:packets?\s+)?received,\s*(?:\+\d+\s+[a-z]+,\s*)*(\d+(?:\.\d+)?)%\s+packet\s+loss/i;
// iputils "rtt min/avg/max/mdev", BSD "round-trip min/avg/max/stddev", busybox "round-trip min/avg/max".
const RTT = /(?:rtt|round-trip)\s+min\/avg\/max(?:\/(?:mdev|stddev))?\s*=\s*([\d.]+)\/([\d.]+)\/([\d.]+)(?:\/([\d.]+))?\s*ms/i;
const REPLY_TIME = /\btime[=<]([\d.]+)\s*ms/gi;
const HEADER = /^PING\s.*$/m;

/**
 * Messages ping prints instead of statistics, mapped to the same stable codes the TCP and DNS
 * probes use for the same failure, so error groups and `onlyOn: NETWORK_ERROR` treat them alike.
 */
const ERRORS: readonly [RegExp, string][] = [
  [/Name or service not known|Unknown host|cannot resolve|No address associated with hostname/i, 'ENOTFOUND'],
  [/Temporary failure in name resolution/i, 'EAI_AGAIN'],
  [/Address family for hostname not supported/i, 'EAI_ADDRFAMILY'],
  [/Network is unreachable/i, 'ENETUNREACH'],
  [/No route to host|Destination (?:Host|Net) Unreachable/i, 'EHOSTUNREACH'],
  [/Operation not permitted|Permission denied|socket:.*not permitted/i, 'PING_NOT_PERMITTED'],
];

/**
 * Reads the output of `ping` (iputils, as Debian ships it; BSD and busybox summaries too): packets
 * sent and received, loss, round-trip min/avg/max/mdev, the resolved address, and any error it
 * reported. A pure function that never throws, whatever the text.
 *
 * When the summary has no rtt line but replies were printed, the latency is computed from the
 * replies' `time=` values (mdev as their population standard deviation, as iputils computes it).
 */
export function parsePingOutput(output: string): ParsedPingOutput {
  const text = typeof output === 'string' ? output : '';
  return { summary: parseSummary(text), error: parseError(text) };
}

function parseSummary(text: string): PingSummary | null {
  const stats = STATISTICS.exec(text);
  if (!stats) return null;
  const packetsSent = Number(stats[1]);
  const packetsReceived = Number(stats[2]);
  const loss = Number(stats[3]);
  const packetLoss = Number.isFinite(loss) ? Math.min(100, Math.max(0, loss)) : lossOf(packetsSent, packetsReceived);
  return {
    packetsSent,
    packetsReceived,
    packetLoss,
    latency: packetsReceived > 0 ? parseLatency(text) : null,
    address: parseAddress(text),
  };
}

function lossOf(sent: number, received: number): number {
  return sent > 0 ? Math.min(100, Math.max(0, ((sent - received) / sent) * 100)) : 100;
}

function parseLatency(text: string): IcmpLatency | null {
  const rtt = RTT.exec(text);
  if (rtt) {
    const [min, avg, max] = [Number(rtt[1]), Number(rtt[2]), Number(rtt[3])];
    const stdDev = rtt[4] === undefined ? 0 : Number(rtt[4]);
    if ([min, avg, max, stdDev].every(Number.isFinite)) return { min, avg, max, stdDev };
  }
  const times = [...text.matchAll(REPLY_TIME)].map((m) => Number(m[1])).filter(Number.isFinite);
  if (times.length === 0) return null;
  const avg = times.reduce((a, b) => a + b, 0) / times.length;
  const variance = times.reduce((a, b) => a + b * b, 0) / times.length - avg * avg;
  return { min: Math.min(...times), avg, max: Math.max(...times), stdDev: Math.sqrt(Math.max(0, variance)) };
}

/** The first parenthesised IP address of the `PING` line: `(192.0.2.1)`, `(ip6-localhost (::1))`. */
function parseAddress(text: string): string | null {
  const header = HEADER.exec(text);
  if (!header) return null;
  for (const m of header[0].matchAll(/\(([^()\s]+)\)/g)) {
    const candidate = m[1];
    if (candidate !== undefined && isIpAddress(candidate)) return candidate;
  }
  return null;
}

function isIpAddress(s: string): boolean {
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(s)) return s.split('.').every((p) => Number(p) <= 255);
  return s.includes(':') && /^[0-9a-f:.]+(?:%[\w.-]+)?$/i.test(s);
}

function parseError(text: string): ProbeError | null {
  for (const [pattern, code] of ERRORS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const line = lineAt(text, m.index);
    return { code, message: line };
  }
  return null;
}

function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? undefined : end).trim();
}
