/** Timing phases of an HTTP run (schema TimingPhases), each in milliseconds. */
export interface TimingPhasesLike {
  dns?: number | null;
  tcp?: number | null;
  tls?: number | null;
  firstByte?: number | null;
  download?: number | null;
  wait?: number | null;
  total?: number | null;
}

/** One bar of the waterfall: where a phase starts and how long it lasts, as percentages of the total. */
export interface PhaseRow {
  name: keyof TimingPhasesLike;
  label: string;
  ms: number;
  offsetPercent: number;
  widthPercent: number;
}

const ORDER: [keyof TimingPhasesLike, string][] = [
  ['wait', 'Wait'], ['dns', 'DNS'], ['tcp', 'TCP connect'], ['tls', 'TLS handshake'], ['firstByte', 'Time to first byte'], ['download', 'Download'],
];

/**
 * The phases, in the order they happen, as a waterfall: each starts where the one before ended.
 * Missing phases are left out; the total is the given one, or the sum when absent.
 */
export function timingPhaseRows(phases: TimingPhasesLike | null | undefined): PhaseRow[] {
  if (!phases) return [];
  const present = ORDER.filter(([name]) => typeof phases[name] === 'number' && Number.isFinite(phases[name])).map(([name, label]) => ({ name, label, ms: phases[name] as number }));
  const sum = present.reduce((acc, p) => acc + p.ms, 0);
  const total = Math.max(phases.total ?? 0, sum);
  if (total <= 0) return present.map((p) => ({ ...p, offsetPercent: 0, widthPercent: 0 }));
  let offset = 0;
  return present.map((p) => {
    const row = { ...p, offsetPercent: (offset / total) * 100, widthPercent: (p.ms / total) * 100 };
    offset += p.ms;
    return row;
  });
}
