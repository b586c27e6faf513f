/** How a delivery attempt that did not succeed may be followed up. */
export interface DeliveryFailure {
  /** HTTP status the receiver answered, when it answered. */
  status?: number;
  /** Decided by the channel's protocol when set (false: missing configuration, a channel gone; SMTP codes). */
  retryable?: boolean;
}

/**
 * Whether a failed attempt is worth repeating: network failures and timeouts (no status), 408,
 * 429 and 5xx HTTP answers are; other 4xx answers (a bad URL, a revoked key) are not. A failure
 * that says whether it is retryable is taken at its word.
 */
export function isRetryableFailure(failure: DeliveryFailure): boolean {
  if (failure.retryable !== undefined) return failure.retryable;
  const status = failure.status;
  if (status === undefined) return true;
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The wait before attempt `attempt + 1` after attempt `attempt` failed, or null when no attempt
 * is left: `delaysMs[n - 1]` follows attempt n, so there are at most `delaysMs.length + 1` attempts.
 */
export function retryDelayMs(attempt: number, delaysMs: readonly number[]): number | null {
  return attempt >= 1 && attempt <= delaysMs.length ? delaysMs[attempt - 1]! : null;
}
