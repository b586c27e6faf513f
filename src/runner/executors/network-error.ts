import type { ProbeError } from '../../domain/check-result.js';

/** Code of a probe that did not finish within the attempt's time limit. */
export const TIMEOUT_CODE = 'ETIMEDOUT';
/** Code of a probe stopped because its run was cancelled (the signal of the RunContext). */
export const CANCELLED_CODE = 'CANCELLED';

/**
 * A node socket or resolver error as a ProbeError: its system code when it has one
 * (ECONNREFUSED, ENOTFOUND, EAI_AGAIN, ECONNRESET, EHOSTUNREACH...), else `fallbackCode`.
 */
export function toProbeError(error: unknown, fallbackCode: string, context: string): ProbeError {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' && /^E[A-Z0-9_]+$/.test(e.code) ? e.code : fallbackCode;
  const message = typeof e?.message === 'string' && e.message !== '' ? e.message : String(error);
  return { code, message: `${context}: ${message}` };
}

/** The `host:port` form of an address, bracketing IPv6 literals. */
export function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
