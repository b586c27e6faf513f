import { createHmac } from 'node:crypto';

/** Headers that carry a webhook's signature: ours, and the name receivers written for Checkly check. */
export const SIGNATURE_HEADERS = ['x-lookout-signature', 'x-checkly-signature'] as const;

/** Hex HMAC-SHA256 of the exact bytes sent, keyed by the channel's webhookSecret. */
export function webhookSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}
