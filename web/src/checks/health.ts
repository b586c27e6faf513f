/** How a check stands, as the console colours it. */
export type HealthTone = 'passing' | 'degraded' | 'failing' | 'unknown';

/** The tone of a check's health (schema CheckHealth); `unknown` before its first result. */
export function healthTone(health: string | null | undefined): HealthTone {
  switch (health) {
    case 'PASSING': return 'passing';
    case 'DEGRADED': return 'degraded';
    case 'FAILING': return 'failing';
    default: return 'unknown';
  }
}

/** The words shown next to a check's colour (never colour alone). */
export function healthLabel(health: string | null | undefined): string {
  switch (healthTone(health)) {
    case 'passing': return 'Passing';
    case 'degraded': return 'Degraded';
    case 'failing': return 'Failing';
    default: return 'No results yet';
  }
}
