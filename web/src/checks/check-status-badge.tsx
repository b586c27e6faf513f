import { healthLabel, healthTone } from './health.js';

/** A check's health as a coloured dot and words (colour is never the only signal). */
export function CheckStatusBadge({ health }: { health: string | null | undefined }) {
  const tone = healthTone(health);
  return <span className={`status status--${tone}`} data-health={tone}><span className="status__dot" aria-hidden="true" />{healthLabel(health)}</span>;
}
