/**
 * What a failed webhook request shows its subscriber: a class, never the remote status or body (that
 * would make the delivery list an oracle for what answers where).
 */
export type WebhookFailureReason = 'refused_target' | 'timeout' | 'connection_failed' | 'http_error' | 'invalid_url';

/** The class of a request that threw (`timedOut`: its time limit aborted it). */
export function webhookFailureReason(err: unknown, timedOut: boolean): WebhookFailureReason {
  if (timedOut) return 'timeout';
  const e = err as { code?: string; cause?: { code?: string } } | null;
  if (e?.code === 'REFUSED_TARGET' || e?.cause?.code === 'REFUSED_TARGET') return 'refused_target';
  if (e?.code === 'UND_ERR_CONNECT_TIMEOUT' || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT') return 'timeout';
  return 'connection_failed';
}
