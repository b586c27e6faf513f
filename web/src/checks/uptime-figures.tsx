import { uptimeFigures, type UptimeSummaries } from './uptime-windows.js';
import './checks-extras.css';

/**
 * Uptime of a check over 24 h, 7 d and 30 d (from the analytics roll-ups): as figures on the check
 * page, or one compact line in the list.
 */
export function UptimeFigures({ summaries, compact = false }: { summaries: UptimeSummaries; compact?: boolean }) {
  const figures = uptimeFigures(summaries);
  if (compact) {
    return (
      <span className="uptime" aria-label={`Uptime: ${figures.map((f) => `${f.text} over the ${f.long}`).join(', ')}`}>
        {figures.map((f, i) => <span key={f.label}>{i > 0 && <span className="muted"> · </span>}{f.text}</span>)}
      </span>
    );
  }
  return (
    <dl className="figures" aria-label="Uptime">
      {figures.map((f) => <div key={f.label}><dt>Uptime {f.label}</dt><dd>{f.text}</dd></div>)}
    </dl>
  );
}
