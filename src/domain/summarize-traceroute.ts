import { latencyOf, type ParsedTracerouteOutput, type TracerouteHop, type TracerouteLatency } from './parse-traceroute-output.js';

/** Why a trace ended before reaching its destination. */
export type TracerouteTruncation = 'max_hops' | 'max_unknown_hops' | 'timeout' | 'unreachable' | null;

/** The facts of a trace that assertions and the verdict read. */
export interface TracerouteSummary {
  resolvedIp: string | null;
  /** Hops up to the destination (or all the hops probed when it was not reached). */
  totalHops: number;
  destinationReached: boolean;
  truncationReason: TracerouteTruncation;
  /** Round trips to the destination; null when it never answered. */
  finalHopLatency: TracerouteLatency | null;
  /** Percentage 0..100 of the final hop's probes without an answer (100 when the destination was not reached). */
  packetLoss: number;
  hops: TracerouteHop[];
}

/** How the trace was run, as the summary needs it. */
export interface TraceLimits {
  maxHops: number;
  /** The trace was stopped after this many unanswered hops in a row. */
  stoppedForUnknownHops: boolean;
  timedOut: boolean;
}

/**
 * Reads a trace as a whole: the destination counts as reached when it answered a probe (an
 * annotated answer such as `!N` from a router does not reach it), the hop count stops at the
 * first hop it answered from, and the final hop's latency and loss are the destination's.
 */
export function summarizeTraceroute(parsed: ParsedTracerouteOutput, limits: TraceLimits): TracerouteSummary {
  const target = parsed.resolvedIp;
  const index = target === null ? -1 : parsed.hops.findIndex((h) => h.probes.some((p) => p.ip === target && p.rttMs !== null));
  const reached = index >= 0;
  const hops = reached ? parsed.hops.slice(0, index + 1) : parsed.hops;
  const final = reached ? hops[index]! : null;
  const finalRtts = final ? final.probes.filter((p) => p.ip === target && p.rttMs !== null).map((p) => p.rttMs!) : [];
  const unreachable = !reached && parsed.hops.some((h) => h.probes.some((p) => p.annotation !== null && p.annotation !== '!'));
  let truncationReason: TracerouteTruncation = null;
  if (!reached) {
    if (limits.timedOut) truncationReason = 'timeout';
    else if (limits.stoppedForUnknownHops) truncationReason = 'max_unknown_hops';
    else if (unreachable) truncationReason = 'unreachable';
    else truncationReason = 'max_hops';
  }
  return {
    resolvedIp: target,
    totalHops: reached ? final!.hop_number : (hops.at(-1)?.hop_number ?? 0),
    destinationReached: reached,
    truncationReason,
    finalHopLatency: latencyOf(finalRtts),
    packetLoss: final ? final.loss_percentage : 100,
    hops,
  };
}

/** Consecutive unanswered hops at the end of a trace so far (to stop after maxUnknownHops). */
export function trailingUnknownHops(hops: readonly TracerouteHop[]): number {
  let n = 0;
  for (let i = hops.length - 1; i >= 0 && hops[i]!.probes.every((p) => p.rttMs === null); i--) n++;
  return n;
}
