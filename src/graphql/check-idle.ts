/** `idle` of a REST check status: why the check cannot run (such as NO_LOCATIONS). */
export interface RestCheckIdle {
  code: string;
  message: string;
}

/**
 * The idle reason of a REST check status; null when the check can run, and also when the backend
 * predates the field (it says nothing, so nothing is claimed) or sends something of another shape.
 */
export function toCheckIdle(status: object): RestCheckIdle | null {
  const idle = (status as { idle?: Partial<RestCheckIdle> | null }).idle;
  if (!idle || typeof idle.code !== 'string' || typeof idle.message !== 'string') return null;
  return { code: idle.code, message: idle.message };
}
