import type { ProbeError } from './check-result.js';

/** Round trips of the answered probes of one hop (or of the final hop), in ms. */
export interface TracerouteLatency {
  avgMs: number;
  bestMs: number;
  worstMs: number;
  stdDevMs: number;
}

/** One probe sent with one TTL: who answered and how fast, or nobody (`*`). */
export interface TracerouteProbe {
  ip: string | null;
  host: string | null;
  rttMs: number | null;
  /** traceroute's annotation of the answer: `!H` host unreachable, `!N` network unreachable, `!X`, `!<n>`... */
  annotation: string | null;
}

/**
 * One hop, keyed as the `checkly` CLI reads traceroute hops (snake_case): the address most
 * probes were answered from, the loss over the hop's probes and its round-trip statistics.
 */
export interface TracerouteHop {
  hop_number: number;
  main_ip: string | null;
  main_host: string | null;
  /** Every distinct address that answered this TTL (load-balanced paths answer from several). */
  ips: string[];
  loss_percentage: number;
  rtt: { avg_ms: number; best_ms: number; worst_ms: number; std_dev_ms: number } | null;
  probes: TracerouteProbe[];
}

/** What a traceroute run printed, read back. */
export interface ParsedTracerouteOutput {
  /** The address the destination resolved to (from the `traceroute to host (address)` line). */
  resolvedIp: string | null;
  hops: TracerouteHop[];
  /** A failure traceroute reported instead of hops (unknown host, not permitted...). */
  error: ProbeError | null;
}

const HEADER = /^traceroute6? to \S+ \(([^)]+)\)/m;
const HOP_LINE = /^\s*(\d+)\s+(.*)$/;
// One token of a hop line: `*`, a time `0.123 ms`, an annotation `!H`, or an address `10.0.0.1`
// / a host with its address `router.example (10.0.0.1)`.
const TOKEN = /\*|(\d+(?:\.\d+)?)\s*ms|(![A-Za-z]?\d*)|([^\s()]+)\s+\(([^)]+)\)|([^\s()]+)/g;

const ERRORS: readonly [RegExp, string][] = [
  [/Name or service not known|Unknown host|cannot resolve|No address associated with hostname/i, 'ENOTFOUND'],
  [/Temporary failure in name resolution/i, 'EAI_AGAIN'],
  [/Network is unreachable/i, 'ENETUNREACH'],
  [/Operation not permitted|Permission denied|You do not have enough privileges/i, 'TRACEROUTE_NOT_PERMITTED'],
];

/**
 * Reads the output of Debian's `traceroute` (modern traceroute for Linux, with or without `-n`):
 * per hop the answering addresses, each probe's round trip or `*`, annotations such as `!H`, the
 * hop's loss and round-trip statistics. A pure function that never throws, whatever the text.
 */
export function parseTracerouteOutput(output: string): ParsedTracerouteOutput {
  const text = typeof output === 'string' ? output : '';
  const header = HEADER.exec(text);
  const hops: TracerouteHop[] = [];
  for (const line of text.split('\n')) {
    const m = HOP_LINE.exec(line);
    if (!m || !header || line.startsWith('traceroute')) continue;
    const hop = parseHop(Number(m[1]), m[2]!);
    if (hop) hops.push(hop);
  }
  return { resolvedIp: header ? header[1]! : null, hops, error: hops.length > 0 ? null : parseError(text) };
}

function parseHop(number: number, rest: string): TracerouteHop | null {
  const probes: TracerouteProbe[] = [];
  let ip: string | null = null;
  let host: string | null = null;
  for (const t of rest.matchAll(TOKEN)) {
    if (t[0] === '*') probes.push({ ip: null, host: null, rttMs: null, annotation: null });
    else if (t[1] !== undefined) probes.push({ ip, host, rttMs: Number(t[1]), annotation: null });
    else if (t[2] !== undefined) {
      const last = probes.at(-1);
      if (last && last.rttMs !== null) last.annotation = t[2];
    } else if (t[3] !== undefined) {
      host = t[3];
      ip = t[4]!;
    } else if (t[5] !== undefined) {
      ip = t[5];
      host = null;
    }
  }
  if (probes.length === 0) return null;
  const answered = probes.filter((p) => p.rttMs !== null);
  const counts = new Map<string, number>();
  for (const p of answered) if (p.ip) counts.set(p.ip, (counts.get(p.ip) ?? 0) + 1);
  const main = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  const stats = latencyOf(answered.map((p) => p.rttMs!));
  return {
    hop_number: number,
    main_ip: main,
    main_host: answered.find((p) => p.ip === main)?.host ?? null,
    ips: [...counts.keys()],
    loss_percentage: round((100 * (probes.length - answered.length)) / probes.length),
    rtt: stats ? { avg_ms: stats.avgMs, best_ms: stats.bestMs, worst_ms: stats.worstMs, std_dev_ms: stats.stdDevMs } : null,
    probes,
  };
}

/** Average, best, worst and population standard deviation of round trips; null without any. */
export function latencyOf(rtts: readonly number[]): TracerouteLatency | null {
  if (rtts.length === 0) return null;
  const avg = rtts.reduce((a, b) => a + b, 0) / rtts.length;
  const variance = rtts.reduce((a, b) => a + (b - avg) ** 2, 0) / rtts.length;
  return { avgMs: round(avg), bestMs: round(Math.min(...rtts)), worstMs: round(Math.max(...rtts)), stdDevMs: round(Math.sqrt(variance)) };
}

function parseError(text: string): ProbeError | null {
  for (const [re, code] of ERRORS) {
    const m = re.exec(text);
    if (m) return { code, message: lineOf(text, m.index) };
  }
  return null;
}

function lineOf(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? undefined : end).trim();
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
